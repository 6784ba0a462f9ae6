//! Each pane's terminal snapshot for the manifest, taken early: once while the panes still run
//! (across the cores), and again under the freeze only for a pane whose terminal changed
//! since (its count of changes moved on). A quiet pane's history is then never encoded while
//! every pane's output goes unread; a busy pane's is encoded again, so the manifest holds
//! every terminal as it stands at the freeze, never an older one.

use std::collections::HashMap;

use phux_core::engine::EngineError;
use phux_core::ids::PaneId;

use super::in_parallel;
use crate::pane::{PaneHandle, TerminalSnapshot};

/// Every pane's snapshot now, taken while the panes run on (a pane that cannot be snapshotted
/// is left out: it is tried again under the freeze).
pub fn early(handles: Vec<PaneHandle>) -> HashMap<PaneId, TerminalSnapshot> {
    let taken = in_parallel::map(handles, |handle| (handle.id, handle.snapshot()));
    taken
        .into_iter()
        .filter_map(|(id, snapshot)| Some((id, snapshot.ok()?)))
        .collect()
}

/// Each pane's snapshot as its terminal stands (its readers stopped): the early one while its
/// count of changes stands, else a new one. Also says how many were taken again.
pub fn current(
    handles: Vec<PaneHandle>,
    mut early: HashMap<PaneId, TerminalSnapshot>,
) -> (Vec<Result<TerminalSnapshot, EngineError>>, usize) {
    let work: Vec<_> = handles
        .into_iter()
        .map(|handle| {
            let kept = early
                .remove(&handle.id)
                .filter(|snapshot| snapshot.changes == handle.changes());
            (handle, kept)
        })
        .collect();
    let retaken = work.iter().filter(|(_, kept)| kept.is_none()).count();
    let snapshots = in_parallel::map(work, |(handle, kept)| match kept {
        Some(snapshot) => Ok(snapshot),
        None => handle.snapshot(),
    });
    (snapshots, retaken)
}
