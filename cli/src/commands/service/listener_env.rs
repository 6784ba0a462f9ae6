//! The listener's settings the service's server is started with: the address (`--ws-addr`,
//! else `PHUX_WS_ADDR`, else the address the running server listens on now, so a listener
//! started with `phux listen` survives the move to the service) and the token store and
//! certificate the installing shell names. `[listener] ws_addr` in config.toml needs nothing
//! here: the service's server reads the file.

use std::path::Path;

/// The variables the server's listener reads, each carried when set.
const CARRIED: &[&str] = &["PHUX_WS_TOKENS", "PHUX_WS_TLS_CERT", "PHUX_WS_TLS_KEY"];

/// `NAME=VALUE` pairs for the unit's environment.
pub fn listener_env(ws_addr: Option<&str>, socket: &Path) -> Vec<(String, String)> {
    let set = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let addr = ws_addr
        .map(str::to_owned)
        .or_else(|| set("PHUX_WS_ADDR"))
        .or_else(|| {
            phux_core::config::listener::RunningListener::read(socket).map(|running| running.addr)
        });
    let mut env: Vec<(String, String)> = addr
        .map(|addr| ("PHUX_WS_ADDR".to_owned(), addr))
        .into_iter()
        .collect();
    for name in CARRIED {
        if let Some(value) = set(name) {
            env.push(((*name).to_owned(), value));
        }
    }
    env
}
