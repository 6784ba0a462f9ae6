//! Every end-to-end test of the workspace, in one test binary: a module per area, a file per
//! subject. One binary links the world once instead of once per file (each test binary links
//! the server, the client and the engine binding), and its tests share one harness, so a slow
//! area no longer leaves the other cores idle while its binary finishes.
//!
//! The tests run concurrently in one process. A test must therefore not change what the
//! process shares (its environment, working directory, umask or signal dispositions): it sets
//! what it needs on the commands it starts instead. Each test starts its own server on its own
//! socket under a private temporary directory; the few that must not run beside others say so
//! by holding [`phux_tests::serial`].
//!
//! Run one area or one file with a filter: `cargo test -p phux-tests --test e2e agent::`,
//! `cargo test -p phux-tests --test e2e agent_wait`.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

mod agent;
mod conformance;
mod fleet;
mod hardening;
mod maintenance;
mod mcp;
mod plugins;
mod recording;
mod remote;
mod server;
mod setup;
mod tui;
