//! Files only their owner may read: the token store, the certificate's key. Written whole and
//! 0600 by `phux_core::atomic_file` (in a directory made 0700); read with a bound, refusing a
//! link or a file others can read. Changes that must not interleave (the token store's
//! read-modify-write, making the certificate) hold an exclusive lock on a file beside.

use std::fs::OpenOptions;
use std::io::Read;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::Path;

/// Writes `bytes` to `path` (mode 0600), creating its directory (0700) if needed.
pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
    }
    phux_core::atomic_file::write(path, bytes, phux_core::atomic_file::PRIVATE)
}

/// Reads at most `limit` bytes of `path`; `Ok(None)` when it does not exist. A link, a file
/// that is not regular, or one that others may read or write is refused.
pub fn read(path: &Path, limit: u64) -> std::io::Result<Option<Vec<u8>>> {
    let file = match OpenOptions::new()
        .read(true)
        .custom_flags(libc_nofollow())
        .open(path)
    {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other(format!(
            "{} is not a regular file",
            path.display()
        )));
    }
    if meta.mode() & 0o077 != 0 {
        return Err(std::io::Error::other(format!(
            "{} may be read by others (mode {:o}); run `chmod 600 {}`",
            path.display(),
            meta.mode() & 0o777,
            path.display()
        )));
    }
    if meta.len() > limit {
        return Err(std::io::Error::other(format!(
            "{} is {} bytes, more than the {limit} a file of its kind may be",
            path.display(),
            meta.len()
        )));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit).read_to_end(&mut bytes)?;
    Ok(Some(bytes))
}

fn libc_nofollow() -> i32 {
    rustix::fs::OFlags::NOFOLLOW.bits() as i32
}

/// An exclusive `flock` on a lock file, held while this lives (the kernel lets go when the file
/// closes, so a process that dies holds nothing).
pub struct Locked {
    _file: std::fs::File,
}

/// `<path>.lock`.
pub fn lock_path(path: &Path) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    std::path::PathBuf::from(name)
}

/// Waits for the exclusive lock on `<path>.lock`, making it (0600, its directory 0700) first.
pub fn lock_beside(path: &Path) -> std::io::Result<Locked> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
        .open(lock_path(path))?;
    rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive)?;
    Ok(Locked { _file: file })
}
