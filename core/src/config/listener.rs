//! `[listener]`: the remote listener (TLS WebSocket, §4.18), off unless `ws_addr` names an
//! address. `PHUX_WS_ADDR` and `phux server --ws-addr` outrank it. (`[[remote]]` is the host
//! registry's, so the listener's table has its own name.)

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Listener {
    /// `HOST:PORT` to listen on, e.g. `127.0.0.1:8787`; beyond loopback is the user's choice.
    pub ws_addr: Option<String>,
}

impl Listener {
    pub const KEYS: &'static [&'static str] = &["ws_addr"];

    /// No address: the listener stays off.
    pub fn is_off(&self) -> bool {
        self.ws_addr.is_none()
    }
}

/// The address a server started now listens on: `PHUX_WS_ADDR` when set, else `from_file`
/// (the config file's `[listener] ws_addr`, read only when needed). `server --ws-addr` outranks
/// both.
pub fn configured_addr(from_file: impl FnOnce() -> Option<String>) -> Option<String> {
    std::env::var("PHUX_WS_ADDR")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .or_else(from_file)
}

/// What the running server's listener binds, written beside its socket (`<socket>.listener`,
/// 0600) when it starts listening and removed when the server stops on purpose: `pair` reads it
/// to name the address devices dial without contacting the server (§4.18), as it would read
/// the configuration. A crash leaves it: the next server listens there again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunningListener {
    /// The bound address (its real port when port 0 was asked for).
    pub addr: String,
    /// The certificate's SHA-256 fingerprint.
    pub fingerprint: String,
}

/// The most a listener file may hold.
const MAX_LISTENER_FILE: u64 = 4096;

impl RunningListener {
    /// Where the server at `socket` writes it.
    pub fn path_for(socket: &std::path::Path) -> std::path::PathBuf {
        let mut name = socket.as_os_str().to_os_string();
        name.push(".listener");
        std::path::PathBuf::from(name)
    }

    /// The file of the server at `socket`; `None` when there is none (or it cannot be read).
    pub fn read(socket: &std::path::Path) -> Option<RunningListener> {
        let bytes = crate::bounded_read::read_file(
            &Self::path_for(socket),
            MAX_LISTENER_FILE,
            "listener file",
        )
        .ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// Writes it for the server at `socket` (atomically, 0600).
    pub fn write(&self, socket: &std::path::Path) -> std::io::Result<()> {
        let bytes = serde_json::to_vec(self).map_err(std::io::Error::other)?;
        crate::atomic_file::write(&Self::path_for(socket), &bytes, 0o600)
    }

    /// Removes the file of the server at `socket` (a stop on purpose).
    pub fn remove(socket: &std::path::Path) {
        let _ = std::fs::remove_file(Self::path_for(socket));
    }
}
