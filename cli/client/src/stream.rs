//! Streams: after `subscribe` a connection carries only what the server pushes (events,
//! screen-changed notices). `next_message` waits for the next one until a deadline, with
//! `poll(2)` on the socket, so a deadline never cuts a frame in half.

use std::os::fd::BorrowedFd;
use std::time::{Duration, Instant};

use phux_core::ids::PaneId;
use phux_core::wire::{ClientMessage, Frame, ServerMessage, Subscribe, WireError};
use rustix::event::{poll, PollFd, PollFlags, Timespec};

use crate::connection::Client;
use crate::error::ClientError;

/// The event name that asks for coalesced screen-changed notices (plus every watch event of
/// the pane) instead of watch events only.
pub const SCREEN_CHANGED: &str = "screen_changed";

/// What `next_message` found.
#[derive(Debug, Clone, PartialEq)]
pub enum Pushed {
    /// A pushed message (an event, a screen-changed notice, or a newer kind).
    Message(ServerMessage),
    /// The deadline passed with nothing to read.
    TimedOut,
    /// The server ended the stream (the pane closed, or the server went away).
    Ended,
    /// The caller's stop descriptor became readable (a signal arrived, say).
    Stopped,
}

impl Client {
    /// Turns this connection into a stream of `events` of `pane` (every pane when `None`).
    /// Returns once the server has accepted: from then on, use [`Client::next_message`].
    /// A name the server does not know is refused with `unknown_event_name`.
    pub fn subscribe(
        &mut self,
        pane: Option<PaneId>,
        events: Vec<String>,
    ) -> Result<(), ClientError> {
        self.subscribe_since(pane, events, None)
    }

    /// Like [`Client::subscribe`], but the server first replays the events of the last
    /// `since_ms` milliseconds it remembers (with `pane`, the stream then does not end when
    /// that pane closes).
    pub fn subscribe_since(
        &mut self,
        pane: Option<PaneId>,
        events: Vec<String>,
        since_ms: Option<u64>,
    ) -> Result<(), ClientError> {
        self.subscribe_from(pane, events, since_ms, None)
            .map(|_| ())
    }

    /// Like [`Client::subscribe_since`], replaying from `after_ns` (a seen event's `t_ns`)
    /// when given; returns the server's monotonic time at the subscription (`now_ns`; 0 from a
    /// server that does not say), where a watcher that saw nothing resumes.
    pub fn subscribe_from(
        &mut self,
        pane: Option<PaneId>,
        events: Vec<String>,
        since_ms: Option<u64>,
        after_ns: Option<u64>,
    ) -> Result<u64, ClientError> {
        let answer: serde_json::Value = self.request(ClientMessage::Subscribe(Subscribe {
            id: 0,
            pane,
            events,
            since_ms,
            after_ns,
        }))?;
        Ok(answer
            .get("now_ns")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0))
    }

    /// The next pushed message, waiting until `deadline` (forever when `None`). Binary output
    /// frames are skipped.
    pub fn next_message(&mut self, deadline: Option<Instant>) -> Result<Pushed, ClientError> {
        self.next_message_or_stop(deadline, None)
    }

    /// Like [`Client::next_message`], but also returns [`Pushed::Stopped`] as soon as `stop`
    /// (the read end of a signal pipe, say) can be read.
    pub fn next_message_or_stop(
        &mut self,
        deadline: Option<Instant>,
        stop: Option<BorrowedFd<'_>>,
    ) -> Result<Pushed, ClientError> {
        loop {
            match self.wait_readable(deadline, stop)? {
                Readiness::Stream => {}
                Readiness::Stop => return Ok(Pushed::Stopped),
                Readiness::Nothing => return Ok(Pushed::TimedOut),
            }
            match self.read_pushed_frame() {
                Ok(Frame::Json(bytes)) => {
                    let message = Frame::Json(bytes)
                        .decode::<ServerMessage>()
                        .map_err(|e| ClientError::from_wire(self.socket(), e))?;
                    return Ok(Pushed::Message(message));
                }
                Ok(_) => continue,
                Err(WireError::Closed) => return Ok(Pushed::Ended),
                Err(WireError::Io(e)) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                    return Ok(Pushed::Ended)
                }
                Err(e) => return Err(ClientError::from_wire(self.socket(), e)),
            }
        }
    }

    /// Every message already waiting, without blocking; stops at the end of the stream.
    pub fn drain_pushed(&mut self) -> Result<(Vec<ServerMessage>, bool), ClientError> {
        let mut messages = Vec::new();
        loop {
            match self.next_message(Some(Instant::now()))? {
                Pushed::Message(message) => messages.push(message),
                Pushed::TimedOut | Pushed::Stopped => return Ok((messages, false)),
                Pushed::Ended => return Ok((messages, true)),
            }
        }
    }

    /// What can be read first, before `deadline`: a frame (or the end of the stream), or
    /// `stop`.
    fn wait_readable(
        &self,
        deadline: Option<Instant>,
        stop: Option<BorrowedFd<'_>>,
    ) -> Result<Readiness, ClientError> {
        loop {
            let timeout = deadline.map(|d| timespec(d.saturating_duration_since(Instant::now())));
            let mut fds = vec![PollFd::new(self.stream(), PollFlags::IN)];
            if let Some(stop) = stop.as_ref() {
                fds.push(PollFd::new(stop, PollFlags::IN));
            }
            match poll(&mut fds, timeout.as_ref()) {
                Ok(0) => return Ok(Readiness::Nothing),
                Ok(_) if fds.get(1).is_some_and(|f| !f.revents().is_empty()) => {
                    return Ok(Readiness::Stop)
                }
                Ok(_) => return Ok(Readiness::Stream),
                Err(rustix::io::Errno::INTR) => continue,
                Err(e) => {
                    return Err(ClientError::from_wire(
                        self.socket(),
                        WireError::Io(std::io::Error::from(e)),
                    ))
                }
            }
        }
    }
}

enum Readiness {
    Stream,
    Stop,
    Nothing,
}

fn timespec(duration: Duration) -> Timespec {
    Timespec {
        tv_sec: i64::try_from(duration.as_secs()).unwrap_or(i64::MAX),
        tv_nsec: i64::from(duration.subsec_nanos()),
    }
}
