//! The threads that take connections. Each waits in `accept` on the listener and serves the
//! connection it took itself, then goes back to waiting. A new client therefore costs one
//! wake-up instead of a thread start and a hand-over, which matters because agents open one
//! connection per command. When a thread takes a connection and none is left waiting, it starts
//! another first; a thread that finishes while enough others wait ends.

use std::os::unix::net::UnixListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::shared::Shared;
use crate::{connection, log, socket};

/// Threads waiting in `accept` when the server starts.
const WAITING_AT_START: usize = 2;
/// A thread whose connection ended goes back to waiting only while fewer than this wait.
const MOST_WAITING: usize = 4;
/// After a failed `accept` (out of file descriptors, say), pause instead of spinning.
const AFTER_FAILED_ACCEPT: Duration = Duration::from_millis(10);

struct Pool {
    listener: UnixListener,
    shared: Arc<Shared>,
    /// Threads in, or about to be in, `accept`.
    waiting: AtomicUsize,
}

/// Starts the threads that accept and serve connections on `listener`.
pub fn start(listener: UnixListener, shared: &Arc<Shared>) -> std::io::Result<()> {
    let pool = Arc::new(Pool {
        listener,
        shared: Arc::clone(shared),
        waiting: AtomicUsize::new(0),
    });
    for _ in 0..WAITING_AT_START {
        pool.add_thread()?;
    }
    Ok(())
}

impl Pool {
    fn add_thread(self: &Arc<Self>) -> std::io::Result<()> {
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let pool = Arc::clone(self);
        let spawned = std::thread::Builder::new()
            .name("client".into())
            .spawn(move || pool.serve_clients());
        if spawned.is_err() {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
        }
        spawned.map(drop)
    }

    fn serve_clients(self: Arc<Self>) {
        loop {
            let accepted = self.listener.accept();
            if self.waiting.fetch_sub(1, Ordering::SeqCst) == 1 {
                if let Err(e) = self.add_thread() {
                    log::line(&format!("cannot start a thread for clients: {e}"));
                }
            }
            match accepted {
                Ok((stream, _)) if socket::peer_is_us(&stream) => {
                    connection::serve(stream, Arc::clone(&self.shared));
                }
                Ok(_) => log::line("refused a connection from another user"),
                Err(_) => std::thread::sleep(AFTER_FAILED_ACCEPT),
            }
            if self.waiting.fetch_add(1, Ordering::SeqCst) >= MOST_WAITING {
                self.waiting.fetch_sub(1, Ordering::SeqCst);
                return;
            }
        }
    }
}
