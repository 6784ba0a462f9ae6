//! The one way phux replaces a whole file: the bytes go to a temporary file in the same
//! directory (created new, so nothing already there — a link, a FIFO a stranger planted — is
//! followed or written through), are synced, and the temporary file is renamed over the
//! destination (which replaces a link there, never its target). A reader sees the old file or
//! the new one, never half of one; a failure leaves the old file and no temporary behind.
//!
//! The mode is the new file's (less the umask): `PUBLIC` for what a user reads like any file
//! they made (configs, tape outputs), `PRIVATE` for secrets (the token store, a key).
//! Animations are streamed rather than written whole, and keep their own writer
//! (`phux_encoders`' output file), which follows the same rules.

use std::fs::OpenOptions;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// Readable by everyone (0666 less the umask, so 0644 usually).
pub const PUBLIC: u32 = 0o666;
/// The owner's alone.
pub const PRIVATE: u32 = 0o600;

/// Replaces `path` with `bytes`.
pub fn write(path: &Path, bytes: &[u8], mode: u32) -> std::io::Result<()> {
    let temp = temporary_beside(path);
    let result = (|| {
        // A leftover of a process that had this pid before is not ours to keep.
        let _ = std::fs::remove_file(&temp);
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .open(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// `.NAME.tmp.PID` beside `path`: hidden, and one per process.
fn temporary_beside(path: &Path) -> PathBuf {
    let mut name = std::ffi::OsString::from(".");
    name.push(path.file_name().unwrap_or_default());
    name.push(format!(".tmp.{}", std::process::id()));
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_file_is_replaced_whole_with_its_mode_and_a_link_there_is_replaced_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store");
        write(&path, b"one", PRIVATE).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        assert_eq!(
            std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o600
        );
        write(&path, b"two", PRIVATE).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"untouched").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        write(&link, b"new", PUBLIC).unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"untouched");
        assert!(!std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp."))
            .collect();
        assert!(leftovers.is_empty());
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing-dir").join("file");
        assert!(write(&path, b"x", PUBLIC).is_err());
        assert!(!path.exists());
    }
}
