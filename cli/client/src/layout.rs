//! Spatial layout edits: `insert-pane`, `move-pane`, `swap-pane`. Each checks its arguments
//! here first (ratio, exactly one local pane per selector, two different panes), so a refusal
//! is exit 2 with nothing sent, and returns the server's `SpatialEditJson`.

use phux_core::documents::SpatialEditJson;
use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;
use phux_core::selector::Selector;
use phux_core::split::{check_ratio, SplitDirection};
use phux_core::wire::{ClientMessage, InsertPane, MovePane, SwapPane};

use crate::connection::Client;
use crate::error::ClientError;
use crate::target::single_local_pane;

/// Which edit, with its two selectors (in the verb's argument order).
#[derive(Debug, Clone, PartialEq)]
pub enum SpatialRequest {
    /// Put the (detached or elsewhere) `new_pane` next to `target`.
    Insert {
        target: Selector,
        new_pane: Selector,
        split: SplitDirection,
        ratio: f64,
    },
    /// Move `source` next to `target`, possibly across sessions.
    Move {
        source: Selector,
        target: Selector,
        split: SplitDirection,
        ratio: f64,
    },
    /// Exchange the places of two panes.
    Swap { first: Selector, second: Selector },
}

impl SpatialRequest {
    /// The checks that need no server: the ratio.
    pub fn check_offline(&self) -> Result<(), ClientError> {
        match self {
            SpatialRequest::Insert { ratio, .. } | SpatialRequest::Move { ratio, .. } => {
                check_ratio(*ratio)?;
                Ok(())
            }
            SpatialRequest::Swap { .. } => Ok(()),
        }
    }
}

/// Runs one edit: offline checks, `get_state`, each selector to exactly one local pane, the
/// two panes different, then the edit request.
pub fn edit(client: &mut Client, request: SpatialRequest) -> Result<SpatialEditJson, ClientError> {
    request.check_offline()?;
    let state = client.state()?;
    let (roles, (a, b)) = match &request {
        SpatialRequest::Insert {
            target, new_pane, ..
        } => (("TARGET", "NEW_PANE"), (target, new_pane)),
        SpatialRequest::Move { source, target, .. } => (("SOURCE", "TARGET"), (source, target)),
        SpatialRequest::Swap { first, second } => (("FIRST", "SECOND"), (first, second)),
    };
    let first = single_local_pane(a, &state, roles.0)?;
    let second = single_local_pane(b, &state, roles.1)?;
    if first == second {
        return Err(same_pane(roles, first));
    }
    let message = match request {
        SpatialRequest::Insert { split, ratio, .. } => ClientMessage::InsertPane(InsertPane {
            id: 0,
            target: first,
            new_pane: second,
            split,
            ratio,
        }),
        SpatialRequest::Move { split, ratio, .. } => ClientMessage::MovePane(MovePane {
            id: 0,
            source: first,
            target: second,
            split,
            ratio,
        }),
        SpatialRequest::Swap { .. } => ClientMessage::SwapPane(SwapPane {
            id: 0,
            first,
            second,
        }),
    };
    client.request(message)
}

fn same_pane(roles: (&str, &str), pane: PaneId) -> ClientError {
    ClientError::preflight(
        ErrorCode::SamePane,
        format!("{} and {} are the same pane ({pane})", roles.0, roles.1),
        "name two different panes, e.g. from `phux ls --json`",
    )
}
