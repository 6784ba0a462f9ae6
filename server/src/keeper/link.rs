//! The server's side of a keeper: starting one for a new pane, taking over one a previous
//! server left (after a crash or an upgrade), and waiting on the link for the program's end.

use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use phux_core::ids::PaneId;

use super::keep::KeepFiles;
use super::protocol::{self, FromKeeper, KeeperStart, ToKeeper};
use crate::pty::SpawnSpec;

/// How long a keeper gets to start its program and answer, or to answer an adoption.
const ANSWER_WAIT: Duration = Duration::from_secs(10);
/// How often a pane whose keeper died looks whether its program still runs.
const ORPHAN_LOOK: Duration = Duration::from_millis(200);

/// Why a pane could not be held by a keeper.
#[derive(Debug, thiserror::Error)]
pub enum KeeperError {
    /// The program cannot run (the keeper said so): the pane is refused as before.
    #[error("{0}")]
    Program(String),
    /// The keeper could not be started or did not answer: the pane may still run unkept.
    #[error("the pane's keeper: {0}")]
    Keeper(String),
}

/// A pane as a keeper holds it: the program, its PTY master, its keep and the link.
pub struct Held {
    pub pane: PaneId,
    pub pid: u32,
    pub master: OwnedFd,
    pub files: KeepFiles,
    pub link: KeeperLink,
    pub cols: u16,
    pub rows: u16,
    pub history_limit: usize,
    /// The program's raw wait status when it ended before this server took the pane.
    pub exited: Option<i32>,
}

/// The connection to a pane's keeper, and the keeper process when this server started it
/// (reaped once it ends).
pub struct KeeperLink {
    pane: PaneId,
    socket: Arc<OwnedFd>,
    pub keeper_pid: u32,
    /// The program's PID.
    pid: u32,
    child: Option<Child>,
}

/// The links of panes whose program ended, kept while the server keeps the ended pane readable
/// (`exited` in `ls --json`): its keeper stays, so a server after a crash still has it.
static PARKED: Mutex<Vec<KeeperLink>> = Mutex::new(Vec::new());

/// The links of every pane this process holds through a keeper, for a stop on purpose.
static LINKS: Mutex<Vec<(u32, std::sync::Weak<OwnedFd>)>> = Mutex::new(Vec::new());

/// Where the keepers of the server at `socket` listen.
pub fn directory(socket: &Path) -> PathBuf {
    phux_core::socket_path::keepers_dir(socket)
}

/// Starts a keeper running `spec` for pane `pane`.
pub fn start(
    pane: PaneId,
    spec: &SpawnSpec,
    socket: &Path,
    shim_exe: &Path,
) -> Result<Held, KeeperError> {
    let keeper_error =
        |what: &str, e: &dyn std::fmt::Display| KeeperError::Keeper(format!("{what}: {e}"));
    let dir = directory(socket);
    make_directory(&dir)
        .map_err(|e| keeper_error(&format!("cannot make {}", dir.display()), &e))?;
    let (ours, theirs) =
        protocol::pair().map_err(|e| keeper_error("cannot make a socket pair", &e))?;
    let child = Command::new(shim_exe)
        .arg("__keeper")
        .arg(format!("@{}", pane.0))
        .arg(socket)
        .stdin(Stdio::from(theirs))
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| keeper_error("cannot start", &e))?;
    let start = KeeperStart {
        pane: pane.0,
        argv: spec.argv.clone(),
        cwd: spec.cwd.clone(),
        env: spec.env.clone(),
        cols: spec.cols,
        rows: spec.rows,
        history_limit: spec.history_limit,
        socket: dir.join(pane.0.to_string()),
    };
    let answered = protocol::send(&ours, &ToKeeper::Start(start), &[])
        .map_err(|e| KeeperError::Keeper(format!("cannot be told what to run: {e}")))
        .and_then(|()| hello(&ours));
    let mut child = Some(child);
    match answered {
        Ok(held) => Ok(held.into_held(ours, child)),
        Err(e) => {
            if let Some(mut child) = child.take() {
                let _ = child.kill();
                let _ = child.wait();
            }
            Err(e)
        }
    }
}

/// Takes over the pane whose keeper listens at `path`.
pub fn adopt(path: &Path) -> Result<Held, KeeperError> {
    let socket = protocol::connect(path)
        .map_err(|e| KeeperError::Keeper(format!("cannot reach {}: {e}", path.display())))?;
    protocol::send(&socket, &ToKeeper::Adopt, &[])
        .map_err(|e| KeeperError::Keeper(e.to_string()))?;
    Ok(hello(&socket)?.into_held(socket, None))
}

/// A keeper's hello, read.
struct Hello {
    pane: u32,
    pid: u32,
    keeper_pid: u32,
    cols: u16,
    rows: u16,
    history_limit: usize,
    exited: Option<i32>,
    master: OwnedFd,
    files: KeepFiles,
}

impl Hello {
    fn into_held(self, socket: OwnedFd, child: Option<Child>) -> Held {
        let socket = Arc::new(socket);
        let pane = PaneId(self.pane);
        LINKS
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((self.keeper_pid, Arc::downgrade(&socket)));
        Held {
            pane,
            pid: self.pid,
            master: self.master,
            files: self.files,
            link: KeeperLink {
                pane,
                socket,
                keeper_pid: self.keeper_pid,
                pid: self.pid,
                child,
            },
            cols: self.cols,
            rows: self.rows,
            history_limit: self.history_limit,
            exited: self.exited,
        }
    }
}

