//! The server's socket: a private directory (0700, never chmod-ed for you), a lock file that
//! makes exactly one server win any race to start, recovery of a socket left by a killed server,
//! a 0600 socket, and on exit the removal of our own socket only, never a successor's.

use rustix::fs::FlockOperation;
use std::fs::File;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum SocketError {
    #[error(
        "refusing socket directory {path}: {detail}; phux needs a directory only you can enter \
         (mode 700, owned by you). Fix it with `chmod 700 {path}` (phux never changes it for you) \
         or choose another path with --socket"
    )]
    UnsafeDirectory { path: PathBuf, detail: String },
    #[error("a phux server is already running at {path}")]
    AlreadyRunning { path: PathBuf },
    #[error("cannot set up the socket at {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> SocketError + '_ {
    move |source| SocketError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// A bound, listening socket and the lock that makes it ours.
pub struct BoundSocket {
    pub listener: UnixListener,
    path: PathBuf,
    inode: u64,
    _lock: File,
}

impl BoundSocket {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for BoundSocket {
    fn drop(&mut self) {
        // Only the socket we bound: a successor's (another inode) is left alone.
        if std::fs::symlink_metadata(&self.path).is_ok_and(|m| m.ino() == self.inode) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The socket path with its lock held: this process, and no other, may bind it.
pub struct Claim {
    path: PathBuf,
    lock: File,
}

/// Creates the socket's directory (0700) if it is missing and refuses one other users can
/// enter. Anything written beside the socket (the lock, a detached server's log) waits for it.
pub fn prepare_directory_of(path: &Path) -> Result<(), SocketError> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    prepare_directory(dir)
}

/// Prepares the directory and takes the lock; a second server stops here, cheaply.
pub fn claim(path: &Path) -> Result<Claim, SocketError> {
    prepare_directory_of(path)?;
    let lock_path = path.with_extension("sock.lock");
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(io_error(&lock_path))?;
    let _ = std::fs::set_permissions(&lock_path, std::fs::Permissions::from_mode(0o600));
    if rustix::fs::flock(&lock, FlockOperation::NonBlockingLockExclusive).is_err() {
        return Err(SocketError::AlreadyRunning {
            path: path.to_path_buf(),
        });
    }
    Ok(Claim {
        path: path.to_path_buf(),
        lock,
    })
}

impl Claim {
    /// Clears a stale socket and binds.
    pub fn bind(self) -> Result<BoundSocket, SocketError> {
        let Claim { path, lock } = self;
        let path = path.as_path();
        // We hold the lock, so whatever socket file is here belongs to a server that died.
        if std::fs::symlink_metadata(path).is_ok() {
            std::fs::remove_file(path).map_err(io_error(path))?;
        }
        let listener = UnixListener::bind(path).map_err(io_error(path))?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .map_err(io_error(path))?;
        let inode = std::fs::symlink_metadata(path)
            .map_err(io_error(path))?
            .ino();
        Ok(BoundSocket {
            listener,
            path: path.to_path_buf(),
            inode,
            _lock: lock,
        })
    }
}

fn prepare_directory(dir: &Path) -> Result<(), SocketError> {
    if !dir.exists() {
        if let Some(parent) = dir.parent() {
            std::fs::create_dir_all(parent).map_err(io_error(parent))?;
        }
        match std::fs::DirBuilder::new().mode(0o700).create(dir) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(io_error(dir)(e)),
        }
    }
    let meta = std::fs::metadata(dir).map_err(io_error(dir))?;
    let me = rustix::process::getuid().as_raw();
    let mode = meta.mode() & 0o7777;
    let private = meta.uid() == me && mode & 0o077 == 0;
    // A root-owned sticky directory such as /tmp is safe: nobody can replace our 0600 socket.
    let shared_sticky = meta.uid() == 0 && mode & 0o1000 != 0;
    if private || shared_sticky {
        return Ok(());
    }
    let detail = if meta.uid() == me {
        format!("its mode is {mode:o}, which lets other users in")
    } else {
        format!("it is owned by uid {} (you are uid {me})", meta.uid())
    };
    Err(SocketError::UnsafeDirectory {
        path: dir.to_path_buf(),
        detail,
    })
}

/// True when the peer on `stream` runs as our own user.
pub fn peer_is_us(stream: &std::os::unix::net::UnixStream) -> bool {
    rustix::net::sockopt::socket_peercred(stream)
        .is_ok_and(|cred| cred.uid == rustix::process::getuid())
}
