//! Streams: after `subscribe` a connection carries only what the server pushes (events,
//! screen-changed notices). `next_message` waits for the next one until a deadline, with
//! `poll(2)` on the socket, so a deadline never cuts a frame in half.

use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};

use phux_core::ids::PaneId;
use phux_core::wire::{ClientMessage, Done, Frame, ServerMessage, Subscribe, WireError};

use crate::client::connection::Client;
use crate::client::error::ClientError;

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
        let Done {} = self.request(ClientMessage::Subscribe(Subscribe {
            id: 0,
            pane,
            events,
        }))?;
        Ok(())
    }

    /// The next pushed message, waiting until `deadline` (forever when `None`). Binary output
    /// frames are skipped.
    pub fn next_message(&mut self, deadline: Option<Instant>) -> Result<Pushed, ClientError> {
        loop {
            if !self.wait_readable(deadline)? {
                return Ok(Pushed::TimedOut);
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
                Pushed::TimedOut => return Ok((messages, false)),
                Pushed::Ended => return Ok((messages, true)),
            }
        }
    }

    /// Whether a frame (or the end of the stream) can be read before `deadline`.
    fn wait_readable(&self, deadline: Option<Instant>) -> Result<bool, ClientError> {
        loop {
            let timeout = deadline.map(|d| timespec(d.saturating_duration_since(Instant::now())));
            let mut fds = [PollFd::new(self.stream(), PollFlags::IN)];
            match poll(&mut fds, timeout.as_ref()) {
                Ok(0) => return Ok(false),
                Ok(_) => return Ok(true),
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

fn timespec(duration: Duration) -> Timespec {
    Timespec {
        tv_sec: i64::try_from(duration.as_secs()).unwrap_or(i64::MAX),
        tv_nsec: i64::from(duration.subsec_nanos()),
    }
}