fn hello(socket: &OwnedFd) -> Result<Hello, KeeperError> {
    let timeout = |t| {
        rustix::net::sockopt::set_socket_timeout(socket, rustix::net::sockopt::Timeout::Recv, t)
    };
    let _ = timeout(Some(ANSWER_WAIT));
    let received = protocol::receive::<FromKeeper>(socket);
    let _ = timeout(None);
    match received {
        Ok((
            FromKeeper::Hello {
                pane,
                pid,
                keeper_pid,
                cols,
                rows,
                history_limit,
                exited,
            },
            fds,
        )) => {
            let mut fds = fds.into_iter();
            let master = fds
                .next()
                .ok_or_else(|| KeeperError::Keeper("the hello carried no terminal".into()))?;
            let files = KeepFiles::from_fds(fds.collect())
                .map_err(|e| KeeperError::Keeper(e.to_string()))?;
            Ok(Hello {
                pane,
                pid,
                keeper_pid,
                cols,
                rows,
                history_limit,
                exited,
                master,
                files,
            })
        }
        Ok((FromKeeper::Failed { message }, _)) => Err(KeeperError::Program(message)),
        Ok((other, _)) => Err(KeeperError::Keeper(format!("said {other:?} first"))),
        Err(e) => Err(KeeperError::Keeper(format!("did not answer: {e}"))),
    }
}

/// The keepers' directory, private to the user.
fn make_directory(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let mode = std::fs::metadata(dir)?.permissions().mode();
            if mode & 0o077 != 0 {
                std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
            }
            Ok(())
        }
        Err(e) => Err(e),
    }
}

impl KeeperLink {
    /// Waits for the program's end (`exited`: it had already ended when this server took the
    /// pane), then keeps the link until the ended pane is no longer kept (`release`). A keeper
    /// that dies first leaves the program unwatched: its end is then noticed by its PID,
    /// without a status.
    pub fn wait_exit(self, exited: Option<i32>) -> Option<std::process::ExitStatus> {
        let status = match exited {
            Some(status) => Some(status),
            None => loop {
                match protocol::receive::<FromKeeper>(&*self.socket) {
                    Ok((FromKeeper::Exited { status }, _)) => break Some(status),
                    Ok(_) => continue,
                    Err(_) => {
                        crate::log::line(&format!(
                            "keeper {} went away before its program {}",
                            self.keeper_pid, self.pid
                        ));
                        wait_gone(self.pid);
                        break None;
                    }
                }
            },
        };
        match status {
            Some(_) => self.park(),
            None => self.let_go(),
        }
        status.map(std::process::ExitStatus::from_raw)
    }

    /// Keeps the link of an ended pane until `release`.
    pub fn park(self) {
        PARKED
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(self);
    }

    /// Tells the keeper it may go, and reaps it if this process started it.
    fn let_go(mut self) {
        let _ = protocol::send(&*self.socket, &ToKeeper::Release, &[]);
        match self.child.take() {
            Some(mut child) => drop(child.wait()),
            // Started by this process before an upgrade's exec (still its child, so reaped
            // here), or by a server that is gone (then not this process's to wait for).
            None => reap(self.keeper_pid),
        }
        forget(&self.socket);
    }
}

/// The ended pane `pane` is no longer kept: its keeper may go.
pub fn release(pane: PaneId) {
    let parked = {
        let mut parked = PARKED.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(at) = parked.iter().position(|link| link.pane == pane) else {
            return;
        };
        parked.swap_remove(at)
    };
    parked.let_go();
}

/// Reaps keeper `pid` if it is this process's child; returns at once if it is not.
fn reap(pid: u32) {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return;
    };
    loop {
        match rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::empty()) {
            Err(rustix::io::Errno::INTR) => continue,
            _ => return,
        }
    }
}

/// Waits for process `pid` to end (it is not ours to wait for).
fn wait_gone(pid: u32) {
    while Path::new(&format!("/proc/{pid}")).exists() {
        std::thread::sleep(ORPHAN_LOOK);
    }
}

fn forget(socket: &Arc<OwnedFd>) {
    let mut links = LINKS.lock().unwrap_or_else(PoisonError::into_inner);
    links.retain(|(_, link)| link.upgrade().is_some_and(|l| !Arc::ptr_eq(&l, socket)));
}

/// The keepers this process holds panes through, by PID.
pub fn keeper_pids() -> Vec<u32> {
    let links = LINKS.lock().unwrap_or_else(PoisonError::into_inner);
    links.iter().map(|(pid, _)| *pid).collect()
}

/// Tells every keeper this process holds that the server stops on purpose: each hangs its
/// program up and ends (`kill --server`, SIGTERM).
pub fn hang_up_all() {
    let links = std::mem::take(&mut *LINKS.lock().unwrap_or_else(PoisonError::into_inner));
    for (_, link) in links {
        if let Some(socket) = link.upgrade() {
            let _ = protocol::send(socket.as_fd(), &ToKeeper::HangUp, &[]);
        }
    }
}

/// Takes every keeper's socket out of the directory, first thing in a stop on purpose: a
/// client arriving from now on finds no panes waiting, so it does not start a server to take
/// over panes that are about to be hung up. (The keepers stay linked to this server until
/// [`hang_up_all`]; a keeper whose socket is gone and whose server is gone ends by itself.)
pub fn withdraw(socket: &Path) {
    let Ok(entries) = std::fs::read_dir(directory(socket)) else {
        return;
    };
    for entry in entries.flatten().take(100_000) {
        let _ = std::fs::remove_file(entry.path());
    }
}
