//! `phux __keeper` (hidden): the process that holds one pane for as long as its program runs,
//! whatever happens to the server. It is the program's parent (so it, not the server, learns
//! the exit status), holds the PTY master and the keep (the pane's recent output and last
//! snapshot, see `keep`), and listens on a socket in the server's keepers directory; each server
//! that connects and says `Adopt` receives the master and the keep by SCM_RIGHTS. The server
//! reads the PTY itself: no byte of output passes through the keeper.
//!
//! It ends when its program has ended and the server no longer keeps the ended pane readable
//! (`Release`), when a server stops on purpose (`HangUp`: the program is hung up), or when its
//! socket is gone from the directory and no server holds the pane (nobody could ever take it
//! over again).

use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};

use super::keep::KeepFiles;
use super::protocol::{self, FromKeeper, KeeperStart, ToKeeper};
use crate::pty::{self, SpawnSpec};

/// How often a keeper looks whether its socket is still in the directory.
const LOOK_EVERY: Duration = Duration::from_secs(5);
/// How long a connecting server gets to say what it wants.
const HELLO_WAIT: Duration = Duration::from_secs(2);
/// How long a hung-up program gets before its group is killed.
const HANG_UP_GRACE: Duration = Duration::from_millis(500);

/// The keeper's life, from the start message on its stdin to its end. Returns its exit code.
pub fn run(shim_exe: &Path) -> i32 {
    let first = match std::io::stdin().as_fd().try_clone_to_owned() {
        Ok(fd) => fd,
        Err(e) => return die(&format!("no server socket on stdin: {e}")),
    };
    let start = match protocol::receive::<ToKeeper>(&first) {
        Ok((ToKeeper::Start(start), _)) => start,
        Ok((other, _)) => return die(&format!("expected a start, got {other:?}")),
        Err(e) => return die(&format!("cannot read the start: {e}")),
    };
    // Its own session: a signal to the server's group (a terminal closing on a foreground
    // `phux server`) does not reach it.
    let _ = rustix::process::setsid();
    let spec = SpawnSpec {
        argv: start.argv.clone(),
        cwd: start.cwd.clone(),
        env: start.env.clone(),
        cols: start.cols,
        rows: start.rows,
        history_limit: start.history_limit,
    };
    let process = match pty::spawn(&spec, shim_exe) {
        Ok(process) => process,
        Err(e) => {
            fail(&first, e.to_string());
            return 1;
        }
    };
    let files = match KeepFiles::create(start.pane) {
        Ok(files) => files,
        Err(e) => {
            fail(&first, format!("cannot make the pane's keep: {e}"));
            pty::signal_group(process.child.id(), rustix::process::Signal::KILL);
            return 1;
        }
    };
    let listener = Listener::bind(&start.socket);
    let mut keeper = Keeper {
        start,
        master: process.master,
        files,
        child: process.child,
        exited: None,
        servers: Vec::new(),
    };
    if keeper.greet(first).is_err() {
        // The server that asked went away before it heard: the pane waits for the next one.
        crate::log::line("keeper: the starting server went away");
    }
    let listener = match listener {
        Ok(listener) => Some(listener),
        Err(e) => {
            crate::log::line(&format!(
                "keeper: pane {} cannot be taken over after a crash: {e}",
                keeper.start.pane
            ));
            None
        }
    };
    keeper.serve(listener.as_ref())
}

/// Tells the starting server why the pane cannot run (cut to what it reads).
fn fail(server: &OwnedFd, mut message: String) {
    if message.len() > protocol::MAX_FAILURE_TEXT {
        let mut end = protocol::MAX_FAILURE_TEXT;
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        message.truncate(end);
    }
    let _ = protocol::send(server, &FromKeeper::Failed { message }, &[]);
}

fn die(message: &str) -> i32 {
    crate::log::line(&format!("keeper: {message}"));
    2
}

/// The keeper's socket, bound at its path (a stale file of a keeper gone is replaced).
struct Listener {
    socket: OwnedFd,
    path: PathBuf,
    /// The socket file's inode: another file at the path is not ours to remove.
    inode: u64,
}

impl Listener {
    fn bind(path: &Path) -> std::io::Result<Listener> {
        let _ = std::fs::remove_file(path);
        let socket = protocol::listen(path)?;
        let inode = std::fs::metadata(path)?.ino();
        Ok(Listener {
            socket,
            path: path.to_path_buf(),
            inode,
        })
    }

