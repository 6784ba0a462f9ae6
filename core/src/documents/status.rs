//! `phux status --json`: whether a server runs, and what it holds (printed even with no server).

use serde::{Deserialize, Serialize};

use crate::ids::TerminalAddr;

pub const STATUS_SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusProtocol {
    pub major: u32,
    pub minor: u32,
    pub patch: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusSession {
    pub name: String,
    pub windows: u32,
    pub attached_clients: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct StatusLogs {
    pub server: Option<String>,
    pub client_dir: Option<String>,
}

/// Every key is always present; what a stopped server cannot say is `null` or empty.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusJson {
    pub schema_version: u32,
    pub running: bool,
    pub pid: Option<u32>,
    pub socket: String,
    pub since_unix_secs: Option<u64>,
    pub protocol: Option<StatusProtocol>,
    pub clients: u32,
    pub sessions: Vec<StatusSession>,
    /// Terminals reached through satellites, as `host/@N`.
    pub satellite_terminals: Vec<TerminalAddr>,
    pub unreachable: Vec<String>,
    pub logs: StatusLogs,
    /// Panes whose program ended and that can still be read; absent when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exited: Vec<crate::state_view::ExitedPaneView>,
    /// Questions panes are asking that nobody has answered yet; absent when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub asks: Vec<crate::state_view::PendingAsk>,
    /// Panes whose input someone has taken (`phux take`); absent when none is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leases: Vec<crate::state_view::PaneLease>,
    /// Panes with no place in a window yet (`spawn --detached`; `insert-pane` places them);
    /// absent when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unplaced: Vec<crate::ids::TerminalAddr>,
    /// The remote listener the server runs (its bound address, certificate fingerprint and
    /// admitted connections); absent when it runs none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listener: Option<crate::wire::ListenerView>,
}

impl StatusJson {
    /// The document for a socket nothing answers on.
    pub fn not_running(socket: impl Into<String>, logs: StatusLogs) -> Self {
        StatusJson {
            schema_version: STATUS_SCHEMA_VERSION,
            running: false,
            pid: None,
            socket: socket.into(),
            since_unix_secs: None,
            protocol: None,
            clients: 0,
            sessions: Vec::new(),
            satellite_terminals: Vec::new(),
            unreachable: Vec::new(),
            logs,
            exited: Vec::new(),
            asks: Vec::new(),
            leases: Vec::new(),
            unplaced: Vec::new(),
            listener: None,
        }
    }
}
