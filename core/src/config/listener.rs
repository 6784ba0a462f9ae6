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
