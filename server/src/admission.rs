//! Which connections the server keeps. Every connection costs a thread and a descriptor, so
//! each origin has its own budget ([`Origin::most`]): the owner's local connections (the socket
//! is private) at most [`MAX_CONNECTIONS`], the remote listener's at most
//! [`MAX_REMOTE_CONNECTIONS`], its read-only credentials' at most
//! [`MAX_READ_ONLY_CONNECTIONS`]. An origin over its budget is refused, and takes places back
//! only from itself: remote or read-only connections never cost the owner a place (one
//! read-only `/link` of 540 channels used to fill the one table). When an origin's places are
//! all held, a newcomer of that origin still gets one if it can be
//! taken back: first from the oldest connection that has not finished its hello (a real client
//! sends it at once), then from the connection idle longest between requests, once idle for
//! [`IDLE_EVICTABLE`] (512 idle connections past their hello locked out `ls`, `status` and
//! even `kill --server`). A stream or a request in progress keeps its place; when every place
//! is so held, the newcomer gets one of [`RESERVED_FOR_CONTROL`] places kept for `status`,
//! `ls` and `kill`, and when those are taken too, it is told the server is at its connection
//! limit.

use std::os::unix::net::UnixStream;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The owner's local connections served at once.
pub const MAX_CONNECTIONS: usize = 512;
/// The remote listener's connections (with a credential that may type) served at once.
pub const MAX_REMOTE_CONNECTIONS: usize = 128;
/// The remote listener's read-only connections served at once.
pub const MAX_READ_ONLY_CONNECTIONS: usize = 64;

/// Who a connection comes from, each with its own budget of places.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The private Unix socket: the owner.
    Local,
    /// The remote listener, with a credential that may type.
    Remote,
    /// The remote listener, with a read-only credential.
    RemoteReadOnly,
}

impl Origin {
    /// Places this origin may hold, and how many more it keeps for control requests.
    pub fn most(self) -> (usize, usize) {
        match self {
            Origin::Local => (MAX_CONNECTIONS, RESERVED_FOR_CONTROL),
            Origin::Remote => (MAX_REMOTE_CONNECTIONS, 0),
            Origin::RemoteReadOnly => (MAX_READ_ONLY_CONNECTIONS, 0),
        }
    }

    /// How a message names it.
    pub fn name(self) -> &'static str {
        match self {
            Origin::Local => "local",
            Origin::Remote => "remote",
            Origin::RemoteReadOnly => "read-only remote",
        }
    }
}
/// Places kept beyond [`MAX_CONNECTIONS`] for control requests (`status`, `ls`, `kill`), so
/// they are served when every other place serves a stream or a request.
pub const RESERVED_FOR_CONTROL: usize = 16;
/// How long a connection must have waited for its next request before a newcomer may take
/// its place in a full table.
pub const IDLE_EVICTABLE: Duration = Duration::from_secs(2);

/// Where a connection is in its life, and so how cheaply it can be let go.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Connected, no hello yet.
    Handshaking,
    /// Waiting for its next request.
    Idle,
    /// Serving a request, or a stream.
    Busy,
}

struct Entry {
    id: u64,
    /// A second handle on the connection's socket, to shut it down from here.
    socket: UnixStream,
    /// When it entered its phase.
    since: Instant,
    phase: Phase,
    /// One of the places kept for control requests.
    reserve: bool,
    origin: Origin,
}

#[derive(Default)]
pub struct Admission {
    table: Mutex<Table>,
}

#[derive(Default)]
struct Table {
    next_id: u64,
    entries: Vec<Entry>,
}

/// A place in the table, given back when the connection ends.
pub struct Ticket<'a> {
    admission: &'a Admission,
    id: u64,
    reserve: bool,
}

impl Admission {
    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Admits `socket`, taking a place back (see the module notes) if the table is full;
    /// `None` when no place can be had.
    pub fn admit(&self, socket: &UnixStream, origin: Origin) -> Option<Ticket<'_>> {
        let handle = socket.try_clone().ok()?;
        let mut table = self.table();
        let (most, reserved) = origin.most();
        let reserve = if table.place(origin, false, most) {
            false
        } else if table.place(origin, true, reserved) {
            true
        } else {
            return None;
        };
        let id = table.next_id;
        table.next_id += 1;
        table.entries.push(Entry {
            id,
            socket: handle,
            since: Instant::now(),
            phase: Phase::Handshaking,
            reserve,
            origin,
        });
        Some(Ticket {
            admission: self,
            id,
            reserve,
        })
    }
}

