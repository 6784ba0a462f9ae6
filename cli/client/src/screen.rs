//! Reading a pane's screen (`get_screen`) and following its changes: a `ScreenFeed` is a
//! `screen_changed` subscription on its own connection that says when to read again. It is
//! what makes `wait` and `run` answer within milliseconds of the output instead of at the
//! next tick of a polling loop; a slow safety poll covers a notice that never comes.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use phux_core::documents::{ScreenState, WatchEventKind};
use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;
use phux_core::wire::{ClientMessage, GetScreen, ServerMessage};

use crate::connection::Client;
use crate::error::ClientError;
use crate::stop::Stop;
use crate::stream::{Pushed, SCREEN_CHANGED};

/// With no notice for this long, read the screen anyway: a safety net, never the mechanism.
pub const SAFETY_POLL: Duration = Duration::from_secs(1);

/// The pane's screen: the viewport, plus history (`None`: none, `Some(0)`: all retained,
/// `Some(n)`: the last n rows) and, with `cells`, the sparse styled and marked cells. A read
/// never resizes the pane or changes which pane is active.
pub fn get_screen(
    client: &mut Client,
    pane: PaneId,
    scrollback: Option<u32>,
    cells: bool,
) -> Result<ScreenState, ClientError> {
    client.request(ClientMessage::GetScreen(GetScreen {
        id: 0,
        pane,
        scrollback,
        cells,
    }))
}

/// Why `ScreenFeed::next_change` returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The screen may have changed (a notice, a pane event, or the safety poll): read it.
    Maybe,
    /// The deadline passed first.
    Deadline,
    /// The pane is gone.
    Closed,
}

/// A `screen_changed` subscription to one pane.
#[derive(Debug)]
pub struct ScreenFeed {
    stream: Client,
    socket: PathBuf,
    /// The satellite the pane lives on, reached through the hub at `socket`.
    route: Option<String>,
    pane: PaneId,
    /// Notices received, for diagnostics and benchmarks.
    pub notices: u64,
    /// Reads triggered by the safety poll rather than by a notice.
    pub safety_polls: u64,
    /// The pane's program's status (exit code, or 128 + signal), once its end was heard.
    pub ended: Option<i32>,
}

impl ScreenFeed {
    /// Subscribes to `pane`'s changes. Call it before the first read (or before acting), so no
    /// change can fall between the read and the subscription.
    pub fn open(client: &Client, pane: PaneId) -> Result<ScreenFeed, ClientError> {
        let socket = client.socket();
        let route = client.route().map(str::to_owned);
        let stream = subscribe(socket, route.as_deref(), pane)?;
        Ok(ScreenFeed {
            stream,
            socket: socket.to_path_buf(),
            route,
            pane,
            notices: 0,
            safety_polls: 0,
            ended: None,
        })
    }

    /// Waits until the screen may have changed, until `deadline` (forever when `None`), or
    /// until the pane closes. Notices that queued up meanwhile are taken together: one read
    /// answers them all.
    pub fn next_change(&mut self, deadline: Option<Instant>) -> Result<Change, ClientError> {
        self.next_change_or_stop(deadline, None)
    }

    /// Like [`ScreenFeed::next_change`], but also wakes (with [`Change::Maybe`]) as soon as
    /// `stop` is pressed: the caller checks [`Stop::is_pressed`] after each change.
    pub fn next_change_or_stop(
        &mut self,
        deadline: Option<Instant>,
        stop: Option<&Stop>,
    ) -> Result<Change, ClientError> {
        let poll_at = Instant::now() + SAFETY_POLL;
        let wake = deadline.map_or(poll_at, |d| d.min(poll_at));
        match self
            .stream
            .next_message_or_stop(Some(wake), stop.map(Stop::fd))?
        {
            Pushed::Message(message) => {
                let (queued, ended) = self.stream.drain_pushed()?;
                self.count(&message);
                for message in &queued {
                    self.count(message);
                }
                if ended {
                    return self.resubscribe();
                }
                Ok(Change::Maybe)
            }
            Pushed::TimedOut if deadline.is_some_and(|d| Instant::now() >= d) => {
                Ok(Change::Deadline)
            }
            Pushed::Stopped => Ok(Change::Maybe),
            Pushed::TimedOut => {
                self.safety_polls += 1;
                Ok(Change::Maybe)
            }
            Pushed::Ended => self.resubscribe(),
        }
    }

    /// The pane's status if its end is among what the server pushed (read without waiting):
    /// a read that failed because the server stopped with its last pane may still find it.
    pub fn heard_end(&mut self) -> Option<i32> {
        if self.ended.is_none() {
            if let Ok((queued, _)) = self.stream.drain_pushed() {
                for message in &queued {
                    self.count(message);
                }
            }
        }
        self.ended
    }

    fn count(&mut self, message: &ServerMessage) {
        match message {
            ServerMessage::ScreenChanged(_) => self.notices += 1,
            ServerMessage::Event(event) => {
                if let WatchEventKind::PaneClosed { exit_status } = event.event {
                    self.ended = exit_status;
                }
            }
            _ => {}
        }
    }

    /// The stream ended: the pane closed, the server dropped a subscriber that fell behind, or
    /// the server went away. Subscribing again tells them apart; no server to subscribe to
    /// any more is `server_disconnected` (the command was under way), not `no_server`.
    fn resubscribe(&mut self) -> Result<Change, ClientError> {
        match subscribe(&self.socket, self.route.as_deref(), self.pane) {
            Ok(stream) => {
                self.stream = stream;
                Ok(Change::Maybe)
            }
            Err(ClientError::Server {
                code: ErrorCode::NoSuchTarget | ErrorCode::PaneExited,
                ..
            }) => Ok(Change::Closed),
            Err(ClientError::NoServer { socket, .. }) => {
                Err(ClientError::ServerDisconnected { socket })
            }
            // The link to the pane's satellite dropped (the hub now calls it unreachable).
            Err(ClientError::Server {
                code: ErrorCode::PartialView,
                ..
            }) if self.route.is_some() => Err(ClientError::ServerDisconnected {
                socket: self.socket.clone(),
            }),
            Err(e) => Err(e),
        }
    }
}

fn subscribe(socket: &Path, route: Option<&str>, pane: PaneId) -> Result<Client, ClientError> {
    let mut stream = Client::connect_routed(socket, route)?;
    stream.subscribe(Some(pane), vec![SCREEN_CHANGED.to_owned()])?;
    Ok(stream)
}
