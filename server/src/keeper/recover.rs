//! A server starting where keepers wait takes every pane over: the same programs (same PIDs),
//! each screen rebuilt from its keep (the last snapshot, then the output and resizes after it),
//! in the sessions, windows and layouts the state file gives. A pane the state file does not
//! know (started in the last half second before the crash) comes back in a session of its own;
//! a pane the state file names whose keeper is gone is left out of the layout.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use phux_core::engine::{Terminal, TerminalOptions};
use phux_core::ids::{PaneId, SessionId, WindowId};

use super::keep::{self, KeptFrame};
use super::link::{self, Held};
use super::state_file;
use crate::handoff::manifest::{ExitedState, PaneState, SessionState, SplitTreeState};
use crate::session_tree::{Counters, PaneEntry, Session, SessionTree, Window};
use crate::shared::Shared;
use crate::split_tree::SplitTree;

/// What came back from the keepers and the state file.
#[derive(Debug, Default)]
pub struct Recovered {
    /// Panes taken over.
    pub panes: usize,
    /// The address the last server's remote listener bound (started by `phux listen` or
    /// `--ws-addr`): this server listens there again.
    pub listener: Option<String>,
}

/// Takes over the panes whose keepers wait for a server.
pub fn recover(shared: &Arc<Shared>) -> Recovered {
    let socket = shared.config.socket.clone();
    let stale_manifest = crate::handoff::manifest::path_for(&socket);
    if std::fs::remove_file(&stale_manifest).is_ok() {
        crate::log::line(&format!(
            "removed {}, left by a hand-off that did not finish",
            stale_manifest.display()
        ));
    }
    let held = waiting_panes(&link::directory(&socket));
    if held.is_empty() {
        return Recovered::default();
    }
    let state = state_file::read(&socket);
    let listener = state.as_ref().and_then(|s| s.listener.clone());
    let mut known: BTreeMap<PaneId, PaneState> = BTreeMap::new();
    let mut ended: BTreeMap<PaneId, ExitedState> = BTreeMap::new();
    let (mut sessions, mut counters) = (Vec::new(), Counters::default());
    if let Some(state) = state {
        known = state.panes.into_iter().map(|p| (p.id, p)).collect();
        ended = state.exited.into_iter().map(|e| (e.view.id, e)).collect();
        sessions = state.sessions;
        counters = state.counters;
    }
    // Panes the last server already kept as ended come back as ended panes, their keepers
    // kept as long as they are; the others run on (or end now, if they ended meanwhile).
    let (kept_ended, held): (Vec<Held>, Vec<Held>) = held
        .into_iter()
        .partition(|h| h.exited.is_some() && ended.contains_key(&h.pane));
    let highest_ended = kept_ended.iter().map(|h| h.pane.0).max().unwrap_or(0);
    for held in kept_ended {
        if let Some(state) = ended.remove(&held.pane) {
            keep_ended(shared, held, state);
        }
    }
    // Held until every pane is in it: a program that ended while no server ran ends its pane
    // at once, and that end must find the pane in the tree.
    let mut tree = shared.tree();
    let rebuilt = crate::handoff::in_parallel::map(held, |held| rebuild(held, shared));
    let mut entries = Vec::new();
    let mut orphans = Vec::new();
    for (held_id, handle, (cols, rows)) in rebuilt.into_iter().flatten() {
        match known.remove(&held_id) {
            Some(pane) => {
                shared.agents.restore(pane.id, pane.metadata, pane.ask);
                if let Some(lease) = pane.lease {
                    shared.leases.restore(pane.id, lease);
                }
                entries.push(PaneEntry {
                    handle,
                    session: pane.session,
                    window: pane.window,
                    tags: pane.tags,
                    title: pane.title,
                    cols,
                    rows,
                });
            }
            None => orphans.push((handle, cols, rows)),
        }
    }
    let present: HashSet<PaneId> = entries.iter().map(|e| e.handle.id).collect();
    let mut sessions: Vec<Session> = sessions
        .into_iter()
        .filter_map(|session| session_with(session, &present))
        .collect();
    for (handle, cols, rows) in orphans {
        counters.next_session += 1;
        counters.next_window += 1;
        let session = SessionId(counters.next_session);
        let window = WindowId(counters.next_window);
        let name = free_name(&sessions);
        sessions.push(Session {
            id: session,
            name,
            windows: vec![Window {
                id: window,
                index: 0,
                name: "recovered".into(),
                layout: SplitTree::Pane(handle.id),
            }],
        });
        entries.push(PaneEntry {
            handle,
            session,
            window,
            tags: Vec::new(),
            title: None,
            cols,
            rows,
        });
    }
    let highest = (entries.iter().map(|e| e.handle.id.0))
        .max()
        .unwrap_or(0)
        .max(highest_ended);
    counters.next_pane = counters.next_pane.max(highest);
    let all: HashSet<PaneId> = entries.iter().map(|e| e.handle.id).collect();
    counters.focus_order.retain(|id| all.contains(id));
    let count = entries.len();
    *tree = SessionTree::restore(sessions, entries, counters);
    drop(tree);
    crate::log::line(&format!(
        "recovered {count} panes from their keepers (the previous server ended without handing them over)"
    ));
    Recovered {
        panes: count,
        listener,
    }
}

