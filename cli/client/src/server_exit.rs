//! Waiting for a server's process to end: `kill --server` returns only once the server that
//! answered it has exited (its socket unlinked, its lock released), so a `phux server` right
//! after it starts, and a script never finds the old server half-stopped.

use std::os::fd::AsFd;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::io::Errno;
use rustix::process::{Pid, PidfdFlags};

use crate::error::ClientError;

/// How long a stopping server gets to end by default: it delivers what it queued (200 ms),
/// hangs its panes up, and gives plugin hooks still running up to 5 s.
pub const SERVER_STOP_LIMIT: Duration = Duration::from_secs(15);

/// How long `kill --server` waits: `PHUX_STOP_TIMEOUT` seconds, else [`SERVER_STOP_LIMIT`].
pub fn stop_limit() -> Duration {
    std::env::var("PHUX_STOP_TIMEOUT")
        .ok()
        .and_then(|text| text.parse::<f64>().ok())
        .and_then(|secs| Duration::try_from_secs_f64(secs).ok())
        .unwrap_or(SERVER_STOP_LIMIT)
}
/// How often a kernel without pidfds is asked whether the process still runs.
const LOOK_EVERY: Duration = Duration::from_millis(20);

/// The PID of the process at the other end of `stream`, in this process's PID namespace.
pub fn peer_pid(stream: &UnixStream) -> Option<Pid> {
    rustix::net::sockopt::socket_peercred(stream)
        .ok()
        .map(|cred| cred.pid)
}

/// Returns once the process `pid` (the server at `socket`) has ended, or fails with
/// `server_still_running` after `limit`.
pub fn wait_for_exit(socket: &Path, pid: Pid, limit: Duration) -> Result<(), ClientError> {
    let deadline = Instant::now() + limit;
    let ended = match rustix::process::pidfd_open(pid, PidfdFlags::empty()) {
        Ok(pidfd) => wait_on_pidfd(pidfd.as_fd(), pid, deadline),
        Err(Errno::SRCH) => true,
        // No pidfds (a kernel before 5.3, a seccomp filter): ask the kernel until it ends.
        Err(_) => wait_by_looking(pid, deadline),
    };
    if ended {
        return Ok(());
    }
    Err(ClientError::StillRunning {
        socket: socket.to_path_buf(),
        pid: pid.as_raw_nonzero().get().unsigned_abs(),
        waited: limit,
    })
}

/// A pidfd becomes readable once its process has ended (a zombie counts: it runs no more).
fn wait_on_pidfd(pidfd: std::os::fd::BorrowedFd<'_>, pid: Pid, deadline: Instant) -> bool {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(timeout) = Timespec::try_from(left) else {
            return wait_by_looking(pid, deadline);
        };
        let mut fds = [PollFd::new(&pidfd, PollFlags::IN)];
        match poll(&mut fds, Some(&timeout)) {
            Ok(0) => return false,
            Ok(_) => return true,
            Err(Errno::INTR) => {}
            Err(_) => return wait_by_looking(pid, deadline),
        }
    }
}

fn wait_by_looking(pid: Pid, deadline: Instant) -> bool {
    loop {
        if matches!(rustix::process::test_kill_process(pid), Err(Errno::SRCH)) {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(LOOK_EVERY);
    }
}
