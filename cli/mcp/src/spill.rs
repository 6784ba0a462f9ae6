//! Results too large to return are kept, not dropped: written whole to a private file (mode
//! 0600, in a 0700 directory under phux's state directory) whose path the answer gives. The
//! call that produced them may have run a command; the answer must never be "run it again".
//! The directory keeps the newest [`KEEP_FILES`] results.

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// How many spilled results the directory keeps; the oldest go first.
pub const KEEP_FILES: usize = 64;

/// Where spilled results go: `$XDG_STATE_HOME/phux/mcp-results` (else
/// `~/.local/state/phux/mcp-results`).
pub fn directory() -> PathBuf {
    phux_core::config::paths::state_dir().join("mcp-results")
}

/// Writes `text` to a new private file named after `tool` and returns its path.
pub fn write(tool: &str, extension: &str, text: &str) -> std::io::Result<PathBuf> {
    let dir = directory();
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir)?;
    // A directory that existed before keeps whatever mode it had: make it private.
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))?;
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let name = format!(
        "{tool}-{millis}-{}-{}.{extension}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    let path = dir.join(name);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    prune(&dir);
    Ok(path)
}

/// Removes the oldest files past [`KEEP_FILES`].
fn prune(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let meta = e.metadata().ok()?;
            meta.is_file()
                .then(|| (meta.modified().unwrap_or(std::time::UNIX_EPOCH), e.path()))
        })
        .collect();
    if files.len() <= KEEP_FILES {
        return;
    }
    files.sort();
    for (_, path) in &files[..files.len() - KEEP_FILES] {
        let _ = std::fs::remove_file(path);
    }
}
