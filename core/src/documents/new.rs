//! `phux new --json`: the created session and its seed pane (§4.4).

use serde::{Deserialize, Serialize};

use crate::ids::PaneId;

pub const NEW_SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewJson {
    pub schema_version: u32,
    pub session: String,
    pub terminal_id: PaneId,
}

impl NewJson {
    pub fn new(session: impl Into<String>, terminal_id: PaneId) -> Self {
        NewJson {
            schema_version: NEW_SCHEMA_VERSION,
            session: session.into(),
            terminal_id,
        }
    }
}
