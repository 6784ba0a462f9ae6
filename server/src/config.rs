//! How a server runs: where its socket is, what panes start with, and when it exits on its own.
//! `phux server` fills it from its flags over the config file's `[defaults]`.

use std::path::PathBuf;

use phux_core::config::defaults::CwdInheritance;
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
    /// How many ended panes stay readable (0: none), and for how long.
    pub keep_exited: usize,
    pub keep_exited_for: Duration,
    /// `TERM` in every pane.
    pub term: String,
    /// Where a pane started without a directory begins.
    pub cwd_inheritance: CwdInheritance,
    /// The name of the session a foreground server starts with.
    pub seed_session_name: String,
    /// The plugins' event hooks the server runs (none unless the caller loads them).
    pub hooks: crate::hooks::HookTable,
    /// The config file whose `[[satellites]]` this server dials as a hub.
    pub config_file: Option<PathBuf>,
    /// The manifest a previous server process left on `phux upgrade`: take over its socket and
    /// panes instead of binding anew.
    pub adopt: Option<PathBuf>,
    /// Each pane's program runs under a keeper, so it outlives this server (`PHUX_KEEPERS=0`
    /// turns it off: panes are then the server's children and die with it).
    pub keepers: bool,
    /// The remote listener's address (`--ws-addr`, else `[listener] ws_addr`); the
    /// environment's `PHUX_WS_ADDR` outranks both. `None`: no listener.
    pub ws_addr: Option<String>,
}

/// Rows of history a pane keeps by default (`$PHUX_HISTORY_LIMIT`, `phux server
/// --history-limit`, `phux new --history-limit` change it), and the most it may keep.
pub const DEFAULT_HISTORY_LIMIT: usize = 10_000;
pub const MAX_HISTORY_LIMIT: usize = 1_000_000;

/// Ended panes kept by default: the last 16, for 10 minutes.
pub const DEFAULT_KEEP_EXITED: usize = 16;
pub const DEFAULT_KEEP_EXITED_SECS: u64 = 600;

impl ServerConfig {
    pub fn new(socket: PathBuf, shim_exe: PathBuf) -> Self {
        Self {
            socket,
            shim_exe,
            scrollback_rows: env_number("PHUX_HISTORY_LIMIT")
                .filter(|rows| (1..=MAX_HISTORY_LIMIT).contains(rows))
                .unwrap_or(DEFAULT_HISTORY_LIMIT),
            exit_after_idle: None,
            seed_session: false,
            default_shell: default_shell(),
            log_path: None,
            window_size: crate::clients::WindowSizePolicy::default(),
            flight_bytes: crate::flight::DEFAULT_FLIGHT_BYTES,
            keep_exited: env_number("PHUX_KEEP_EXITED").unwrap_or(DEFAULT_KEEP_EXITED),
            keep_exited_for: Duration::from_secs(
                env_number("PHUX_KEEP_EXITED_SECS").unwrap_or(DEFAULT_KEEP_EXITED_SECS),
            ),
            term: "xterm-256color".into(),
            cwd_inheritance: CwdInheritance::default(),
            seed_session_name: "default".into(),
            hooks: crate::hooks::HookTable::default(),
            config_file: Some(phux_core::config::paths::config_path()),
            adopt: None,
            keepers: std::env::var("PHUX_KEEPERS").map_or(true, |v| v != "0"),
            ws_addr: None,
        }
    }
}

/// `$SHELL`, else `/bin/sh`.
pub use phux_core::config::defaults::default_shell;

/// A number from the environment, when it holds one (a server started on demand has no flags).
fn env_number<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok()?.trim().parse().ok()
}
