//! `workspace restore`: recreates the archived sessions that do not exist (fresh processes in
//! the saved directories, with the saved commands), rebuilding each window's split tree; an
//! existing session name is skipped. A launched agent is resumed only through the current
//! enabled integration of the same plugin, never from archived argv.

use std::path::Path;

use phux_core::documents::{
    ArchivedLayout, ArchivedPane, ArchivedSession, ArchivedWindow, WorkspaceArchive,
    WorkspaceRestoreJson, WORKSPACE_RESTORE_SCHEMA_VERSION,
};
use phux_core::ids::PaneId;
use phux_core::wire::{
    ClientMessage, Done, NewSession, NewSessionOk, NewWindow, SelectPane, Spawn, SpawnOk,
    SpawnTarget,
};

use super::WorkspaceError;
use crate::registry::integrations::{self, Available, Prepared};
use crate::verbs::launch;
use crate::Client;

/// Restores `archive` on the server at `client`.
pub fn restore(
    client: &mut Client,
    archive: &WorkspaceArchive,
    integrations: &[Available],
) -> Result<WorkspaceRestoreJson, WorkspaceError> {
    let state = client.state()?;
    let mut done = WorkspaceRestoreJson {
        schema_version: WORKSPACE_RESTORE_SCHEMA_VERSION,
        restored: Vec::new(),
        skipped_existing: Vec::new(),
    };
    let mut focus = Vec::new();
    for session in &archive.sessions {
        if state.session(&session.name).is_some() {
            done.skipped_existing.push(session.name.clone());
            continue;
        }
        if let Some(pane) = session_restore(client, session, integrations)? {
            focus.push((session.active, pane));
        }
        done.restored.push(session.name.clone());
    }
    // Each session's active pane regains its focus; the archive's active session last, so
    // it is the most recent one.
    focus.sort_by_key(|(active, _)| *active);
    for (_, pane) in focus {
        let _: Done = client.request(ClientMessage::SelectPane(SelectPane { id: 0, pane }))?;
    }
    Ok(done)
}

/// One session; returns the pane that was active in its active window.
fn session_restore(
    client: &mut Client,
    session: &ArchivedSession,
    integrations: &[Available],
) -> Result<Option<PaneId>, WorkspaceError> {
    let mut active = None;
    for (index, window) in session.windows.iter().enumerate() {
        let Some(seed_index) = first_leaf(window) else {
            continue;
        };
        let seed = &window.panes[seed_index];
        let restart = Restart::of(seed, integrations);
        let (cwd, command) = (restart.cwd.clone(), restart.command.clone());
        let (cols, rows) = (seed.cols, seed.rows);
        let seed_pane = if index == 0 {
            let ok: NewSessionOk = client.request(ClientMessage::NewSession(NewSession {
                id: 0,
                name: Some(session.name.clone()),
                cwd,
                env: Vec::new(),
                command,
                cols: Some(cols),
                rows: Some(rows),
                observe: false,
                history_limit: None,
            }))?;
            ok.pane
        } else {
            let ok: SpawnOk = client.request(ClientMessage::NewWindow(NewWindow {
                id: 0,
                session: session.name.clone(),
                cwd,
                command,
                cols: Some(cols),
                rows: Some(rows),
            }))?;
            ok.pane
        };
        restart.declare(client, seed_pane)?;
        let mut placed = vec![None; window.panes.len()];
        placed[seed_index] = Some(seed_pane);
        if let Some(layout) = &window.layout {
            build(client, layout, seed_pane, window, integrations, &mut placed)?;
        } else {
            // No tree (schema 1): the other panes stacked below the first.
            for (i, pane) in window
                .panes
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != seed_index)
            {
                placed[i] = Some(split(client, seed_pane, pane, 0.5, false, integrations)?);
            }
        }
        if window.active || active.is_none() {
            let chosen = window
                .panes
                .iter()
                .position(|p| p.active)
                .unwrap_or(seed_index);
            active = placed[chosen].or(active);
        }
    }
    Ok(active)
}

