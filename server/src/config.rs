//! How a server runs: where its socket is, what panes start with, and when it exits on its own.

use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Clone)]
pub struct ServerConfig {
    pub socket: PathBuf,
    /// The `phux` executable, re-run as `phux __pane-exec` to start each pane's program.
    pub shim_exe: PathBuf,
    /// Rows of history each pane keeps.
    pub scrollback_rows: usize,
    /// Exit once no pane and no client has existed for this long.
    pub exit_after_idle: Option<Duration>,
    /// Start with a session named `default` running the shell (a foreground `phux server`).
    pub seed_session: bool,
    /// The program a pane runs when none is given.
    pub default_shell: String,
    /// Memory each pane's flight recorder may use (0 turns it off).
    pub flight_bytes: usize,
    /// Where a detached server's stderr goes.
    pub log_path: Option<PathBuf>,
    /// How attached clients' sizes decide the sessions' sizes.
    pub window_size: crate::clients::WindowSizePolicy,
    /// The config file whose `[[satellites]]` this server dials as a hub.
    pub config_file: Option<PathBuf>,
}

impl ServerConfig {
    pub fn new(socket: PathBuf, shim_exe: PathBuf) -> Self {
        Self {
            socket,
            shim_exe,
            scrollback_rows: 10_000,
            exit_after_idle: None,
            seed_session: false,
            default_shell: default_shell(),
            log_path: None,
            window_size: crate::clients::WindowSizePolicy::default(),
            flight_bytes: crate::flight::DEFAULT_FLIGHT_BYTES,
            config_file: Some(phux_core::hosts::config_file::config_path()),
        }
    }
}

/// `$SHELL`, else `/bin/sh`.
pub fn default_shell() -> String {
    std::env::var("SHELL")
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "/bin/sh".into())
}
