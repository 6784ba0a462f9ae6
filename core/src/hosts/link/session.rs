//! One live link to a host's `phux proxy` (an ssh process, or `phux __remote-link` for
//! `wss://`): the channels multiplexed over it, the writer every channel shares, and the pump
//! that hands the host's bytes to the right local connection.

use std::collections::HashMap;
use std::io::Write;
use std::os::unix::net::UnixStream;
use std::process::{Child, ChildStdin, ChildStdout};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::hosts::link_frame::{self, LinkFrame, LinkFrameError, CONTROL_CHANNEL, MAX_CHUNK};

#[derive(Debug)]
pub struct Session {
    writer: Mutex<ChildStdin>,
    /// `None` once the session ended: no channel may open on it then.
    channels: Mutex<Option<HashMap<u32, UnixStream>>>,
    next_channel: AtomicU32,
    child: Mutex<Child>,
}

impl Session {
    pub fn new(child: Child, writer: ChildStdin) -> Arc<Session> {
        Arc::new(Session {
            writer: Mutex::new(writer),
            channels: Mutex::new(Some(HashMap::new())),
            next_channel: AtomicU32::new(CONTROL_CHANNEL + 1),
            child: Mutex::new(child),
        })
    }

    fn channels(&self) -> MutexGuard<'_, Option<HashMap<u32, UnixStream>>> {
        self.channels.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The stream of `channel`, if it is open.
    fn local(&self, channel: u32) -> Option<UnixStream> {
        self.channels()
            .as_ref()
            .and_then(|c| c.get(&channel))
            .and_then(|s| s.try_clone().ok())
    }

    /// Takes `channel` out of the open ones; `None` if it was not open.
    fn take(&self, channel: u32) -> Option<UnixStream> {
        self.channels().as_mut().and_then(|c| c.remove(&channel))
    }

    /// Registers `local` as a new channel's end here; the satellite's bytes for it are written
    /// to `local`. The caller pumps `local`'s bytes the other way with [`Session::forward`].
    /// Refused once the session ended (a channel opened then would never be closed).
    pub fn open_channel(&self, local: &UnixStream) -> std::io::Result<u32> {
        let channel = self.next_channel.fetch_add(1, Ordering::Relaxed);
        let clone = local.try_clone()?;
        match self.channels().as_mut() {
            Some(channels) => {
                channels.insert(channel, clone);
                Ok(channel)
            }
            None => Err(std::io::Error::new(
                std::io::ErrorKind::NotConnected,
                "the link just dropped",
            )),
        }
    }

    /// Copies what `local` sends into `channel` until `local` ends, then closes the channel.
    pub fn forward(&self, channel: u32, mut local: &UnixStream) {
        let mut buf = vec![0u8; MAX_CHUNK];
        loop {
            match std::io::Read::read(&mut local, &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if self.send(channel, &buf[..n]).is_err() {
                        break;
                    }
                }
            }
        }
        if self.take(channel).is_some() {
            let _ = link_frame::write_close(&mut *self.writer(), channel);
        }
    }

    fn writer(&self) -> MutexGuard<'_, ChildStdin> {
        self.writer.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn send(&self, channel: u32, bytes: &[u8]) -> std::io::Result<()> {
        for chunk in bytes.chunks(MAX_CHUNK) {
            link_frame::write_frame(&mut *self.writer(), channel, chunk)?;
        }
        Ok(())
    }

    /// Hands the satellite's frames to their channels until the link ends; returns why.
    pub fn pump(&self, input: ChildStdout) -> String {
        let mut input = std::io::BufReader::with_capacity(MAX_CHUNK + 8, input);
        let reason = loop {
            match link_frame::read_frame(&mut input) {
                Ok(LinkFrame::Data { channel, bytes }) => {
                    if let Some(mut local) = self.local(channel) {
                        if local.write_all(&bytes).is_err() {
                            // The local client went away: close its channel both ways.
                            let _ = local.shutdown(std::net::Shutdown::Both);
                        }
                    }
                }
                Ok(LinkFrame::Close { channel }) => {
                    if let Some(local) = self.take(channel) {
                        let _ = local.shutdown(std::net::Shutdown::Both);
                    }
                }
                Err(LinkFrameError::Closed) => break "the link closed".to_owned(),
                Err(e) => break e.to_string(),
            }
        };
        self.end();
        reason
    }

    /// Ends every channel (their clients see the server go away) and the ssh process.
    pub fn end(&self) {
        let open = self.channels().take().unwrap_or_default();
        for (_, local) in open {
            let _ = local.shutdown(std::net::Shutdown::Both);
        }
        let mut child = self.child.lock().unwrap_or_else(|p| p.into_inner());
        let _ = child.kill();
        let _ = child.wait();
    }
}
