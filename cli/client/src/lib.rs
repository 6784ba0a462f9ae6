//! The client of the server's socket, as a library: connecting (and starting a server when an
//! operation may), requests with ids, TARGET resolution, the streams a pane is read through,
//! and every verb's operation as a plain function over its options returning the verb's
//! `--json` document (`verbs`). No command-line parsing lives here: the `phux` binary and the
//! MCP server both call these functions and decide how to show the result. Only warnings go
//! to stderr (`output::warn`); documents are the caller's to print.

#![forbid(unsafe_code)]

pub mod agent_wait;
pub mod agents;
mod autostart;
pub mod configured_agents;
mod connection;
pub mod engine_setup;
mod error;
pub mod failure;
pub mod fleet_search;
pub mod layout;
pub mod lease;
pub mod lifecycle;
pub mod listing;
pub mod observe;
pub mod output;
pub mod pane;
pub mod record;
pub mod registry;
mod remote_link;
pub mod run;
pub mod run_shell;
pub mod screen;
pub mod screen_view;
pub mod server_exit;
pub mod stop;
mod stream;
pub mod target;
mod trust;
pub mod values;
pub mod verbs;
pub mod wait;
pub mod workspace;

use std::path::PathBuf;

pub use autostart::{
    ensure_server, ensure_server_saying, on_a_server, AUTOSTART_LIMIT, AUTOSTART_POLL,
};
pub use connection::{checked_stream, Client, DEFAULT_READ_TIMEOUT};
pub use error::ClientError;
pub use stream::{Pushed, SCREEN_CHANGED};

/// What every operation needs beyond its own options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    /// The server's socket, already resolved (`--socket` > `$PHUX_SOCKET` > ...).
    pub socket: PathBuf,
}
