//! phux-core: the types every other crate shares, and the libghostty-vt engine binding.
//!
//! `core` depends on nothing of ours. Its I/O is finding, installing and loading the engine
//! library, reading the config file and manifests, and the things both the server and the
//! client do: running a plugin's command (`plugin_exec`: the server's event hooks, the client's
//! actions and builds), loading the agent rules directory (`agents::rules_dir`), dialing a
//! host's `phux proxy` and multiplexing channels over that link (`hosts::link`: the hub's
//! satellites, `attach` to a `[[remote]]` host), and fetching the pinned web terminal
//! (`web_bundle`: the listener's page, `rec -o x.html`).

#![warn(clippy::undocumented_unsafe_blocks)] // the engine binding and `sched_slice` use unsafe

pub mod agents;
pub mod atomic_file;
pub mod base64;
pub mod bounded_read;
pub mod config;
pub mod documents;
pub mod engine;
pub mod error_code;
pub mod error_doc;
pub mod exit_code;
pub mod hosts;
pub mod ids;
pub mod keys;
pub mod limits;
pub mod pane_layout;
pub mod plugin_exec;
pub mod process_end;
pub mod process_identity;
pub mod resolve;
pub mod sched_slice;
pub mod screen_capture;
pub mod selector;
pub mod socket_path;
pub mod split;
pub mod state_view;
pub mod web_bundle;
pub mod wire;
