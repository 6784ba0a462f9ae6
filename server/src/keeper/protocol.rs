//! What a pane's keeper and a server say to each other: one JSON message per packet of a
//! `SOCK_SEQPACKET` unix socket (so a message and the descriptors it carries arrive together,
//! whole or not at all), descriptors passed with SCM_RIGHTS.

use std::io::{IoSlice, IoSliceMut};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;

use rustix::net::{
    recvmsg, sendmsg, AddressFamily, RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags,
    SendAncillaryBuffer, SendAncillaryMessage, SendFlags, SocketAddrUnix, SocketFlags, SocketType,
};
use serde::{Deserialize, Serialize};

/// The largest message a keeper reads (a start carries the program's arguments and
/// environment).
const MAX_TO_KEEPER: usize = 128 * 1024;
/// The largest message a server reads from a keeper (a hello is a few hundred bytes; a
/// failure's message is cut to fit). Small: a pane's waiter keeps its buffer while it waits.
const MAX_FROM_KEEPER: usize = 4 * 1024;

/// The most of a failure's message a keeper sends.
pub const MAX_FAILURE_TEXT: usize = 2 * 1024;

/// How large a buffer a message of type `T` is read into.
pub trait Bounded {
    const MAX: usize;
}

impl Bounded for FromKeeper {
    const MAX: usize = MAX_FROM_KEEPER;
}

impl Bounded for ToKeeper {
    const MAX: usize = MAX_TO_KEEPER;
}
/// The most descriptors one message carries (a hello: the master and the keep's memfds).
const MAX_FDS: usize = 8;

/// What a keeper tells its server.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FromKeeper {
    /// Sent to each server that takes the pane (at its start, and to each that adopts it),
    /// with the PTY master and the keep's descriptors (ring, then the two snapshot slots).
    Hello {
        pane: u32,
        /// The pane's program (the keeper's child).
        pid: u32,
        keeper_pid: u32,
        /// The size and history the pane started with: the screen an empty keep replays onto.
        cols: u16,
        rows: u16,
        history_limit: usize,
        /// The program's raw wait status, when it has already ended.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        exited: Option<i32>,
    },
    /// The program ended (its raw wait status). Sent to every server holding the pane.
    Exited { status: i32 },
    /// The program could not be started (the keeper ends after saying so).
    Failed { message: String },
}

/// What a server tells a keeper.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToKeeper {
    /// The first message a new keeper reads: what to run, and where to listen for the servers
    /// that take the pane over later.
    Start(KeeperStart),
    /// The first message on a connection to a keeper's socket: a server takes the pane over.
    Adopt,
    /// The server has kept what it needs of the ended program: the keeper may end.
    Release,
    /// The server stops on purpose (`kill --server`): the keeper hangs the terminal up and ends.
    HangUp,
}

/// What a keeper runs and where it listens.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct KeeperStart {
    pub pane: u32,
    pub argv: Vec<String>,
    pub cwd: Option<std::path::PathBuf>,
    pub env: Vec<(String, String)>,
    pub cols: u16,
    pub rows: u16,
    pub history_limit: usize,
    /// The keeper's socket (in the server's keepers directory).
    pub socket: std::path::PathBuf,
}

/// Why a message could not be passed.
#[derive(Debug, thiserror::Error)]
pub enum ProtocolError {
    #[error("the other side closed the connection")]
    Closed,
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("an unreadable message: {0}")]
    Malformed(String),
}

impl From<rustix::io::Errno> for ProtocolError {
    fn from(errno: rustix::io::Errno) -> Self {
        ProtocolError::Io(errno.into())
    }
}

/// A connected pair of packet sockets (close-on-exec).
pub fn pair() -> std::io::Result<(OwnedFd, OwnedFd)> {
    rustix::net::socketpair(
        AddressFamily::UNIX,
        SocketType::SEQPACKET,
        SocketFlags::CLOEXEC,
        None,
    )
    .map_err(Into::into)
}

