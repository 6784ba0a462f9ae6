//! The client of the server's socket, as a library: connecting (and starting a server when a
//! verb may), requests with ids, TARGET resolution, and one function per operation returning
//! the verb's `--json` document. Nothing here prints; the CLI verbs and the future MCP adapter
//! both call these functions and decide how to show the result.

pub mod agent_wait;
pub mod agents;
mod autostart;
pub mod configured_agents;
mod connection;
mod error;
pub mod fleet_search;
pub mod layout;
pub mod lease;
pub mod lifecycle;
pub mod listing;
pub mod pane;
pub mod record;
mod remote_link;
pub mod run;
pub mod run_shell;
pub mod screen;
pub mod stop;
mod stream;
pub mod target;
mod trust;
pub mod wait;

pub use autostart::{ensure_server, on_a_server, AUTOSTART_LIMIT, AUTOSTART_POLL};
pub use connection::{checked_stream, Client, DEFAULT_READ_TIMEOUT};
pub use error::ClientError;
pub use stream::{Pushed, SCREEN_CHANGED};
