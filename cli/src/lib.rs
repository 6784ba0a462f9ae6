//! The `phux` command line as a library: the client of the server's socket (`client`, which
//! prints nothing and is meant to be called by other front ends such as the MCP adapter,
//! `mcp`), the verbs (`commands`) and how they report (`output`, `failure`).

pub mod cli;
pub mod client;
pub mod commands;
pub mod engine_setup;
pub mod failure;
pub mod mcp;
pub mod output;
pub mod quick;
pub mod registry;
pub mod screen_view;
pub mod tui;
pub mod usage;
pub mod workspace;
