//! The server's diagnostic log: one line per notable event, to stderr (which a detached server
//! points at its log file).

/// Writes one timestamped line.
pub fn line(message: &str) {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    eprintln!("[{secs}] phux-server[{}]: {message}", std::process::id());
}