/// An ended pane the last server kept: readable again for the rest of its time.
fn keep_ended(shared: &Shared, held: Held, state: ExitedState) {
    let id = held.pane;
    let terminal = match replay(&held) {
        Ok((terminal, mark)) => Some((terminal, mark)),
        Err(e) => {
            crate::log::line(&format!("ended pane {id} is not kept: {e}"));
            None
        }
    };
    let ended_at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(state.view.ended_at);
    let age = std::time::SystemTime::now()
        .duration_since(ended_at)
        .unwrap_or_default();
    held.link.park();
    if let Some((terminal, mark)) = terminal {
        let pane = crate::exited::ExitedPane::carried(state.view, terminal, mark, age);
        shared.exited().add(pane);
    } else {
        crate::keeper::release(id);
    }
}

/// Every keeper in `dir` that answers, taken over; the sockets of keepers gone are removed.
fn waiting_panes(dir: &std::path::Path) -> Vec<Held> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut held = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
            .is_none()
        {
            continue;
        }
        match link::adopt(&path) {
            Ok(pane) => held.push(pane),
            Err(e) => {
                crate::log::line(&format!("{} is not taken over: {e}", path.display()));
                if protocol_refused(&path) {
                    let _ = std::fs::remove_file(&path);
                }
            }
        }
    }
    held
}

/// Nobody listens at `path` any more (its keeper is gone).
fn protocol_refused(path: &std::path::Path) -> bool {
    matches!(
        super::protocol::connect(path),
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused
    )
}

/// The pane's terminal rebuilt from its keep, its threads started around it.
fn rebuild(
    held: Held,
    shared: &Arc<Shared>,
) -> Option<(PaneId, crate::pane::PaneHandle, (u16, u16))> {
    let id = held.pane;
    let blank = TerminalOptions::new(held.cols, held.rows, held.history_limit);
    let (terminal, mark) = match replay(&held) {
        Ok(rebuilt) => rebuilt,
        Err(e) => {
            crate::log::line(&format!("pane {id} comes back blank: {e}"));
            (Terminal::with_options(blank).ok()?, 0)
        }
    };
    let size = terminal.size();
    let window = crate::flight::CarriedWindow::default();
    let holder = crate::pane::Holder::Keeper(Box::new(held));
    match crate::pane::adopt(id, terminal, mark, holder, window, shared) {
        Ok(handle) => Some((id, handle, size)),
        Err(e) => {
            crate::log::line(&format!("pane {id} cannot be taken over: {e}"));
            None
        }
    }
}

