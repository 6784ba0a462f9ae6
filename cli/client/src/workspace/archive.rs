//! `workspace save`: the server's sessions as an archive (schema 2): each window's panes with
//! their title, directory, command, size and focus, the split tree, and `agent_session` for
//! panes `phux launch` started. Reading an archive accepts schema 1 and 2.

use std::collections::HashMap;

use phux_core::documents::{
    AgentSession, ArchivedLayout, ArchivedPane, ArchivedSession, ArchivedWindow, WorkspaceArchive,
    WORKSPACE_ARCHIVE_SCHEMA_VERSION,
};
use phux_core::ids::PaneId;
use phux_core::pane_layout::LayoutNode;
use phux_core::state_view::{StateView, WindowView};
use phux_core::wire::{AgentPaneReport, ClientMessage, MetadataGet, MetadataOk};

use super::WorkspaceError;
use crate::{agents, Client};

/// The pane metadata key `phux launch` writes: `{plugin_id, integration_id, native_id}`.
pub const LAUNCH_METADATA_KEY: &str = "phux.launch/v1";

/// The archive of everything the server at `client` runs.
pub fn save(client: &mut Client) -> Result<WorkspaceArchive, WorkspaceError> {
    let state = client.state()?;
    let reports: HashMap<PaneId, AgentPaneReport> = agents::inspect(client, Vec::new())?
        .into_iter()
        .map(|r| (r.pane, r))
        .collect();
    let mut launched = HashMap::new();
    for pane in state.panes() {
        let ok: MetadataOk = client.request(ClientMessage::MetadataGet(MetadataGet {
            id: 0,
            pane: pane.id,
        }))?;
        if let Some(value) = ok.entries.get(LAUNCH_METADATA_KEY) {
            if let Ok(session) = serde_json::from_value::<AgentSession>(value.clone()) {
                launched.insert(pane.id, session);
            }
        }
    }
    let focused = state.focused();
    let sessions = state
        .sessions
        .iter()
        .map(|session| {
            let recent = state.focused_in(session.id);
            ArchivedSession {
                name: session.name.clone(),
                active: focused.is_some_and(|f| session.pane_ids().any(|p| p == f)),
                windows: session
                    .windows
                    .iter()
                    .map(|w| window(w, recent, &state, &reports, &launched))
                    .collect(),
            }
        })
        .collect();
    Ok(WorkspaceArchive {
        schema_version: WORKSPACE_ARCHIVE_SCHEMA_VERSION,
        sessions,
    })
}

fn window(
    w: &WindowView,
    session_recent: Option<PaneId>,
    state: &StateView,
    reports: &HashMap<PaneId, AgentPaneReport>,
    launched: &HashMap<PaneId, AgentSession>,
) -> ArchivedWindow {
    let window_recent = state
        .focus_order
        .iter()
        .copied()
        .find(|p| w.pane_ids().any(|q| q == *p));
    let index_of: HashMap<PaneId, usize> =
        w.panes.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    ArchivedWindow {
        name: w.name.clone(),
        active: session_recent.is_some_and(|r| w.pane_ids().any(|p| p == r)),
        panes: w
            .panes
            .iter()
            .map(|p| {
                let report = reports.get(&p.id);
                ArchivedPane {
                    active: window_recent == Some(p.id),
                    title: p.title.clone(),
                    cwd: report.and_then(|r| r.cwd.clone()),
                    command: report.and_then(foreground_command),
                    agent_session: launched.get(&p.id).cloned(),
                    cols: p.cols,
                    rows: p.rows,
                }
            })
            .collect(),
        layout: w.layout.as_ref().and_then(|l| layout(l, &index_of)),
    }
}

fn layout(node: &LayoutNode, index_of: &HashMap<PaneId, usize>) -> Option<ArchivedLayout> {
    Some(match node {
        LayoutNode::Pane { pane } => ArchivedLayout::Pane {
            pane: *index_of.get(pane)?,
        },
        LayoutNode::Split {
            split,
            ratio,
            first,
            second,
        } => ArchivedLayout::Split {
            split: *split,
            ratio: *ratio,
            first: Box::new(layout(first, index_of)?),
            second: Box::new(layout(second, index_of)?),
        },
    })
}

/// The argv of the pane's foreground program, or `None` when it is a shell (the default a
/// restore starts anyway) or cannot be read.
fn foreground_command(report: &AgentPaneReport) -> Option<Vec<String>> {
    let argv = report.foreground.clone()?;
    let program = argv.first()?;
    let name = std::path::Path::new(program.trim_start_matches('-'))
        .file_name()?
        .to_string_lossy()
        .into_owned();
    let shells = [
        "sh", "bash", "zsh", "fish", "dash", "ksh", "mksh", "tcsh", "csh", "nu", "elvish",
    ];
    if shells.contains(&name.as_str()) {
        return None;
    }
    Some(argv)
}

/// Reads an archive: JSON with `schema_version` 1 or 2.
pub fn parse(text: &str, source_name: &str) -> Result<WorkspaceArchive, WorkspaceError> {
    let error = |problem: String| WorkspaceError::Archive {
        source_name: source_name.to_string(),
        problem,
    };
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        error(format!(
            "not JSON (line {}, column {}): {e}",
            e.line(),
            e.column()
        ))
    })?;
    match value
        .get("schema_version")
        .and_then(serde_json::Value::as_u64)
    {
        Some(1 | 2) => {}
        Some(other) => {
            return Err(error(format!(
                "schema_version {other} is not one this phux reads (1 or 2)"
            )))
        }
        None => return Err(error("no schema_version: not a workspace archive".into())),
    }
    let archive: WorkspaceArchive = serde_json::from_value(value)
        .map_err(|e| error(format!("not a workspace archive: {e}")))?;
    // What would stop a restore halfway is refused before anything is created.
    for session in &archive.sessions {
        phux_core::limits::check_session_name(&session.name).map_err(|e| {
            error(format!(
                "session {:?} cannot be restored: {e}",
                session.name
            ))
        })?;
        if session.windows.iter().all(|w| w.panes.is_empty()) {
            return Err(error(format!(
                "session {:?} has no pane to restore",
                session.name
            )));
        }
    }
    Ok(archive)
}
