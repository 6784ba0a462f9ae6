//! Agent supervision on the server: each pane's metadata (a key → JSON value store with a
//! `metadata` event per write) and the `phux.agent/v1` record on it, the pane's occupant from its
//! foreground process, and the detector that runs the manifests on the pane's own
//! screen-changed and settled edges. Nothing runs for a pane whose occupant has no manifest
//! beyond a look at `/proc` on the pane's dirty/idle edges.

pub mod handlers;
pub mod identity;
pub use phux_core::agents::rules_dir;
mod store;
mod supervisor;

pub use store::AgentStore;
pub use supervisor::supervise;

use phux_core::agents::ManifestSet;

/// `PHUX_AGENT_DETECT=0` turns detection off.
pub fn detection_enabled() -> bool {
    std::env::var("PHUX_AGENT_DETECT").map_or(true, |v| v != "0")
}

/// The manifests the server detects with: the built-ins and the rules directory. A file that
/// does not load is logged and skipped whole.
pub fn load_manifests() -> ManifestSet {
    let (set, errors) = rules_dir::load();
    for error in errors {
        crate::log::line(&format!("agent rules: {error}"));
    }
    set
}
