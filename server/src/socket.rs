//! The server's socket: a private directory (0700, never chmod-ed for you), a lock file that
//! makes exactly one server win any race to start, recovery of a socket left by a killed server,
//! a 0600 socket, and on exit the removal of our own socket only, never a successor's.

use rustix::fs::FlockOperation;
use std::fs::File;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
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
    #[error(
        "refusing the lock file {path}: {detail}; phux opens only a file of its own there (a \
         planted link or another user's file could be changed through it). Remove it, or \
         choose another path with --socket"
    )]
    UnsafeLock { path: PathBuf, detail: String },
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

    /// Copies of the listening socket and of the lock file (the lock goes with the open file,
    /// so a copy holds it too), for `phux upgrade` to hand to the next process.
    pub fn handoff_fds(&self) -> std::io::Result<(rustix::fd::OwnedFd, rustix::fd::OwnedFd)> {
        use std::os::fd::AsFd;
        Ok((
            self.listener.as_fd().try_clone_to_owned()?,
            self._lock.as_fd().try_clone_to_owned()?,
        ))
    }

    /// The socket and lock a previous server process bound and handed over (`phux upgrade`).
    pub fn adopt(
        path: PathBuf,
        listener: rustix::fd::OwnedFd,
        lock: rustix::fd::OwnedFd,
    ) -> std::io::Result<BoundSocket> {
        let listener = UnixListener::from(listener);
        let inode = std::fs::symlink_metadata(&path)?.ino();
        Ok(BoundSocket {
            listener,
            path,
            inode,
            _lock: File::from(lock),
        })
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

/// Refuses a lock file phux would not open (see [`claim`]) without taking the lock: a
/// client-started server checks it before its stderr becomes its log, so the client that
/// started it can say why it did not start.
pub fn check_lock_of(path: &Path) -> Result<(), SocketError> {
    open_lock(&lock_path_of(path)).map(drop)
}

fn lock_path_of(socket: &Path) -> PathBuf {
    socket.with_extension("sock.lock")
}

/// Prepares the directory and takes the lock; a second server stops here, cheaply.
pub fn claim(path: &Path) -> Result<Claim, SocketError> {
    prepare_directory_of(path)?;
    let lock_path = lock_path_of(path);
    let lock = open_lock(&lock_path)?;
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

/// Opens (or creates, 0600) the lock file without following a symlink at its path, and refuses
/// one that is not a regular file of ours with a single link: in a shared sticky directory
/// another user can plant any of those, and a `chmod` through them changed a root-owned file
/// (a dangling link made root create one). The mode is fixed through the open file.
fn open_lock(lock_path: &Path) -> Result<File, SocketError> {
    use rustix::fs::{FileType, Mode, OFlags};
    let refuse = |detail: String| SocketError::UnsafeLock {
        path: lock_path.to_path_buf(),
        detail,
    };
    let flags = OFlags::CREATE | OFlags::WRONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let fd = match rustix::fs::open(lock_path, flags, Mode::from_raw_mode(0o600)) {
        Ok(fd) => fd,
        Err(rustix::io::Errno::LOOP) => return Err(refuse("it is a symbolic link".into())),
        Err(e) => return Err(io_error(lock_path)(e.into())),
    };
    let stat = rustix::fs::fstat(&fd).map_err(|e| io_error(lock_path)(e.into()))?;
    let me = rustix::process::getuid().as_raw();
    if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
        return Err(refuse("it is not a regular file".into()));
    }
    if stat.st_uid != me {
        return Err(refuse(format!(
            "it is owned by uid {} (you are uid {me})",
            stat.st_uid
        )));
    }
    if stat.st_nlink != 1 {
        return Err(refuse(format!(
            "it has {} hard links (a link to another file)",
            stat.st_nlink
        )));
    }
    if stat.st_mode & 0o077 != 0 {
        rustix::fs::fchmod(&fd, Mode::from_raw_mode(0o600))
            .map_err(|e| io_error(lock_path)(e.into()))?;
    }
    Ok(File::from(fd))
}

/// Makes the socket just bound 0600 without a `chmod` through its path: it is opened
/// `O_PATH|O_NOFOLLOW`, checked to be our socket, and changed through `/proc/self/fd` (a unix
/// socket's mode cannot be changed through a socket descriptor). Returns its inode.
fn make_socket_private(path: &Path) -> std::io::Result<u64> {
    use rustix::fs::{FileType, Mode, OFlags};
    use std::os::fd::AsRawFd;
    let fd = rustix::fs::open(
        path,
        OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let stat = rustix::fs::fstat(&fd)?;
    if FileType::from_raw_mode(stat.st_mode) != FileType::Socket
        || stat.st_uid != rustix::process::getuid().as_raw()
    {
        return Err(std::io::Error::other(
            "the path is no longer the socket this server bound",
        ));
    }
    rustix::fs::chmod(
        format!("/proc/self/fd/{}", fd.as_raw_fd()),
        Mode::from_raw_mode(0o600),
    )?;
    Ok(stat.st_ino)
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
        let inode = make_socket_private(path).map_err(io_error(path))?;
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
    let me = rustix::process::getuid().as_raw();
    // A symlink standing for the directory counts only if it is ours (or root's): another
    // user's link in /tmp would point phux at a directory of that user's choosing.
    let link = std::fs::symlink_metadata(dir).map_err(io_error(dir))?;
    if link.file_type().is_symlink() && link.uid() != me && link.uid() != 0 {
        return Err(SocketError::UnsafeDirectory {
            path: dir.to_path_buf(),
            detail: format!("it is a symbolic link owned by uid {}", link.uid()),
        });
    }
    let meta = std::fs::metadata(dir).map_err(io_error(dir))?;
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
