//! An admitted WebSocket, carried into the server. `/wire`: the messages are the bytes of one
//! client connection (frames, hello first), served as a local client's are but with the
//! credential's grant. `/link`: the bytes of a hub's link (`phux_core::hosts::link_frame`),
//! each channel one such connection, as `phux proxy` carries them over ssh.
//!
//! What the server says waits for the client in a queue of at most [`REPLY_BUDGET`] bytes per
//! WebSocket; past it the server's side waits, and a client that reads nothing for
//! [`STALL_DEADLINE`] is dropped (`reader_stalled`). Each client connection is one of the
//! credential's channels (`sessions`), and the owner may end the WebSocket at any moment.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use phux_core::hosts::link_frame::{self, LinkFrame, ProxyHello, CONTROL_CHANNEL};
use phux_core::wire::PROTOCOL;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use super::sessions::{Channel, Session};
use super::tokens::Admitted;
use crate::connection::{self, Grant};
use crate::shared::Shared;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Wire,
    Link,
}

/// Bytes of replies queued for one WebSocket's client, at most.
pub const REPLY_BUDGET: usize = 2 << 20;
/// A client that takes none of its queued replies for this long is dropped.
pub const STALL_DEADLINE: Duration = Duration::from_secs(10);

/// The most one read from a client connection takes (a link frame may carry up to
/// `link_frame::MAX_CHUNK`).
const READ_CHUNK: usize = 64 * 1024;

/// How a WebSocket's session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The client closed it, or its connection went.
    Closed,
    /// The owner ended it (`pair disconnect`, `pair revoke --disconnect`).
    Evicted,
    /// The client read nothing for [`STALL_DEADLINE`] while replies waited.
    ReaderStalled,
    /// A link sent a frame that is not one.
    BadFrame,
}

impl Ended {
    /// The typed reason, for the log (`None` for an ordinary end).
    pub fn log(self) -> Option<String> {
        match self {
            Ended::Closed => None,
            Ended::Evicted => Some("evicted: the owner ended its connections".into()),
            Ended::ReaderStalled => Some(format!(
                "reader_stalled: it read none of its replies for {} s while {} MiB of them \
                 waited (the most a connection may have waiting)",
                STALL_DEADLINE.as_secs(),
                REPLY_BUDGET >> 20
            )),
            Ended::BadFrame => Some("bad_frame: its link sent a frame that is not one".into()),
        }
    }
}

/// One queued message and the part of the budget it holds until it is sent.
type Queued = (Vec<u8>, OwnedSemaphorePermit);

/// The sending side of a WebSocket's queue, shared by every client connection on it.
#[derive(Clone)]
struct Outbox {
    tx: mpsc::UnboundedSender<Queued>,
    budget: Arc<Semaphore>,
}

impl Outbox {
    /// Queues `bytes` once the budget has room for them; false when the WebSocket is gone.
    async fn send(&self, bytes: Vec<u8>) -> bool {
        let cost = u32::try_from(bytes.len().clamp(1, REPLY_BUDGET)).unwrap_or(u32::MAX);
        let Ok(permit) = Arc::clone(&self.budget).acquire_many_owned(cost).await else {
            return false;
        };
        self.tx.send((bytes, permit)).is_ok()
    }
}

pub async fn serve<S>(
    ws: WebSocketStream<S>,
    kind: Kind,
    shared: &Arc<Shared>,
    who: &Admitted,
    session: &Session,
) -> Ended
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let grant = if who.read_only {
        Grant::ReadOnly
    } else {
        Grant::Full
    };
    let (mut sink, mut source) = ws.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<Queued>();
    let budget = Arc::new(Semaphore::new(REPLY_BUDGET));
    let out = Outbox {
        tx,
        budget: Arc::clone(&budget),
    };
    let (stalled_tx, mut stalled) = tokio::sync::oneshot::channel::<()>();
    let mut writer = tokio::spawn(async move {
        while let Some((bytes, permit)) = rx.recv().await {
            match tokio::time::timeout(STALL_DEADLINE, sink.send(Message::binary(bytes))).await {
                Ok(Ok(())) => drop(permit),
                Ok(Err(_)) => break,
                Err(_) => {
                    let _ = stalled_tx.send(());
                    return;
                }
            }
        }
        let _ = sink.close().await;
    });
    let mut ended = Ended::Closed;
    match kind {
        Kind::Wire => {
            let Some(channel) = session.open_channel() else {
                writer.abort();
                return Ended::Closed;
            };
            let Some(mut local) = open(shared, grant, out.clone(), None) else {
                writer.abort();
                return Ended::Closed;
            };
            loop {
                let message = tokio::select! {
                    message = source.next() => message,
                    () = session.ended() => { ended = Ended::Evicted; break; }
                    stall = &mut stalled => {
                        // Sent: the client read nothing in time; dropped: the writer ended
                        // because the client's connection did.
                        ended = if stall.is_ok() { Ended::ReaderStalled } else { Ended::Closed };
                        break;
                    }
                };
                let go_on = match message {
                    Some(Ok(Message::Binary(bytes))) => local.write_all(&bytes).await.is_ok(),
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => false,
                    Some(Ok(_)) => true,
                };
                if !go_on {
                    break;
                }
            }
            let _ = local.shutdown().await;
            drop(channel);
        }
        Kind::Link => {
            let hello = ProxyHello {
                protocol: PROTOCOL,
                version: env!("CARGO_PKG_VERSION").to_owned(),
            };
            let hello = serde_json::to_vec(&hello).unwrap_or_default();
            if !out.send(frame_bytes(CONTROL_CHANNEL, &hello)).await {
                writer.abort();
                return Ended::Closed;
            }
            let mut link = Link {
                shared: Arc::clone(shared),
                grant,
                out: out.clone(),
                channels: HashMap::new(),
                pending: Vec::new(),
                session,
            };
            loop {
                let message = tokio::select! {
                    message = source.next() => message,
                    () = session.ended() => { ended = Ended::Evicted; break; }
                    stall = &mut stalled => {
                        // Sent: the client read nothing in time; dropped: the writer ended
                        // because the client's connection did.
                        ended = if stall.is_ok() { Ended::ReaderStalled } else { Ended::Closed };
                        break;
                    }
                };
                let go_on = match message {
                    Some(Ok(Message::Binary(bytes))) => {
                        let whole = link.receive(&bytes).await;
                        if !whole {
                            ended = Ended::BadFrame;
                        }
                        whole
                    }
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => false,
                    Some(Ok(_)) => true,
                };
                if !go_on {
                    break;
                }
            }
            for (_, (mut local, _channel)) in link.channels.drain() {
                let _ = local.shutdown().await;
            }
        }
    }
    drop(out);
    if ended == Ended::Closed {
        // What is queued still goes out (a client that closed may still read), within the
        // stall deadline.
        let _ = tokio::time::timeout(STALL_DEADLINE, &mut writer).await;
    }
    // The owner's eviction or a stalled reader ends it now; so does a writer still waiting.
    writer.abort();
    budget.close();
    ended
}

