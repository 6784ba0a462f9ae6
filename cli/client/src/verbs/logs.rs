//! `logs`' inventory: where phux writes its logs (the server's beside its socket, the client
//! logs in the same directory, the state directory), with their sizes and ages, or "not
//! created yet", and whether a running server writes its log there or to its own stderr.

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
    /// Size in bytes (a directory: the files in it and in its subdirectories).
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
    /// The server answering at the socket now, if one does.
    pub running: Option<RunningServer>,
}

/// The server that answers at the socket, and where its log goes.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct RunningServer {
    pub pid: u32,
    /// Its log file; `null` when it writes to its own stderr (started in the foreground with
    /// `phux server`, or by a service manager, whose journal has it).
    pub log: Option<String>,
}

/// `phux logs --server --json`: the last lines of one log.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct LogLinesJson {
    pub schema_version: u32,
    pub path: String,
    pub lines: Vec<String>,
}

/// The server's log: the socket's path with `.log` for its extension (`phux.log` beside
/// `phux.sock`), which a server started in the background writes.
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
        running: running_server(socket),
    }
}

/// Asks the server at `socket`, if one answers (never starting one), where its log goes.
pub fn running_server(socket: &Path) -> Option<RunningServer> {
    let mut client = crate::connection::Client::connect_running(socket).ok()?;
    let status: phux_core::wire::StatusOk = client
        .request(phux_core::wire::ClientMessage::Status(
            phux_core::wire::IdOnly { id: 0 },
        ))
        .ok()?;
    Some(RunningServer {
        pid: status.pid,
        log: status.log,
    })
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

/// The most entries the size of a directory counts, and how deep it looks: an inventory, not
/// `du` (the state directory holds the engine, the web assets and plugins, a few hundred files).
const MAX_DIR_ENTRIES: usize = 100_000;
const MAX_DIR_DEPTH: usize = 8;

/// The size of the files in `dir` and its subdirectories (symbolic links not followed), up to
/// [`MAX_DIR_ENTRIES`] entries and [`MAX_DIR_DEPTH`] levels.
fn dir_bytes(dir: &Path) -> u64 {
    let mut budget = MAX_DIR_ENTRIES;
    tree_bytes(dir, MAX_DIR_DEPTH, &mut budget)
}

fn tree_bytes(dir: &Path, depth: usize, budget: &mut usize) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut total = 0;
    for entry in entries.flatten() {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        // `DirEntry::metadata` does not follow a symbolic link.
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        if meta.is_file() {
            total += meta.len();
        } else if meta.is_dir() && depth > 0 {
            total += tree_bytes(&entry.path(), depth - 1, budget);
        }
    }
    total
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
