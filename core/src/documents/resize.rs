//! `phux resize --json`: the size asked for and the size the server holds afterwards (§4.15).

use serde::{Deserialize, Serialize};

use crate::exit_code::{FAILURE, SUCCESS};
use crate::ids::PaneId;

pub const RESIZE_SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GridSize {
    pub cols: u16,
    pub rows: u16,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResizeJson {
    pub schema_version: u32,
    pub terminal_id: PaneId,
    pub requested: GridSize,
    /// Read back from the server, never echoed from the request.
    pub applied: GridSize,
    /// `applied == requested`; mirrors the exit code.
    pub held: bool,
    /// The satellite the pane runs on (`terminal_id` is its id there: `NAME/@N`); absent for
    /// the server's own panes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub satellite: Option<String>,
}

impl ResizeJson {
    pub fn new(terminal_id: PaneId, requested: GridSize, applied: GridSize) -> Self {
        ResizeJson {
            schema_version: RESIZE_SCHEMA_VERSION,
            terminal_id,
            requested,
            applied,
            held: requested == applied,
            satellite: None,
        }
    }

    /// 0 when the size held, 1 when the server holds another size (the document is printed
    /// either way).
    pub fn exit_code(&self) -> i32 {
        if self.held {
            SUCCESS
        } else {
            FAILURE
        }
    }
}