/// A new client connection served in this process with `grant`; what the server says on it
/// goes out as `channel`'s frames (a link) or as they come (the wire).
fn open(
    shared: &Arc<Shared>,
    grant: Grant,
    out: Outbox,
    channel: Option<u32>,
) -> Option<tokio::io::WriteHalf<tokio::net::UnixStream>> {
    let (ours, theirs) = std::os::unix::net::UnixStream::pair().ok()?;
    let served = Arc::clone(shared);
    std::thread::Builder::new()
        .name("remote-client".into())
        .spawn(move || connection::serve_remote(theirs, served, grant))
        .ok()?;
    ours.set_nonblocking(true).ok()?;
    let ours = tokio::net::UnixStream::from_std(ours).ok()?;
    let (mut reader, writer) = tokio::io::split(ours);
    tokio::spawn(async move {
        // Smaller than a link frame may be: a channel's reads cost this much each, at most.
        let mut buf = vec![0u8; READ_CHUNK];
        loop {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let bytes = match channel {
                        Some(channel) => frame_bytes(channel, &buf[..n]),
                        None => buf[..n].to_vec(),
                    };
                    if !out.send(bytes).await {
                        return;
                    }
                }
            }
        }
        if let Some(channel) = channel {
            let _ = out.send(frame_bytes(channel, &[])).await;
        }
    });
    Some(writer)
}

/// One link frame's bytes (an empty body closes the channel).
fn frame_bytes(channel: u32, bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + bytes.len());
    // Writing to a Vec cannot fail.
    let _ = link_frame::write_frame(&mut out, channel, bytes);
    out
}

/// The link's far end: frames in, connections out.
struct Link<'a> {
    shared: Arc<Shared>,
    grant: Grant,
    out: Outbox,
    channels: HashMap<u32, (tokio::io::WriteHalf<tokio::net::UnixStream>, Channel)>,
    /// Bytes of a frame not yet whole (a WebSocket message need not end at a frame's end).
    pending: Vec<u8>,
    session: &'a Session,
}

impl Link<'_> {
    /// Takes the link's next bytes; false when the link must end (a malformed frame).
    async fn receive(&mut self, bytes: &[u8]) -> bool {
        self.pending.extend_from_slice(bytes);
        let mut used = 0;
        let whole = loop {
            match link_frame::decode(&self.pending[used..]) {
                Ok(Some((frame, took))) => {
                    used += took;
                    self.apply(frame).await;
                }
                Ok(None) => break true,
                Err(e) => {
                    crate::log::line(&format!("remote: a link sent a bad frame: {e}"));
                    break false;
                }
            }
        };
        self.pending.drain(..used);
        whole
    }

    /// One frame from the hub: a channel's bytes (opening it on its first), or its close.
    async fn apply(&mut self, frame: LinkFrame) {
        let (channel, body) = match frame {
            LinkFrame::Data { channel, .. } if channel == CONTROL_CHANNEL => return,
            LinkFrame::Close { channel } => {
                if let Some((mut local, _)) = self.channels.remove(&channel) {
                    let _ = local.shutdown().await;
                }
                return;
            }
            LinkFrame::Data { channel, bytes } => (channel, bytes),
        };
        if !self.channels.contains_key(&channel) {
            // A channel more than the credential may hold is closed at once.
            let opened = self.session.open_channel().and_then(|held| {
                open(&self.shared, self.grant, self.out.clone(), Some(channel))
                    .map(|local| (local, held))
            });
            match opened {
                Some(opened) => {
                    self.channels.insert(channel, opened);
                }
                None => {
                    let _ = self.out.send(frame_bytes(channel, &[])).await;
                    return;
                }
            }
        }
        let failed = match self.channels.get_mut(&channel) {
            Some((local, _)) => local.write_all(&body).await.is_err(),
            None => false,
        };
        if failed {
            self.channels.remove(&channel);
            let _ = self.out.send(frame_bytes(channel, &[])).await;
        }
    }
}
