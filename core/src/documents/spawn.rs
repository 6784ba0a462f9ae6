//! `phux spawn --json`: the spawned terminal (§4.11).

use serde::{Deserialize, Serialize};

use crate::ids::PaneId;

pub const SPAWN_SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpawnJson {
    pub schema_version: u32,
    pub terminal_id: PaneId,
    /// The satellite's registry name for a routed spawn; `null` for a local one.
    pub satellite: Option<String>,
}

impl SpawnJson {
    pub fn local(terminal_id: PaneId) -> Self {
        SpawnJson {
            schema_version: SPAWN_SCHEMA_VERSION,
            terminal_id,
            satellite: None,
        }
    }
}