impl Table {
    /// Whether a place among `origin`'s `reserve` ones (at most `most`) is free, or was freed
    /// by letting one of them go.
    fn place(&mut self, origin: Origin, reserve: bool, most: usize) -> bool {
        let ours = |e: &Entry| e.origin == origin && e.reserve == reserve;
        let held = self.entries.iter().filter(|e| ours(e)).count();
        if held < most {
            return true;
        }
        let now = Instant::now();
        let oldest_in = |phase: Phase| {
            self.entries
                .iter()
                .enumerate()
                .filter(|(_, e)| ours(e) && e.phase == phase)
                .min_by_key(|(_, e)| e.since)
                .map(|(i, e)| (i, now.saturating_duration_since(e.since)))
        };
        let evicted = oldest_in(Phase::Handshaking)
            .or_else(|| oldest_in(Phase::Idle).filter(|(_, idle)| *idle >= IDLE_EVICTABLE));
        let Some((index, _)) = evicted else {
            return false;
        };
        let dropped = self.entries.swap_remove(index);
        // Its thread sees the socket end and goes; its place is ours now.
        let _ = dropped.socket.shutdown(std::net::Shutdown::Both);
        true
    }
}

impl Ticket<'_> {
    /// Whether this connection holds one of the places kept for control requests: it may
    /// make only those (see [`RESERVED_FOR_CONTROL`]).
    pub fn in_reserve(&self) -> bool {
        self.reserve
    }

    fn enter(&self, phase: Phase) {
        let mut table = self.admission.table();
        if let Some(entry) = table.entries.iter_mut().find(|e| e.id == self.id) {
            entry.phase = phase;
            entry.since = Instant::now();
        }
    }

    /// The connection waits for its next request: after [`IDLE_EVICTABLE`] of that, a
    /// newcomer to a full table may take its place.
    pub fn idle(&self) {
        self.enter(Phase::Idle);
    }

    /// A request (or a stream) is being served: its place is kept.
    pub fn busy(&self) {
        self.enter(Phase::Busy);
    }
}

impl Drop for Ticket<'_> {
    fn drop(&mut self) {
        let mut table = self.admission.table();
        if let Some(i) = table.entries.iter().position(|e| e.id == self.id) {
            table.entries.swap_remove(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::net::UnixStream;

    /// 512 idle connections past their hello locked everyone out; a busy one keeps its place.
    #[test]
    fn a_full_table_takes_back_a_handshake_then_a_long_idle_place_but_never_a_busy_one() {
        let admission = Admission::default();
        let mut pairs = Vec::new();
        let mut tickets = Vec::new();
        for _ in 0..MAX_CONNECTIONS {
            let (ours, theirs) = UnixStream::pair().unwrap();
            let ticket = admission.admit(&ours, Origin::Local).unwrap();
            ticket.busy();
            tickets.push(ticket);
            pairs.push((ours, theirs));
        }
        // Past the busy ones, the places kept for control requests, then nothing.
        let mut reserved = Vec::new();
        for _ in 0..RESERVED_FOR_CONTROL {
            let (ours, theirs) = UnixStream::pair().unwrap();
            let ticket = admission
                .admit(&ours, Origin::Local)
                .expect("a place kept for control");
            assert!(ticket.in_reserve());
            ticket.busy();
            reserved.push((ticket, ours, theirs));
        }
        let (newcomer, _peer) = UnixStream::pair().unwrap();
        assert!(
            admission.admit(&newcomer, Origin::Local).is_none(),
            "a busy place was taken"
        );
        // An idle place is taken back only once idle long enough.
        tickets[7].idle();
        assert!(
            admission.admit(&newcomer, Origin::Local).is_none(),
            "a place idle 0 s was taken"
        );
        admission.table().entries.iter_mut().for_each(|e| {
            if e.phase == Phase::Idle {
                e.since -= IDLE_EVICTABLE;
            }
        });
        let admitted = admission
            .admit(&newcomer, Origin::Local)
            .expect("the long-idle place");
        assert!(!admitted.in_reserve());
        let mut byte = [0u8; 1];
        let ended = std::io::Read::read(&mut &pairs[7].1, &mut byte).unwrap();
        assert_eq!(ended, 0, "the evicted connection was shut down");
        // The newcomer, still in its handshake, is the first to go for the next one.
        let (next, _peer2) = UnixStream::pair().unwrap();
        assert!(admission.admit(&next, Origin::Local).is_some());
        drop(admitted);
    }

    /// One read-only `/link` of 540 channels filled the one table: local `new` and
    /// `send-keys` failed "at its connection limit". Each origin now fills only its own.
    #[test]
    fn remote_and_read_only_connections_never_cost_the_owner_a_place() {
        let admission = Admission::default();
        let mut held = Vec::new();
        for origin in [Origin::RemoteReadOnly, Origin::Remote] {
            let (most, _) = origin.most();
            for _ in 0..most {
                let (ours, theirs) = UnixStream::pair().unwrap();
                let ticket = admission.admit(&ours, origin).unwrap();
                ticket.busy();
                held.push((ticket, ours, theirs));
            }
            let (over, _peer) = UnixStream::pair().unwrap();
            assert!(admission.admit(&over, origin).is_none(), "{origin:?}");
        }
        let (owner, _peer) = UnixStream::pair().unwrap();
        let ticket = admission
            .admit(&owner, Origin::Local)
            .expect("the owner's place");
        assert!(!ticket.in_reserve());
    }
}