/// The keep's snapshot (or a blank terminal of the pane's first size) with the output and
/// resizes after it, and the output mark it stands at.
fn replay(held: &Held) -> Result<(Terminal, u64), String> {
    let kept = keep::read(&held.files).map_err(|e| e.to_string())?;
    if kept.lost {
        crate::log::line(&format!(
            "pane {}: output after its last snapshot was overwritten; its screen is the snapshot's",
            held.pane
        ));
    }
    let (mut terminal, mut mark) = match kept.snapshot {
        Some((bytes, record)) => {
            let options = TerminalOptions::new(record.cols, record.rows, record.history_limit);
            let terminal = Terminal::restore(&bytes, options).map_err(|e| e.to_string())?;
            (terminal, record.output_mark)
        }
        None => {
            let options = TerminalOptions::new(held.cols, held.rows, held.history_limit);
            (
                Terminal::with_options(options).map_err(|e| e.to_string())?,
                0,
            )
        }
    };
    for frame in kept.output {
        match frame {
            KeptFrame::Output(bytes) => {
                terminal.write(&bytes);
                // The program had its answers from the server that read this the first time.
                let _ = terminal.take_replies();
                mark += bytes.len() as u64;
            }
            KeptFrame::Resize { cols, rows } => {
                terminal.resize(cols, rows).map_err(|e| e.to_string())?;
            }
        }
    }
    Ok((terminal, mark))
}

/// `session` with only the panes in `present`; none when none of its panes came back.
fn session_with(session: SessionState, present: &HashSet<PaneId>) -> Option<Session> {
    let windows: Vec<Window> = (session.windows.into_iter())
        .filter_map(|w| {
            Some(Window {
                id: w.id,
                index: w.index,
                name: w.name,
                layout: pruned(w.layout, present)?.into(),
            })
        })
        .collect();
    (!windows.is_empty()).then_some(Session {
        id: session.id,
        name: session.name,
        windows,
    })
}

/// A layout without the panes not in `present`: a split that loses one side becomes the other.
fn pruned(layout: SplitTreeState, present: &HashSet<PaneId>) -> Option<SplitTreeState> {
    match layout {
        SplitTreeState::Pane(id) => present.contains(&id).then_some(SplitTreeState::Pane(id)),
        SplitTreeState::Split {
            direction,
            ratio,
            first,
            second,
        } => match (pruned(*first, present), pruned(*second, present)) {
            (Some(first), Some(second)) => Some(SplitTreeState::Split {
                direction,
                ratio,
                first: Box::new(first),
                second: Box::new(second),
            }),
            (Some(one), None) | (None, Some(one)) => Some(one),
            (None, None) => None,
        },
    }
}

/// The lowest number no session is named.
fn free_name(sessions: &[Session]) -> String {
    (0..)
        .map(|n: u32| n.to_string())
        .find(|name| sessions.iter().all(|s| &s.name != name))
        .unwrap_or_else(|| "recovered".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use phux_core::split::SplitDirection;

    /// A split that loses a pane becomes its other side; one that loses both goes.
    #[test]
    fn a_layout_loses_the_panes_that_did_not_come_back() {
        let split = |a, b| SplitTreeState::Split {
            direction: SplitDirection::Horizontal,
            ratio: 0.5,
            first: Box::new(a),
            second: Box::new(b),
        };
        let layout = split(
            SplitTreeState::Pane(PaneId(1)),
            split(
                SplitTreeState::Pane(PaneId(2)),
                SplitTreeState::Pane(PaneId(3)),
            ),
        );
        let present: HashSet<PaneId> = [PaneId(1), PaneId(3)].into();
        let kept = pruned(layout, &present).expect("a layout");
        assert!(matches!(
            kept,
            SplitTreeState::Split { ref second, .. } if matches!(**second, SplitTreeState::Pane(PaneId(3)))
        ));
        assert!(pruned(SplitTreeState::Pane(PaneId(9)), &present).is_none());
    }
}
