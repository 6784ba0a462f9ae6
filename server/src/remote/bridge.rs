//! An admitted WebSocket, carried into the server. `/wire`: the messages are the bytes of one
//! client connection (frames, hello first), served as a local client's are but with the
//! credential's grant. `/link`: the bytes of a hub's link (`phux_core::hosts::link_frame`),
//! each channel one such connection, as `phux proxy` carries them over ssh.

use std::collections::HashMap;
use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use phux_core::hosts::link_frame::{self, LinkFrame, ProxyHello, CONTROL_CHANNEL, MAX_CHUNK};
use phux_core::wire::PROTOCOL;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use super::tokens::Admitted;
use crate::connection::{self, Grant};
use crate::shared::Shared;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Wire,
    Link,
}

/// Outgoing messages queued per WebSocket: a slow reader holds back the connection's pump.
const OUT_QUEUE: usize = 64;

pub async fn serve<S>(ws: WebSocketStream<S>, kind: Kind, shared: &Arc<Shared>, who: &Admitted)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let grant = if who.read_only {
        Grant::ReadOnly
    } else {
        Grant::Full
    };
    let (mut sink, mut source) = ws.split();
    let (out_tx, mut out_rx) = mpsc::channel::<Vec<u8>>(OUT_QUEUE);
    let writer = tokio::spawn(async move {
        while let Some(bytes) = out_rx.recv().await {
            if sink.send(Message::binary(bytes)).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    match kind {
        Kind::Wire => {
            let Some(mut local) = open(shared, grant, out_tx.clone(), None) else {
                return;
            };
            while let Some(Ok(message)) = source.next().await {
                let go_on = match message {
                    Message::Binary(bytes) => local.write_all(&bytes).await.is_ok(),
                    Message::Close(_) => false,
                    _ => true,
                };
                if !go_on {
                    break;
                }
            }
            let _ = local.shutdown().await;
        }
        Kind::Link => {
            let hello = ProxyHello {
                protocol: PROTOCOL,
                version: env!("CARGO_PKG_VERSION").to_owned(),
            };
            let hello = serde_json::to_vec(&hello).unwrap_or_default();
            if out_tx
                .send(frame_bytes(CONTROL_CHANNEL, &hello))
                .await
                .is_err()
            {
                return;
            }
            let mut link = Link {
                shared: Arc::clone(shared),
                grant,
                out: out_tx.clone(),
                channels: HashMap::new(),
                pending: Vec::new(),
            };
            while let Some(Ok(message)) = source.next().await {
                let go_on = match message {
                    Message::Binary(bytes) => link.receive(&bytes).await,
                    Message::Close(_) => false,
                    _ => true,
                };
                if !go_on {
                    break;
                }
            }
            for (_, mut local) in link.channels.drain() {
                let _ = local.shutdown().await;
            }
        }
    }
    drop(out_tx);
    let _ = writer.await;
}

/// A new client connection served in this process with `grant`; what the server says on it
/// goes out as `channel`'s frames (a link) or as they come (the wire).
fn open(
    shared: &Arc<Shared>,
    grant: Grant,
    out: mpsc::Sender<Vec<u8>>,
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
        let mut buf = vec![0u8; MAX_CHUNK];
        loop {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let bytes = match channel {
                        Some(channel) => frame_bytes(channel, &buf[..n]),
                        None => buf[..n].to_vec(),
                    };
                    if out.send(bytes).await.is_err() {
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
struct Link {
    shared: Arc<Shared>,
    grant: Grant,
    out: mpsc::Sender<Vec<u8>>,
    channels: HashMap<u32, tokio::io::WriteHalf<tokio::net::UnixStream>>,
    /// Bytes of a frame not yet whole (a WebSocket message need not end at a frame's end).
    pending: Vec<u8>,
}

/// The most channels one link opens at once.
const MAX_CHANNELS: usize = 512;

impl Link {
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
                if let Some(mut local) = self.channels.remove(&channel) {
                    let _ = local.shutdown().await;
                }
                return;
            }
            LinkFrame::Data { channel, bytes } => (channel, bytes),
        };
        if !self.channels.contains_key(&channel) {
            let opened = (self.channels.len() < MAX_CHANNELS)
                .then(|| open(&self.shared, self.grant, self.out.clone(), Some(channel)))
                .flatten();
            match opened {
                Some(local) => {
                    self.channels.insert(channel, local);
                }
                None => {
                    let _ = self.out.send(frame_bytes(channel, &[])).await;
                    return;
                }
            }
        }
        let failed = match self.channels.get_mut(&channel) {
            Some(local) => local.write_all(&body).await.is_err(),
            None => false,
        };
        if failed {
            self.channels.remove(&channel);
            let _ = self.out.send(frame_bytes(channel, &[])).await;
        }
    }
}