    /// Whether the socket file is still this keeper's.
    fn still_there(&self) -> bool {
        std::fs::metadata(&self.path).is_ok_and(|m| m.ino() == self.inode)
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        if self.still_there() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

struct Keeper {
    start: KeeperStart,
    master: OwnedFd,
    files: KeepFiles,
    child: Child,
    /// The program's raw wait status, once it ended.
    exited: Option<i32>,
    /// The servers holding the pane (one, but for a moment during a hand-off).
    servers: Vec<OwnedFd>,
}

/// Why the keeper's loop ends.
enum End {
    /// The program ended and a server knows.
    Reported,
    /// A server stopped on purpose, or nobody can take the pane over any more.
    HungUp,
}

impl Keeper {
    /// Sends `server` the pane: its hello with the master and the keep.
    fn greet(&mut self, server: OwnedFd) -> Result<(), protocol::ProtocolError> {
        let hello = FromKeeper::Hello {
            pane: self.start.pane,
            pid: self.child.id(),
            keeper_pid: std::process::id(),
            cols: self.start.cols,
            rows: self.start.rows,
            history_limit: self.start.history_limit,
            exited: self.exited,
        };
        let fds = [
            self.master.as_fd(),
            self.files.ring.as_fd(),
            self.files.slots[0].as_fd(),
            self.files.slots[1].as_fd(),
        ];
        protocol::send(&server, &hello, &fds)?;
        self.servers.push(server);
        Ok(())
    }

    fn serve(mut self, listener: Option<&Listener>) -> i32 {
        let pidfd = rustix::process::pidfd_open(
            rustix::process::Pid::from_child(&self.child),
            rustix::process::PidfdFlags::empty(),
        )
        .ok();
        let mut looked = Instant::now();
        let end = loop {
            if let Some(end) = self.step(listener, pidfd.as_ref()) {
                break end;
            }
            if looked.elapsed() >= LOOK_EVERY {
                looked = Instant::now();
                let gone = listener.is_none_or(|l| !l.still_there());
                if gone && self.servers.is_empty() {
                    crate::log::line(&format!(
                        "keeper: pane {}'s socket is gone and no server holds it: hanging up",
                        self.start.pane
                    ));
                    break End::HungUp;
                }
            }
        };
        if matches!(end, End::HungUp) {
            self.hang_up();
        }
        0
    }

    /// Waits for one thing to happen and handles it; `Some` when the keeper's work is done.
    fn step(&mut self, listener: Option<&Listener>, pidfd: Option<&OwnedFd>) -> Option<End> {
        let watching_child = self.exited.is_none();
        let mut fds = Vec::new();
        if let Some(listener) = listener {
            fds.push(PollFd::new(&listener.socket, PollFlags::IN));
        }
        let child_at = fds.len();
        match pidfd {
            Some(pidfd) if watching_child => fds.push(PollFd::new(pidfd, PollFlags::IN)),
            _ => {}
        }
        let servers_at = fds.len();
        for server in &self.servers {
            fds.push(PollFd::new(server, PollFlags::IN));
        }
        // Without a pidfd the child is looked at on every wake-up, and at least each second.
        let timeout = if pidfd.is_none() && watching_child {
            Duration::from_secs(1)
        } else {
            LOOK_EVERY
        };
        let timeout = Timespec::try_from(timeout).ok();
        if poll(&mut fds, timeout.as_ref()).is_err() {
            return None;
        }
        let ready: Vec<bool> = fds.iter().map(|fd| !fd.revents().is_empty()).collect();
        drop(fds);
        if listener.is_some() && ready[0] {
            if let Some(listener) = listener {
                self.accept(listener);
            }
        }
        let child_ready = ready.get(child_at).copied().unwrap_or(false) && pidfd.is_some();
        if watching_child && (child_ready || pidfd.is_none()) {
            self.look_at_child();
        }
        let mut kept = Vec::new();
        for (index, server) in (servers_at..).zip(std::mem::take(&mut self.servers)) {
            let readable = ready.get(index).copied().unwrap_or(false);
            if !readable {
                kept.push(server);
                continue;
            }
            match protocol::receive::<ToKeeper>(&server) {
                Ok((ToKeeper::Release, _)) => return Some(End::Reported),
                Ok((ToKeeper::HangUp, _)) => return Some(End::HungUp),
                Ok(_) => kept.push(server),
                // A server gone (a crash, or the exec of an upgrade): the next one takes the
                // pane over, even an ended one (it keeps the pane readable a while).
                Err(_) => {}
            }
        }
        self.servers = kept;
        None
    }

    /// A server connecting: one of this user's, saying `Adopt`, gets the pane.
    fn accept(&mut self, listener: &Listener) {
        let Ok(server) =
            rustix::net::accept_with(&listener.socket, rustix::net::SocketFlags::CLOEXEC)
        else {
            return;
        };
        let ours = rustix::net::sockopt::socket_peercred(&server)
            .is_ok_and(|peer| peer.uid == rustix::process::getuid());
        if !ours {
            return;
        }
        let _ = rustix::net::sockopt::set_socket_timeout(
            &server,
            rustix::net::sockopt::Timeout::Recv,
            Some(HELLO_WAIT),
        );
        if let Ok((ToKeeper::Adopt, _)) = protocol::receive::<ToKeeper>(&server) {
            let _ = rustix::net::sockopt::set_socket_timeout(
                &server,
                rustix::net::sockopt::Timeout::Recv,
                None,
            );
            let _ = self.greet(server);
        }
    }

    /// Reaps the program if it ended, and tells every server.
    fn look_at_child(&mut self) {
        let Ok(Some(status)) = self.child.try_wait() else {
            return;
        };
        let status = status.into_raw();
        self.exited = Some(status);
        for server in &self.servers {
            let _ = protocol::send(server, &FromKeeper::Exited { status }, &[]);
        }
    }

    /// Hangs the program up (its session and the terminal's foreground job), then kills what
    /// is left of its group after a grace.
    fn hang_up(&mut self) {
        if self.exited.is_some() {
            return;
        }
        let pid = self.child.id();
        pty::signal_group(pid, rustix::process::Signal::HUP);
        let _ = pty::signal_foreground(&self.master, pid, rustix::process::Signal::HUP);
        pty::signal_group(pid, rustix::process::Signal::CONT);
        let deadline = Instant::now() + HANG_UP_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        pty::signal_group(pid, rustix::process::Signal::KILL);
        let _ = self.child.try_wait();
    }
}
