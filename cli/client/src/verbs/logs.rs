//! `logs`' inventory: where phux writes its logs (the server's beside its socket, the client
//! logs in the same directory, the state directory), with their sizes and ages, or "not
//! created yet".

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::Serialize;

/// Schema of `phux logs --json`.
pub const LOGS_SCHEMA_VERSION: u32 = 1;

/// One file or directory of the inventory.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct LogEntry {
    pub path: String,
    pub exists: bool,
    /// Size in bytes (a directory: the files directly in it).
    pub bytes: Option<u64>,
    /// Seconds since it was last written.
    pub age_secs: Option<u64>,
}

/// A client's log.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ClientLog {
    pub pid: u32,
    #[serde(flatten)]
    pub entry: LogEntry,
}

/// `phux logs --json`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct LogsJson {
    pub schema_version: u32,
    pub socket: String,
    pub server: LogEntry,
    pub server_rotated: LogEntry,
    pub client_dir: String,
    pub clients: Vec<ClientLog>,
    pub state_dir: LogEntry,
}

/// `phux logs --server --json`: the last lines of one log.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct LogLinesJson {
    pub schema_version: u32,
    pub path: String,
    pub lines: Vec<String>,
}

/// The server's log: `<socket>.log` (the server writes it when started in the background).
pub fn server_log(socket: &Path) -> PathBuf {
    socket.with_extension("log")
}

/// Where client logs are: the socket's directory.
pub fn client_dir(socket: &Path) -> PathBuf {
    socket
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The inventory document.
pub fn document(socket: &Path) -> LogsJson {
    let server = server_log(socket);
    let dir = client_dir(socket);
    LogsJson {
        schema_version: LOGS_SCHEMA_VERSION,
        socket: socket.display().to_string(),
        server: entry(&server),
        server_rotated: entry(&PathBuf::from(format!("{}.1", server.display()))),
        client_dir: dir.display().to_string(),
        clients: client_logs(&dir),
        state_dir: entry(&phux_core::config::paths::data_dir()),
    }
}

fn entry(path: &Path) -> LogEntry {
    let meta = std::fs::symlink_metadata(path).ok();
    let bytes = meta
        .as_ref()
        .map(|m| if m.is_dir() { dir_bytes(path) } else { m.len() });
    let age_secs = meta
        .as_ref()
        .and_then(|m| m.modified().ok())
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .map(|d| d.as_secs());
    LogEntry {
        path: path.display().to_string(),
        exists: meta.is_some(),
        bytes,
        age_secs,
    }
}

/// The size of the files directly in `dir` (not recursive: an inventory, not `du`).
fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .take(10_000)
                .filter_map(|e| e.metadata().ok())
                .filter(|m| m.is_file())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// `client-PID.log` files in `dir`, newest first.
pub fn client_logs(dir: &Path) -> Vec<ClientLog> {
    let mut logs: Vec<ClientLog> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .take(10_000)
                .filter_map(|e| {
                    let name = e.file_name().into_string().ok()?;
                    let pid = name.strip_prefix("client-")?.strip_suffix(".log")?;
                    Some(ClientLog {
                        pid: pid.parse().ok()?,
                        entry: entry(&e.path()),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    logs.sort_by_key(|c| (c.entry.age_secs, c.pid));
    logs
}
