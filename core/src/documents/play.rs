//! `phux play --json`: the pane created to play a recording (§4.16).

use serde::{Deserialize, Serialize};

use crate::ids::PaneId;

pub const PLAY_SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlayJson {
    pub schema_version: u32,
    pub terminal_id: PaneId,
    /// Absolute: the pane's process resolves it from the daemon's working directory.
    pub path: String,
    pub cols: u16,
    pub rows: u16,
    pub events: u64,
    pub speed: f64,
    /// The idle clamp applied, in seconds; `null` when none.
    pub idle_limit: Option<f64>,
    /// Playback time at this speed after the clamp, every pass counted; `null` when the
    /// recording repeats until the pane is killed (there is no end to wait for).
    pub duration_ms: Option<u64>,
    /// Times the recording plays; `null` repeats until the pane is killed.
    pub passes: Option<u32>,
    /// The satellite the pane runs on (`terminal_id` is its id there: `NAME/@N`); absent for
    /// the server's own panes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub satellite: Option<String>,
}
