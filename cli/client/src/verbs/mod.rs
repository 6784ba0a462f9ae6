//! Each verb's operation whose work is more than one client call: a plain function over the
//! verb's options that returns what its `--json` prints (the MCP tool's result too). A verb
//! whose work is one call uses the modules above (`listing`, `lifecycle`, `pane`, ...)
//! directly. `table` lists every verb, with what an MCP host gets for it.

pub mod agent;
pub mod doctor;
pub mod doctor_web;
pub mod font;
pub mod launch;
pub mod listen;
pub mod logs;
pub mod new;
pub mod paste;
pub mod play;
pub mod playback;
pub mod plugin_action;
pub mod rec;
pub mod rename;
pub mod run;
pub mod send_keys;
pub mod snapshot;
pub mod table;
pub mod wait;
pub mod wait_json;
pub mod watch;
pub mod workspace_restore;
pub mod workspace_save;
