//! Which connections the server keeps. Every connection costs a thread and a descriptor, and all
//! of them come from one user (the socket is private), so the bound is global: at most
//! [`MAX_CONNECTIONS`]. A connection that has not finished its hello yet is the cheapest to
//! lose (a real client sends it at once), so when the table is full the oldest such handshake
//! is dropped to make room; when every connection is past its hello, the newcomer is refused.

use std::os::unix::net::UnixStream;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// Connections served at once.
pub const MAX_CONNECTIONS: usize = 512;

struct Entry {
    id: u64,
    /// A second handle on the connection's socket, to shut it down from here.
    socket: UnixStream,
    since: Instant,
    handshaking: bool,
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
}

impl Admission {
    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Admits `socket`, dropping the oldest unfinished handshake if the table is full; `None`
    /// when every place is held by a connection past its hello.
    pub fn admit(&self, socket: &UnixStream) -> Option<Ticket<'_>> {
        let handle = socket.try_clone().ok()?;
        let mut table = self.table();
        if table.entries.len() >= MAX_CONNECTIONS {
            let oldest = table
                .entries
                .iter()
                .enumerate()
                .filter(|(_, e)| e.handshaking)
                .min_by_key(|(_, e)| e.since)
                .map(|(i, _)| i)?;
            let dropped = table.entries.swap_remove(oldest);
            // Its thread sees the socket end and goes; its place is ours now.
            let _ = dropped.socket.shutdown(std::net::Shutdown::Both);
        }
        let id = table.next_id;
        table.next_id += 1;
        table.entries.push(Entry {
            id,
            socket: handle,
            since: Instant::now(),
            handshaking: true,
        });
        Some(Ticket {
            admission: self,
            id,
        })
    }
}

impl Ticket<'_> {
    /// The hello arrived: from now on this connection is not dropped for a newcomer.
    pub fn handshake_done(&self) {
        let mut table = self.admission.table();
        if let Some(entry) = table.entries.iter_mut().find(|e| e.id == self.id) {
            entry.handshaking = false;
        }
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