/// Connects to a keeper's socket.
pub fn connect(path: &Path) -> std::io::Result<OwnedFd> {
    let socket = rustix::net::socket_with(
        AddressFamily::UNIX,
        SocketType::SEQPACKET,
        SocketFlags::CLOEXEC,
        None,
    )?;
    let address = SocketAddrUnix::new(path)?;
    rustix::net::connect(&socket, &address)?;
    Ok(socket)
}

/// A listening socket at `path` (which must not exist).
pub fn listen(path: &Path) -> std::io::Result<OwnedFd> {
    let socket = rustix::net::socket_with(
        AddressFamily::UNIX,
        SocketType::SEQPACKET,
        SocketFlags::CLOEXEC | SocketFlags::NONBLOCK,
        None,
    )?;
    let address = SocketAddrUnix::new(path)?;
    rustix::net::bind(&socket, &address)?;
    rustix::net::listen(&socket, 8)?;
    Ok(socket)
}

/// Sends `message` with `fds` as one packet.
pub fn send<T: Serialize>(
    socket: impl AsFd,
    message: &T,
    fds: &[BorrowedFd<'_>],
) -> Result<(), ProtocolError> {
    let body = serde_json::to_vec(message).map_err(|e| ProtocolError::Malformed(e.to_string()))?;
    let mut space = vec![std::mem::MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(MAX_FDS))];
    let mut ancillary = SendAncillaryBuffer::new(&mut space);
    if !fds.is_empty() && !ancillary.push(SendAncillaryMessage::ScmRights(fds)) {
        return Err(ProtocolError::Malformed("too many descriptors".into()));
    }
    loop {
        match sendmsg(
            &socket,
            &[IoSlice::new(&body)],
            &mut ancillary,
            SendFlags::NOSIGNAL,
        ) {
            Ok(_) => return Ok(()),
            Err(rustix::io::Errno::INTR) => continue,
            Err(rustix::io::Errno::PIPE | rustix::io::Errno::CONNRESET) => {
                return Err(ProtocolError::Closed)
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// Receives one packet: its message and the descriptors it carried. Blocks unless the socket
/// is non-blocking.
pub fn receive<T: for<'de> Deserialize<'de> + Bounded>(
    socket: impl AsFd,
) -> Result<(T, Vec<OwnedFd>), ProtocolError> {
    let mut body = vec![0u8; T::MAX];
    let mut space = vec![std::mem::MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(MAX_FDS))];
    let mut ancillary = RecvAncillaryBuffer::new(&mut space);
    let received = loop {
        match recvmsg(
            &socket,
            &mut [IoSliceMut::new(&mut body)],
            &mut ancillary,
            RecvFlags::CMSG_CLOEXEC,
        ) {
            Ok(received) => break received,
            Err(rustix::io::Errno::INTR) => continue,
            Err(rustix::io::Errno::CONNRESET) => return Err(ProtocolError::Closed),
            Err(e) => return Err(e.into()),
        }
    };
    let mut fds = Vec::new();
    for message in ancillary.drain() {
        if let RecvAncillaryMessage::ScmRights(rights) = message {
            fds.extend(rights);
        }
    }
    if received.bytes == 0 {
        return Err(ProtocolError::Closed);
    }
    let message = serde_json::from_slice(&body[..received.bytes])
        .map_err(|e| ProtocolError::Malformed(e.to_string()))?;
    Ok((message, fds))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A message and its descriptors arrive together, and a closed peer reads as `Closed`.
    #[test]
    fn a_message_carries_its_descriptors() {
        let (a, b) = pair().expect("pair");
        let file = tempfile::tempfile().expect("file");
        let hello = FromKeeper::Hello {
            pane: 3,
            pid: 10,
            keeper_pid: 9,
            cols: 80,
            rows: 24,
            history_limit: 100,
            exited: None,
        };
        send(&a, &hello, &[file.as_fd()]).expect("send");
        let (got, fds): (FromKeeper, _) = receive(&b).expect("receive");
        assert_eq!(got, hello);
        assert_eq!(fds.len(), 1);
        drop(a);
        assert!(matches!(
            receive::<FromKeeper>(&b),
            Err(ProtocolError::Closed)
        ));
    }
}
