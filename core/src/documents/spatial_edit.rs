//! Spatial layout edits (`insert-pane`, `move-pane`, `swap-pane` `--json`, §4.12).

use serde::{Deserialize, Serialize};

use crate::documents::is_false;
use crate::ids::{PaneId, SessionId};
use crate::split::SplitDirection;

pub const SPATIAL_EDIT_SCHEMA_VERSION: u32 = 1;

/// One edit, tagged by `operation`. `session_id` names the destination session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "operation")]
pub enum SpatialEdit {
    #[serde(rename = "insert-pane")]
    Insert {
        session_id: SessionId,
        target_terminal_id: PaneId,
        new_terminal_id: PaneId,
        direction: SplitDirection,
        ratio: f64,
    },
    #[serde(rename = "move-pane")]
    Move {
        session_id: SessionId,
        source_terminal_id: PaneId,
        target_terminal_id: PaneId,
        direction: SplitDirection,
        ratio: f64,
        /// Present only on a cross-session move, together with `cross_session: true`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source_session_id: Option<SessionId>,
        #[serde(default, skip_serializing_if = "is_false")]
        cross_session: bool,
    },
    #[serde(rename = "swap-pane")]
    Swap {
        session_id: SessionId,
        first_terminal_id: PaneId,
        second_terminal_id: PaneId,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpatialEditJson {
    pub schema_version: u32,
    #[serde(flatten)]
    pub edit: SpatialEdit,
}

impl SpatialEditJson {
    pub fn new(edit: SpatialEdit) -> Self {
        SpatialEditJson {
            schema_version: SPATIAL_EDIT_SCHEMA_VERSION,
            edit,
        }
    }

    /// A move; `source_session` is `Some` exactly when the pane changed sessions, which also
    /// sets `cross_session`.
    pub fn moved(
        session_id: SessionId,
        source_terminal_id: PaneId,
        target_terminal_id: PaneId,
        direction: SplitDirection,
        ratio: f64,
        source_session: Option<SessionId>,
    ) -> Self {
        let cross_session = source_session.is_some_and(|s| s != session_id);
        SpatialEditJson::new(SpatialEdit::Move {
            session_id,
            source_terminal_id,
            target_terminal_id,
            direction,
            ratio,
            source_session_id: source_session.filter(|_| cross_session),
            cross_session,
        })
    }
}
