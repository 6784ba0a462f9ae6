//! The two threads beside every pane's command thread: the reader, which stamps each PTY read
//! with the monotonic time it was read and feeds it to the pane core, and the writer, which owns
//! writes to the PTY so a program that stops reading its input can never stall the pane core.
//!
//! The PTY is non-blocking and both threads wait in `poll`, so neither can be stuck in a
//! system call when the pane ends: the writer checks the pane's `closed` flag while it waits
//! for room, and ends with it, dropping its descriptor and whatever input was still queued
//! (a blocking write to a program that never reads again outlived the pane before).

use crossbeam_channel::{RecvTimeoutError, Sender};
use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::io::Errno;
use std::fs::File;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::input_queue::InputSource;

/// How often a waiting writer looks at the pane's `closed` flag.
const CLOSED_CHECK: Duration = Duration::from_millis(200);

/// One read from the PTY.
pub struct Chunk {
    pub t_ns: u64,
    pub bytes: Arc<[u8]>,
}

/// Makes the PTY's (shared) open file non-blocking: from now on every reader and writer polls.
pub fn make_nonblocking(master: &File) -> std::io::Result<()> {
    use rustix::fs::{fcntl_getfl, fcntl_setfl, OFlags};
    let flags = fcntl_getfl(master)?;
    fcntl_setfl(master, flags | OFlags::NONBLOCK)?;
    Ok(())
}

/// Waits until `master` is ready for `flags`, or `timeout` passes (`None`: forever). False when
/// the other side hung up or the descriptor failed.
fn wait_ready(master: &File, flags: PollFlags, timeout: Option<Duration>) -> Result<bool, ()> {
    let timeout = timeout.and_then(|t| Timespec::try_from(t).ok());
    let mut fds = [PollFd::new(master, flags)];
    match poll(&mut fds, timeout.as_ref()) {
        Ok(0) => Ok(false),
        Ok(_) => {
            let got = fds[0].revents();
            if got.intersects(flags) {
                Ok(true)
            } else if got.intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL) {
                Err(())
            } else {
                Ok(false)
            }
        }
        Err(Errno::INTR) => Ok(false),
        Err(_) => Err(()),
    }
}

/// Reads until EOF or EIO (the last holder of the terminal closed it), handing each read to
/// `take` on this thread; then drops `done`.
/// Held for reading by every PTY reader around each read and the handling of what it read;
/// `phux upgrade` takes it for writing, so once it has it no reader is between a read and its
/// handling and none reads again: whatever programs write from then on waits in their PTYs
/// for the next process.
pub static READ_GATE: std::sync::RwLock<()> = std::sync::RwLock::new(());

pub fn spawn_reader(
    master: File,
    mut take: impl FnMut(Chunk) + Send + 'static,
    done: Sender<()>,
    epoch: Instant,
    name: String,
) {
    let spawned = std::thread::Builder::new().name(name).spawn(move || {
        let mut buffer = vec![0u8; 64 * 1024];
        let mut flood = super::flood_yield::FloodGauge::default();
        loop {
            // A flood stops reading for a moment after input and keeps to the typing pace
            // (its program stops with it).
            flood.stand_aside();
            let gate = READ_GATE
                .read()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match rustix::io::read(&master, &mut buffer) {
                Ok(0) => break,
                Ok(n) => {
                    flood.handled(n);
                    let t_ns = crate::bus::now_ns(epoch);
                    take(Chunk {
                        t_ns,
                        bytes: Arc::from(&buffer[..n]),
                    });
                }
                Err(Errno::AGAIN | Errno::INTR) => {
                    drop(gate);
                    // Readable data, or the hang-up that makes the next read fail, wakes us.
                    if wait_ready(&master, PollFlags::IN, None).is_err() {
                        // POLLHUP can come with data still buffered: read it before leaving.
                        drain(&master, &mut buffer, &mut take, epoch);
                        break;
                    }
                }
                // EIO is how Linux reports that the slave side is gone.
                Err(_) => break,
            }
        }
        drop(done);
    });
    if let Err(e) = spawned {
        crate::log::line(&format!("cannot start a PTY reader: {e}"));
    }
}

/// Reads what is left after a hang-up.
fn drain(master: &File, buffer: &mut [u8], take: &mut impl FnMut(Chunk), epoch: Instant) {
    while let Ok(n) = rustix::io::read(master, &mut *buffer) {
        if n == 0 {
            return;
        }
        take(Chunk {
            t_ns: crate::bus::now_ns(epoch),
            bytes: Arc::from(&buffer[..n]),
        });
    }
}

/// Writes queued input to the PTY in order until the pane closes.
pub fn spawn_writer(master: File, input: InputSource, closed: Arc<AtomicBool>, name: String) {
    let spawned = std::thread::Builder::new().name(name).spawn(move || loop {
        match input.rx.recv_timeout(CLOSED_CHECK) {
            Ok(queued) => {
                let (written, done) = write_all(&master, &queued.bytes, &closed);
                input.written(queued.bytes.len());
                if let Some(ack) = queued.ack {
                    ack.send(written);
                }
                if !done {
                    return;
                }
            }
            Err(RecvTimeoutError::Timeout) if !closed.load(Ordering::Acquire) => {}
            Err(_) => return,
        }
    });
    if let Err(e) = spawned {
        crate::log::line(&format!("cannot start a PTY writer: {e}"));
    }
}

/// Writes `bytes` as the program makes room. Says how many reached the PTY, and false when
/// the pane closed or the PTY failed before all of them did.
fn write_all(master: &File, bytes: &[u8], closed: &AtomicBool) -> (usize, bool) {
    let mut written = 0;
    while written < bytes.len() {
        if closed.load(Ordering::Acquire) {
            return (written, false);
        }
        match rustix::io::write(master, &bytes[written..]) {
            Ok(n) => written += n,
            Err(Errno::AGAIN | Errno::INTR) => {
                if wait_ready(master, PollFlags::OUT, Some(CLOSED_CHECK)).is_err() {
                    return (written, false);
                }
            }
            Err(_) => return (written, false),
        }
    }
    (written, true)
}
