//! The server's diagnostic log: one line per notable event, to stderr, which a detached server
//! points at a log file beside its socket. That file is opened without following a symlink
//! (another user could have planted one to make us append to a file of theirs... or of root's),
//! each line is capped so a hostile request cannot copy megabytes into it, and the file is
//! rotated (to `<log>.1`) once it passes a size.

use std::fs::File;
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// Longest message kept in one line, in bytes; the rest is cut and counted.
pub const MAX_LINE_BYTES: usize = 1024;
/// Size at which the log file is moved to `<log>.1` and a fresh one started.
pub const ROTATE_AT_BYTES: u64 = 1024 * 1024;

/// The log file stderr points at, and how much it holds.
struct LogFile {
    path: PathBuf,
    len: u64,
}

static FILE: Mutex<Option<LogFile>> = Mutex::new(None);

/// Points stderr at the log file `path` (created 0600; never through a symlink; rotated first
/// if it is already full).
pub fn to_file(path: &Path) -> std::io::Result<()> {
    let len = open_onto_stderr(path)?;
    *FILE.lock().unwrap_or_else(PoisonError::into_inner) = Some(LogFile {
        path: path.to_path_buf(),
        len,
    });
    Ok(())
}

/// Opens `path` for appending, refusing a symlink or a file that is not ours, rotates it when
/// full, and makes it stderr. Returns its length.
fn open_onto_stderr(path: &Path) -> std::io::Result<u64> {
    let mut file = open_private(path)?;
    if file.metadata()?.len() >= ROTATE_AT_BYTES {
        std::fs::rename(path, rotated(path))?;
        file = open_private(path)?;
    }
    rustix::stdio::dup2_stderr(&file)?;
    Ok(file.metadata()?.len())
}

fn open_private(path: &Path) -> std::io::Result<File> {
    use rustix::fs::{Mode, OFlags};
    // NOFOLLOW: a symlink is refused, not followed; NONBLOCK: a planted FIFO cannot hang us.
    let flags = OFlags::WRONLY
        | OFlags::APPEND
        | OFlags::CREATE
        | OFlags::NOFOLLOW
        | OFlags::NONBLOCK
        | OFlags::CLOEXEC;
    let file = File::from(rustix::fs::open(path, flags, Mode::from_raw_mode(0o600))?);
    let meta = file.metadata()?;
    if !meta.is_file() || meta.uid() != rustix::process::getuid().as_raw() {
        return Err(std::io::Error::other(format!(
            "{} is not a regular file of ours",
            path.display()
        )));
    }
    Ok(file)
}

fn rotated(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".1");
    PathBuf::from(name)
}

/// Writes one timestamped line (its message cut at [`MAX_LINE_BYTES`]).
pub fn line(message: &str) {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let text = format!(
        "[{secs}] phux-server[{}]: {}\n",
        std::process::id(),
        capped(message)
    );
    let mut file = FILE.lock().unwrap_or_else(PoisonError::into_inner);
    let _ = std::io::stderr().write_all(text.as_bytes());
    if let Some(log) = file.as_mut() {
        log.len += text.len() as u64;
        if log.len >= ROTATE_AT_BYTES {
            // A failed rotation keeps appending to the old file rather than losing lines.
            if let Ok(len) = open_onto_stderr(&log.path) {
                log.len = len;
            }
        }
    }
}

/// `message`, cut at a character boundary near [`MAX_LINE_BYTES`], saying how much was cut.
fn capped(message: &str) -> std::borrow::Cow<'_, str> {
    if message.len() <= MAX_LINE_BYTES {
        return message.into();
    }
    let mut end = MAX_LINE_BYTES;
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}… ({} more bytes not logged)",
        &message[..end],
        message.len() - end
    )
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_message_is_cut_at_a_char_boundary() {
        let long = "é".repeat(MAX_LINE_BYTES);
        let cut = capped(&long);
        assert!(cut.len() < MAX_LINE_BYTES + 64, "{}", cut.len());
        assert!(cut.ends_with("more bytes not logged)"));
        assert_eq!(capped("short"), "short");
    }
}
