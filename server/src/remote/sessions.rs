//! The remote listener's admitted connections, as the owner sees and ends them: each one
//! registered while it lasts with its credential, path and peer, and a signal that ends it at
//! once (`pair disconnect`, `pair revoke --disconnect`; a plain revoke keeps established
//! sessions, §4.18). Here too each credential's channels are counted: the client connections
//! its `/wire` and `/link` connections hold open in this server, at most
//! [`MAX_CHANNELS_READ_ONLY`] or [`MAX_CHANNELS`] at once (one read-only `/link` used to open
//! 540 of them).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use phux_core::wire::RemoteConnectionView;
use tokio::sync::Notify;

/// Client connections a credential that may type holds open at once, over all its links.
pub const MAX_CHANNELS: usize = 96;
/// Client connections a read-only credential holds open at once, over all its links.
pub const MAX_CHANNELS_READ_ONLY: usize = 8;

#[derive(Clone, Default)]
pub struct RemoteSessions {
    inner: Arc<Mutex<Inner>>,
}

#[derive(Default)]
struct Inner {
    next: u64,
    live: Vec<Live>,
    /// Channels open per credential.
    channels: HashMap<String, usize>,
}

struct Live {
    id: u64,
    credential_id: String,
    read_only: bool,
    path: &'static str,
    peer: String,
    since_unix: u64,
    channels: Arc<AtomicU32>,
    end: Arc<Notify>,
}

/// Who an admitted connection is, as it registers.
pub struct Admission<'a> {
    pub credential_id: &'a str,
    pub read_only: bool,
    pub path: &'static str,
    pub peer: String,
}

impl RemoteSessions {
    fn inner(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers an admitted connection until the returned session is dropped.
    pub fn register(&self, who: Admission<'_>) -> Session {
        let end = Arc::new(Notify::new());
        let channels = Arc::new(AtomicU32::new(0));
        let mut inner = self.inner();
        inner.next += 1;
        let id = inner.next;
        inner.live.push(Live {
            id,
            credential_id: who.credential_id.to_owned(),
            read_only: who.read_only,
            path: who.path,
            peer: who.peer,
            since_unix: super::tokens::now_unix(),
            channels: Arc::clone(&channels),
            end: Arc::clone(&end),
        });
        Session {
            sessions: self.clone(),
            id,
            credential_id: who.credential_id.to_owned(),
            most: if who.read_only {
                MAX_CHANNELS_READ_ONLY
            } else {
                MAX_CHANNELS
            },
            channels,
            end,
        }
    }

    /// Every admitted connection, oldest first.
    pub fn list(&self) -> Vec<RemoteConnectionView> {
        self.inner()
            .live
            .iter()
            .map(|l| RemoteConnectionView {
                connection: l.id,
                credential_id: l.credential_id.clone(),
                read_only: l.read_only,
                path: l.path.to_owned(),
                peer: l.peer.clone(),
                since_unix: l.since_unix,
                channels: l.channels.load(Ordering::Relaxed),
            })
            .collect()
    }

    /// Ends every connection of `credential_id` now; returns how many there were.
    pub fn disconnect(&self, credential_id: &str) -> u32 {
        let inner = self.inner();
        let mut ended = 0;
        for live in inner
            .live
            .iter()
            .filter(|l| l.credential_id == credential_id)
        {
            // A stored permit: the connection ends even if it is not waiting at this moment.
            live.end.notify_one();
            ended += 1;
        }
        ended
    }
}

/// An admitted connection's registration: its end signal and its credential's channels.
pub struct Session {
    sessions: RemoteSessions,
    id: u64,
    credential_id: String,
    most: usize,
    channels: Arc<AtomicU32>,
    end: Arc<Notify>,
}

impl Session {
    /// Completes when the owner ends this connection.
    pub async fn ended(&self) {
        self.end.notified().await;
    }

    /// Ends this connection from within (its reader stopped reading).
    pub fn end(&self) {
        self.end.notify_one();
    }

    /// A channel of the credential's, or `None` when it has its most open already.
    pub fn open_channel(&self) -> Option<Channel> {
        let mut inner = self.sessions.inner();
        let open = inner
            .channels
            .entry(self.credential_id.clone())
            .or_insert(0);
        if *open >= self.most {
            return None;
        }
        *open += 1;
        self.channels.fetch_add(1, Ordering::Relaxed);
        Some(Channel {
            sessions: self.sessions.clone(),
            credential_id: self.credential_id.clone(),
            channels: Arc::clone(&self.channels),
        })
    }

    /// How many channels the credential may hold open.
    pub fn most_channels(&self) -> usize {
        self.most
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let mut inner = self.sessions.inner();
        if let Some(i) = inner.live.iter().position(|l| l.id == self.id) {
            inner.live.swap_remove(i);
        }
    }
}

/// One channel held open; given back when dropped.
pub struct Channel {
    sessions: RemoteSessions,
    credential_id: String,
    channels: Arc<AtomicU32>,
}

impl Drop for Channel {
    fn drop(&mut self) {
        self.channels.fetch_sub(1, Ordering::Relaxed);
        let mut inner = self.sessions.inner();
        if let Some(open) = inner.channels.get_mut(&self.credential_id) {
            *open = open.saturating_sub(1);
            if *open == 0 {
                inner.channels.remove(&self.credential_id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn admission(credential_id: &str, read_only: bool) -> Admission<'_> {
        Admission {
            credential_id,
            read_only,
            path: "/link",
            peer: "127.0.0.1:1".into(),
        }
    }

    /// A read-only credential's channels are capped over all its links together.
    #[test]
    fn a_credentials_channels_are_capped_over_all_its_connections() {
        let sessions = RemoteSessions::default();
        let first = sessions.register(admission("ro", true));
        let second = sessions.register(admission("ro", true));
        let mut held: Vec<Channel> = (0..MAX_CHANNELS_READ_ONLY / 2)
            .map(|_| first.open_channel().unwrap())
            .collect();
        while let Some(channel) = second.open_channel() {
            held.push(channel);
        }
        assert_eq!(held.len(), MAX_CHANNELS_READ_ONLY);
        assert!(first.open_channel().is_none());
        let other = sessions.register(admission("full", false));
        let theirs = other.open_channel();
        assert!(theirs.is_some(), "another credential's own");
        held.pop();
        let again = first.open_channel();
        assert!(again.is_some(), "a place given back");
        let listed = sessions.list();
        assert_eq!(listed.len(), 3);
        let read_only: u32 = listed
            .iter()
            .filter(|l| l.credential_id == "ro")
            .map(|l| l.channels)
            .sum();
        assert_eq!(read_only, u32::try_from(MAX_CHANNELS_READ_ONLY).unwrap());
    }

    /// The owner ends a credential's connections, and only that credential's.
    #[test]
    fn disconnect_ends_every_connection_of_the_credential_and_no_other() {
        let sessions = RemoteSessions::default();
        let a = sessions.register(admission("a", false));
        let a2 = sessions.register(admission("a", true));
        let b = sessions.register(admission("b", false));
        assert_eq!(sessions.disconnect("a"), 2);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        runtime.block_on(async {
            a.ended().await;
            a2.ended().await;
            let b_ended =
                tokio::time::timeout(std::time::Duration::from_millis(50), b.ended()).await;
            assert!(b_ended.is_err(), "b was not ended");
        });
        drop(a);
        assert_eq!(sessions.list().len(), 2);
    }
}
