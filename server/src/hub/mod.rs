//! The hub: this server dials every enabled `[[satellites]]` entry of the config file over ssh
//! (`ssh … HOST phux proxy`), keeps each link up with a capped backoff, and picks up registry
//! edits without a restart. Clients reach a satellite's server through a tunnel over its link
//! (`tunnel`); `get_fleet` merges the satellites' terminals into this server's state.
//!
//! Each link is an actor with a visible state (connecting → up → backing off), so listing
//! reads the state instead of probing a host that is down.

mod control;
mod fleet;
pub mod link;
mod roster;
pub mod tunnel;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use phux_core::error_code::ErrorCode;
use phux_core::wire::WireErrorBody;

pub use fleet::fleet_state;
pub use link::{Link, LinkState};

/// The links of this server, by satellite name.
#[derive(Debug, Default)]
pub struct Hub {
    links: Mutex<BTreeMap<String, Arc<Link>>>,
}

impl Hub {
    /// Starts watching the config file at `config` (when there is one) for satellites.
    pub fn start(config: Option<PathBuf>) -> Arc<Hub> {
        let hub = Arc::new(Hub::default());
        if let Some(path) = config {
            roster::watch(Arc::clone(&hub), path);
        }
        hub
    }

    pub(crate) fn links(&self) -> MutexGuard<'_, BTreeMap<String, Arc<Link>>> {
        self.links.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The link named `name`, if that satellite is configured.
    pub fn link(&self, name: &str) -> Option<Arc<Link>> {
        self.links().get(name).cloned()
    }

    /// One diagnostic per satellite whose link is not up, known from the links' states.
    pub fn unreachable(&self) -> Vec<String> {
        self.links()
            .values()
            .filter_map(|link| link.down_diagnostic())
            .collect()
    }

    /// A miss answered while a satellite is unreachable is a partial view, not an absence: the
    /// pane may live there (`partial_view`, whose message claims no absence).
    pub fn fleet_aware(&self, body: WireErrorBody) -> WireErrorBody {
        if body.code != ErrorCode::NoSuchTarget.as_str() {
            return body;
        }
        let unreachable = self.unreachable();
        if unreachable.is_empty() {
            return body;
        }
        let target = body
            .message
            .strip_prefix("no such target: ")
            .unwrap_or("the target");
        WireErrorBody::new(
            ErrorCode::PartialView,
            format!("cannot answer for {target}: {}", unreachable.join("; ")),
            "retry once the satellite is reachable; `phux ls --json` shows `unreachable`",
        )
    }

    /// Stops every link (the server is stopping).
    pub fn stop(&self) {
        for link in std::mem::take(&mut *self.links()).into_values() {
            link.stop();
        }
    }
}
