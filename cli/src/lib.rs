//! The `phux` command line as a library: the clap arguments (`cli`, one file per verb under
//! `commands`), which call `phux_client`'s operations and print their documents. The client,
//! the MCP server, the TUI and the tape runner are crates of their own under `cli/`; their
//! paths are re-exported here for the end-to-end tests.

#![forbid(unsafe_code)] // the C `main` in main.rs is the command line's one unsafe code

pub mod cli;
pub mod commands;
pub mod quick;
pub mod usage;

pub use phux_client as client;
pub use phux_client::{engine_setup, failure, output, registry, screen_view, workspace};
pub use phux_mcp as mcp;
pub use phux_tui as tui;
