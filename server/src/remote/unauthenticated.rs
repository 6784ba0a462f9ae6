//! Connections that have not shown a token yet: a small pool of their own, apart from the
//! admitted ones, with a place cap per address and short deadlines. When the pool (or an
//! address's share of it) is full, a newcomer takes the place of the oldest connection that
//! has sent nothing at all (a real client sends its TLS hello at once); only when every place
//! is held by one that is talking is it refused. 256 idle TCP connections reopened as the
//! 10 s TLS deadline dropped them used to hold the listener: legitimate wss connections
//! succeeded 0 of 16 in 35 s.

use std::net::IpAddr;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// Connections without a token, at most, in all.
pub const POOL: usize = 64;
/// Of those, from one address.
pub const PER_ADDRESS: usize = 32;
/// TLS must be finished this soon after the connection is accepted.
pub const TLS_DEADLINE: Duration = Duration::from_secs(3);

#[derive(Default)]
pub struct Unauthenticated {
    pool: Mutex<Pool>,
}

#[derive(Default)]
struct Pool {
    next: u64,
    waiting: Vec<Waiting>,
}

struct Waiting {
    id: u64,
    address: IpAddr,
    since: Instant,
    /// It has sent something (it is never taken back for a newcomer).
    talking: bool,
    /// A second handle on its socket, to see whether it has sent anything.
    socket: OwnedFd,
    dropped: Arc<Notify>,
}

/// Why a newcomer got no place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoPlace {
    /// Its address holds [`PER_ADDRESS`] places, each with a connection that is talking.
    AddressFull,
    /// The pool's [`POOL`] places are all held by connections that are talking.
    PoolFull,
    /// Its socket could not be handled.
    Socket,
}

impl NoPlace {
    pub fn log(self) -> &'static str {
        match self {
            NoPlace::AddressFull => {
                "refused: its address has as many connections without a \
                                     token as it may, each in its handshake"
            }
            NoPlace::PoolFull => {
                "refused: the listener has as many connections without a \
                                  token as it takes, each in its handshake"
            }
            NoPlace::Socket => "refused: its socket could not be duplicated",
        }
    }
}

impl Unauthenticated {
    fn pool(&self) -> MutexGuard<'_, Pool> {
        self.pool.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A place for a newcomer from `address`, taken back from a silent connection if needed.
    pub fn admit(self: &Arc<Self>, socket: &impl AsFd, address: IpAddr) -> Result<Place, NoPlace> {
        let handle = socket
            .as_fd()
            .try_clone_to_owned()
            .map_err(|_| NoPlace::Socket)?;
        let mut pool = self.pool();
        let from_address = pool.waiting.iter().filter(|w| w.address == address).count();
        if from_address >= PER_ADDRESS && !pool.take_back(|w| w.address == address) {
            return Err(NoPlace::AddressFull);
        }
        if pool.waiting.len() >= POOL && !pool.take_back(|_| true) {
            return Err(NoPlace::PoolFull);
        }
        pool.next += 1;
        let id = pool.next;
        let dropped = Arc::new(Notify::new());
        pool.waiting.push(Waiting {
            id,
            address,
            since: Instant::now(),
            talking: false,
            socket: handle,
            dropped: Arc::clone(&dropped),
        });
        Ok(Place {
            pool: Arc::clone(self),
            id,
            dropped,
        })
    }
}

impl Pool {
    /// Lets go of the oldest connection that `matches` and has sent nothing; false when each
    /// one has sent something.
    fn take_back(&mut self, matches: impl Fn(&Waiting) -> bool) -> bool {
        loop {
            let oldest = self
                .waiting
                .iter()
                .enumerate()
                .filter(|(_, w)| !w.talking && matches(w))
                .min_by_key(|(_, w)| w.since)
                .map(|(i, _)| i);
            let Some(index) = oldest else {
                return false;
            };
            // Looked at now, not when it was accepted: a client's hello may be waiting unread.
            if has_sent_something(&self.waiting[index].socket) {
                self.waiting[index].talking = true;
                continue;
            }
            let dropped = self.waiting.swap_remove(index);
            dropped.dropped.notify_one();
            return true;
        }
    }
}

/// Whether bytes wait on `socket` (or it has ended, which frees its place just the same: no).
fn has_sent_something(socket: &OwnedFd) -> bool {
    use rustix::net::RecvFlags;
    let mut probe = [0u8; 1];
    matches!(
        rustix::net::recv(socket, &mut probe, RecvFlags::PEEK | RecvFlags::DONTWAIT),
        Ok((n, _)) if n > 0
    )
}

/// A place in the pool while the connection shows its token; given back when dropped.
pub struct Place {
    pool: Arc<Unauthenticated>,
    id: u64,
    dropped: Arc<Notify>,
}

impl Place {
    /// The connection has sent its first bytes: a newcomer never takes its place now (its
    /// deadlines still apply).
    pub fn talking(&self) {
        let mut pool = self.pool.pool();
        if let Some(waiting) = pool.waiting.iter_mut().find(|w| w.id == self.id) {
            waiting.talking = true;
        }
    }

    /// Completes when a newcomer took this place back.
    pub async fn taken_back(&self) {
        self.dropped.notified().await;
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut pool = self.pool.pool();
        if let Some(i) = pool.waiting.iter().position(|w| w.id == self.id) {
            pool.waiting.swap_remove(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::net::{TcpListener, TcpStream};

    /// Idle connections holding every place of an address give them up to newcomers; one
    /// that has sent its hello keeps its place.
    #[test]
    fn a_silent_connection_gives_its_place_to_a_newcomer_a_talking_one_does_not() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        let pool = Arc::new(Unauthenticated::default());
        let mut clients = Vec::new();
        let mut places = Vec::new();
        for i in 0..PER_ADDRESS {
            let mut client = TcpStream::connect(address).unwrap();
            if i == 0 {
                client.write_all(b"\x16\x03\x01").unwrap();
            }
            let (accepted, peer) = listener.accept().unwrap();
            places.push(pool.admit(&accepted, peer.ip()).unwrap());
            clients.push((client, accepted));
        }
        std::thread::sleep(Duration::from_millis(50));
        // Every newcomer takes back a silent place, never the talking one.
        for _ in 0..PER_ADDRESS - 1 {
            let client = TcpStream::connect(address).unwrap();
            let (accepted, peer) = listener.accept().unwrap();
            places.push(pool.admit(&accepted, peer.ip()).expect("a silent place"));
            clients.push((client, accepted));
        }
        assert_eq!(pool.pool().waiting.len(), PER_ADDRESS);
        let waiting = pool.pool();
        assert!(waiting.waiting.iter().any(|w| w.id == places[0].id));
    }
}
