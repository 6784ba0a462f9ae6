//! `SessionListJson` v3: `phux ls --json` (§4.1).

use serde::{Deserialize, Serialize};

use crate::ids::TerminalAddr;

pub const LS_SCHEMA_VERSION: u32 = 3;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionEntry {
    pub name: String,
    /// The window count.
    pub windows: u32,
    /// `attached_clients > 0`, kept for consumers that branch on a bool.
    pub attached: bool,
    /// Absent from payloads of a phux older than the key.
    #[serde(default)]
    pub attached_clients: u32,
}

impl SessionEntry {
    pub fn new(name: impl Into<String>, windows: u32, attached_clients: u32) -> Self {
        SessionEntry {
            name: name.into(),
            windows,
            attached: attached_clients > 0,
            attached_clients,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionListJson {
    pub schema_version: u32,
    /// Sorted by name.
    pub sessions: Vec<SessionEntry>,
    /// Every addressable terminal in snapshot order.
    pub terminals: Vec<TerminalAddr>,
    /// Satellites that contributed nothing; always emitted, even empty. Non-empty means
    /// `sessions` and `terminals` are a lower bound.
    #[serde(default)]
    pub unreachable: Vec<String>,
    /// Panes whose program ended and that can still be read (`snapshot`, `wait`); absent when
    /// there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exited: Vec<crate::state_view::ExitedPaneView>,
    /// Panes whose input someone has taken (`phux take`); absent when none is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leases: Vec<crate::state_view::PaneLease>,
    /// Panes with no place in a window yet (`spawn --detached`; `insert-pane` places them);
    /// absent when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unplaced: Vec<crate::ids::TerminalAddr>,
}

impl SessionListJson {
    /// Builds the document, sorting sessions by name.
    pub fn new(
        mut sessions: Vec<SessionEntry>,
        terminals: Vec<TerminalAddr>,
        unreachable: Vec<String>,
    ) -> Self {
        sessions.sort_by(|a, b| a.name.cmp(&b.name));
        SessionListJson {
            schema_version: LS_SCHEMA_VERSION,
            sessions,
            terminals,
            unreachable,
            exited: Vec::new(),
            leases: Vec::new(),
            unplaced: Vec::new(),
        }
    }
}
