//! Agent supervision's pure half: the `phux.agent/v1` record, occupant identity from a process's
//! argv, and the detection manifests (their TOML grammar, load-time bounds, regions, predicates
//! and evaluation). The server runs them against live panes; `agent explain --file` runs them
//! against a captured screen. Nothing here does I/O.

pub mod builtin;
pub mod detect;
pub mod dialog;
pub mod identity;
pub mod manifest;
pub mod predicate;
pub mod record;
pub mod region;
pub mod rules_dir;
pub mod working_hint;

pub use detect::{evaluate, Evaluation, FallbackReason, RuleEvaluation, Screen};
pub use dialog::Dialog;
pub use manifest::{Manifest, ManifestError, ManifestSet, Rule};
pub use record::{
    AgentRecord, AgentState, Attention, PluginReport, StateSource, AGENT_KINDS, AGENT_RECORD_KEY,
    PLUGIN_REPORT_KEY,
};