/// Splits `at` (the pane standing for the whole of `node`) until `node`'s shape is rebuilt.
fn build(
    client: &mut Client,
    node: &ArchivedLayout,
    at: PaneId,
    window: &ArchivedWindow,
    integrations: &[Available],
    placed: &mut [Option<PaneId>],
) -> Result<(), WorkspaceError> {
    let ArchivedLayout::Split {
        split: direction,
        ratio,
        first,
        second,
    } = node
    else {
        return Ok(());
    };
    let Some(second_leaf) = leftmost(second).filter(|&i| i < window.panes.len()) else {
        return Ok(());
    };
    // The server keeps `1 - ratio` for the pane split and gives `ratio` to the new one.
    let share = (1.0 - ratio).clamp(0.05, 0.95);
    let vertical = matches!(direction, phux_core::split::SplitDirection::Vertical);
    let new = split(
        client,
        at,
        &window.panes[second_leaf],
        share,
        vertical,
        integrations,
    )?;
    placed[second_leaf] = Some(new);
    build(client, first, at, window, integrations, placed)?;
    build(client, second, new, window, integrations, placed)
}

fn split(
    client: &mut Client,
    at: PaneId,
    pane: &ArchivedPane,
    share: f64,
    vertical: bool,
    integrations: &[Available],
) -> Result<PaneId, WorkspaceError> {
    let restart = Restart::of(pane, integrations);
    let (cwd, command) = (restart.cwd.clone(), restart.command.clone());
    let ok: SpawnOk = client.request(ClientMessage::Spawn(Spawn {
        id: 0,
        target: Some(SpawnTarget::Pane(at)),
        split: if vertical {
            phux_core::split::SplitDirection::Vertical
        } else {
            phux_core::split::SplitDirection::Horizontal
        },
        ratio: share,
        cwd,
        command,
        env: Vec::new(),
        // Each pane comes back at its saved size (the layout resizes it once a client attaches).
        cols: Some(pane.cols),
        rows: Some(pane.rows),
        detached: true,
        unplaced: false,
    }))?;
    restart.declare(client, ok.pane)?;
    Ok(ok.pane)
}

/// How a restored pane starts: the directory (when it still exists), the argv, and for a
/// launched agent the integration it resumes through.
struct Restart {
    cwd: Option<String>,
    command: Option<Vec<String>>,
    resumed: Option<Prepared>,
}

impl Restart {
    /// A launched agent resumes through the current integration; the archived argv is not
    /// used for it.
    fn of(pane: &ArchivedPane, available: &[Available]) -> Self {
        let cwd = pane.cwd.clone().filter(|c| Path::new(c).is_dir());
        let Some(agent) = &pane.agent_session else {
            let command = pane.command.clone().filter(|c| !c.is_empty());
            return Restart {
                cwd,
                command,
                resumed: None,
            };
        };
        let resumed = integrations::find(available, &agent.integration_id, Some(&agent.plugin_id))
            .ok()
            .map(|a| {
                let dir = cwd
                    .as_deref()
                    .map_or_else(|| Path::new("/").to_path_buf(), Into::into);
                a.prepare(&dir, agent.native_id.as_deref())
            });
        Restart {
            cwd,
            command: resumed.as_ref().map(|p| p.argv.clone()),
            resumed,
        }
    }

    /// A resumed agent's pane gets the record and launch provenance `launch` gives, so the
    /// next `workspace save` archives it again.
    fn declare(&self, client: &mut Client, pane: PaneId) -> Result<(), WorkspaceError> {
        if let Some(prepared) = &self.resumed {
            launch::declare(client, pane, prepared)?;
        }
        Ok(())
    }
}

fn first_leaf(window: &ArchivedWindow) -> Option<usize> {
    if window.panes.is_empty() {
        return None;
    }
    Some(
        window
            .layout
            .as_ref()
            .and_then(leftmost)
            .filter(|&i| i < window.panes.len())
            .unwrap_or(0),
    )
}

fn leftmost(node: &ArchivedLayout) -> Option<usize> {
    match node {
        ArchivedLayout::Pane { pane } => Some(*pane),
        ArchivedLayout::Split { first, .. } => leftmost(first),
    }
}
