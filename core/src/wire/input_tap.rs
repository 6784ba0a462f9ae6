//! `tap_input`: a stream of what clients type into one pane (keystrokes as the bytes the pane
//! was sent, pastes as their text), for `phux tape record`. Only the owner's local connections
//! may ask for it: what a person types may be a secret, so no remote credential ever sees it.

use serde::{Deserialize, Serialize};

use crate::ids::PaneId;

/// Turns the connection into a stream of the pane's input: answered with [`TapInputStart`],
/// then an [`InputTapped`] for each write to the pane (by any client: the TUI, `attach`,
/// `send-keys`, `paste`, MCP, the page), and the pane's `pane_closed` event when it ends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TapInput {
    pub id: u64,
    pub pane: PaneId,
}

/// The `ok` payload of `tap_input`: the pane's grid and the server's monotonic time when the
/// tap began (what `InputTapped::t_ns` is measured against).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TapInputStart {
    pub pane: PaneId,
    pub cols: u16,
    pub rows: u16,
    pub now_ns: u64,
}

/// One write to the tapped pane: typed `bytes` as the pane was sent them, or (for a paste) the
/// pasted `text` as the client gave it, before any bracketing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputTapped {
    pub pane: PaneId,
    /// Monotonic server time of the write, in nanoseconds.
    pub t_ns: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bytes: Vec<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paste: Option<String>,
}
