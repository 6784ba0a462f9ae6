//! Spatial layout edits: `insert_pane` and `move_pane` (take a pane out of its place and split
//! another pane's space with it; a move may cross sessions, keeping the process, its
//! scrollback and its id) and `swap_pane`.

use crate::request_error::RequestError;
use crate::session_tree::SessionTree;
use crate::shared::Shared;
use phux_core::documents::{SpatialEdit, SpatialEditJson};
use phux_core::error_code::ErrorCode;
use phux_core::ids::{PaneId, SessionId, WindowId};
use phux_core::split::{check_ratio, SplitDirection};
use phux_core::wire;

fn locate(tree: &SessionTree, pane: PaneId) -> Result<(SessionId, WindowId), RequestError> {
    tree.panes
        .get(&pane)
        .map(|e| (e.session, e.window))
        .ok_or_else(|| {
            RequestError::refused(
                ErrorCode::SelectorMiss,
                format!("no pane {pane}"),
                "list panes with `phux ls --json`",
            )
        })
}

/// §4.12: insert-pane and swap-pane act within one session; only move-pane crosses.
fn refuse_cross_session(
    a: (PaneId, SessionId),
    b: (PaneId, SessionId),
    remedy: &str,
) -> Result<(), RequestError> {
    if a.1 != b.1 {
        return Err(RequestError::refused(
            ErrorCode::CrossSession,
            format!("{} and {} are in different sessions", a.0, b.0),
            remedy,
        ));
    }
    Ok(())
}

/// Whether `pane` has a place in its window's layout.
fn placed(tree: &SessionTree, pane: PaneId, session: SessionId, window: WindowId) -> bool {
    tree.session_by_id(session)
        .and_then(|s| s.windows.iter().find(|w| w.id == window))
        .is_some_and(|w| w.layout.contains(pane))
}

fn refuse_same(a: PaneId, b: PaneId) -> Result<(), RequestError> {
    if a == b {
        return Err(RequestError::refused(
            ErrorCode::SamePane,
            format!("{a} cannot be placed relative to itself"),
            "name two different panes",
        ));
    }
    Ok(())
}

/// Moves `source` next to `target`; returns (destination session, source session).
fn relocate(
    tree: &mut SessionTree,
    source: PaneId,
    target: PaneId,
    split: SplitDirection,
    ratio: f64,
) -> Result<(SessionId, SessionId), RequestError> {
    refuse_same(source, target)?;
    let ratio = check_ratio(ratio).map_err(|e| {
        RequestError::refused(
            ErrorCode::InvalidRatio,
            e.to_string(),
            "use a ratio strictly between 0 and 1",
        )
    })?;
    let (from_session, from_window) = locate(tree, source)?;
    let (to_session, to_window) = locate(tree, target)?;
    tree.detach_from_layout(source, from_session, from_window);
    let inserted = tree
        .window_mut(to_session, to_window)
        .is_some_and(|w| w.layout.insert(target, source, split, ratio));
    if !inserted {
        return Err(RequestError::refused(
            ErrorCode::DestinationLayoutFailed,
            format!("{target}'s window could not take {source}"),
            "list panes with `phux ls --json` and retry",
        ));
    }
    if let Some(entry) = tree.panes.get_mut(&source) {
        entry.session = to_session;
        entry.window = to_window;
    }
    Ok((to_session, from_session))
}

pub fn insert_pane(
    shared: &Shared,
    request: &wire::InsertPane,
) -> Result<SpatialEditJson, RequestError> {
    let mut tree = shared.tree();
    let (source_session, source_window) = locate(&tree, request.new_pane)?;
    let (target_session, _) = locate(&tree, request.target)?;
    refuse_cross_session(
        (request.new_pane, source_session),
        (request.target, target_session),
        "use `phux move-pane` to move a pane across sessions",
    )?;
    // §4.12: insert-pane places a pane that has no place; one that is already placed is
    // refused, not silently moved (moving is move-pane's job, with its own document).
    if placed(&tree, request.new_pane, source_session, source_window) {
        return Err(RequestError::refused(
            ErrorCode::PaneAlreadyInLayout,
            format!("{} already has a place in the layout", request.new_pane),
            format!(
                "move it with `phux move-pane {} {}`",
                request.new_pane, request.target
            ),
        ));
    }
    let (session_id, _) = relocate(
        &mut tree,
        request.new_pane,
        request.target,
        request.split,
        request.ratio,
    )?;
    Ok(SpatialEditJson::new(SpatialEdit::Insert {
        session_id,
        target_terminal_id: request.target,
        new_terminal_id: request.new_pane,
        direction: request.split,
        ratio: request.ratio,
    }))
}

pub fn move_pane(
    shared: &Shared,
    request: &wire::MovePane,
) -> Result<SpatialEditJson, RequestError> {
    let mut tree = shared.tree();
    let (to, from) = relocate(
        &mut tree,
        request.source,
        request.target,
        request.split,
        request.ratio,
    )?;
    Ok(SpatialEditJson::moved(
        to,
        request.source,
        request.target,
        request.split,
        request.ratio,
        Some(from),
    ))
}

pub fn swap_pane(
    shared: &Shared,
    request: &wire::SwapPane,
) -> Result<SpatialEditJson, RequestError> {
    refuse_same(request.first, request.second)?;
    let mut tree = shared.tree();
    let (first_session, first_window) = locate(&tree, request.first)?;
    let (second_session, second_window) = locate(&tree, request.second)?;
    refuse_cross_session(
        (request.first, first_session),
        (request.second, second_session),
        "swap panes of one session; use `phux move-pane` to move a pane across sessions",
    )?;
    // Each layout swaps the ids it holds: one layout when both share a window, else each one
    // trades its pane for the other.
    for (session, window) in [
        (first_session, first_window),
        (second_session, second_window),
    ] {
        if let Some(window) = tree.window_mut(session, window) {
            window.layout.swap(request.first, request.second);
        }
        if first_window == second_window {
            break;
        }
    }
    for (pane, session, window) in [
        (request.first, second_session, second_window),
        (request.second, first_session, first_window),
    ] {
        if let Some(entry) = tree.panes.get_mut(&pane) {
            entry.session = session;
            entry.window = window;
        }
    }
    Ok(SpatialEditJson::new(SpatialEdit::Swap {
        session_id: first_session,
        first_terminal_id: request.first,
        second_terminal_id: request.second,
    }))
}
