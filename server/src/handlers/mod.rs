//! Answers one request. Streaming requests (`subscribe`, `observe`) are set up here and then
//! served by the connection (see `connection.rs`).

pub mod lease;
pub mod lifecycle;
mod listen;
pub mod pane_ops;
mod spatial;
pub mod tui;

use crate::agents::handlers as agents;
use crate::request_error::RequestError;
use crate::shared::Shared;
use phux_core::wire::{ClientMessage, Done, StatusOk, PROTOCOL};
use serde::Serialize;
use serde_json::Value;
use std::sync::Arc;

fn json<T: Serialize>(value: Result<T, RequestError>) -> Result<Value, RequestError> {
    value.and_then(|v| {
        serde_json::to_value(v).map_err(|e| {
            RequestError::refused(
                phux_core::error_code::ErrorCode::JsonSerialize,
                e.to_string(),
                "report this bug",
            )
        })
    })
}

/// This server's own state: its sessions, the panes that ended and are still kept, the
/// questions panes ask, and the attached clients.
fn local_state(shared: &Shared) -> phux_core::state_view::StateView {
    let mut state = shared.tree().state_view();
    for session in &mut state.sessions {
        let placed = session.windows.iter_mut().flat_map(|w| w.panes.iter_mut());
        for pane in placed.chain(session.unplaced.iter_mut()) {
            pane.lease = shared.leases.view(pane.id);
        }
    }
    state.exited = shared.exited().views();
    state.asks = shared.agents.pending_asks();
    tui::fill_attached(shared, &mut state);
    state
}

/// Like [`dispatch`], for a request on `connection`: what a connection holds while it lasts
/// (a pane's `run` slot, an attached client's input lease) is answered here.
pub fn dispatch_on(
    shared: &Arc<Shared>,
    message: ClientMessage,
    connection: u64,
) -> Result<Value, RequestError> {
    use ClientMessage as M;
    match message {
        M::ClaimRun(m) => json(
            pane_ops::handle_for_read(shared, m.pane)
                .and_then(|_| shared.run_slots.claim(m.pane, connection, &m.command))
                .map(|()| Done {}),
        ),
        M::ReleaseRun(m) => {
            shared.run_slots.release(m.pane, connection);
            json(Ok(Done {}))
        }
        M::Lease(m) => {
            let answer = json(lease::lease(shared, &m, connection));
            crate::keeper::state_file::after_change(shared);
            answer
        }
        other => dispatch(shared, other),
    }
}

/// The `ok` payload for `message`, or why not.
pub fn dispatch(shared: &Arc<Shared>, message: ClientMessage) -> Result<Value, RequestError> {
    let lasting = changes_what_a_crash_keeps(&message);
    let answer = answer(shared, message);
    if lasting {
        crate::keeper::state_file::after_change(shared);
    }
    answer
}

/// Whether `message` may change what the state file keeps for a server after a crash (the
/// layout, names, tags, sizes, agent records, asks, leases).
fn changes_what_a_crash_keeps(message: &ClientMessage) -> bool {
    use ClientMessage as M;
    matches!(
        message,
        M::NewSession(_)
            | M::Spawn(_)
            | M::Kill(_)
            | M::KillWindow(_)
            | M::KillSession(_)
            | M::RenameSession(_)
            | M::Resize(_)
            | M::TagsAdd(_)
            | M::TagsRemove(_)
            | M::InsertPane(_)
            | M::MovePane(_)
            | M::SwapPane(_)
            | M::ReportAsked(_)
            | M::AskAnswered(_)
            | M::ClientResize(_)
            | M::SelectPane(_)
            | M::NewWindow(_)
            | M::RenameWindow(_)
            | M::SetSplitRatio(_)
            | M::MetadataSet(_)
            | M::AgentSet(_)
            | M::AgentClear(_)
            | M::AgentReportState(_)
            | M::Lease(_)
            | M::Listen(_)
    )
}

fn answer(shared: &Arc<Shared>, message: ClientMessage) -> Result<Value, RequestError> {
    use ClientMessage as M;
    match message {
        M::GetState(_) => {
            let mut state = local_state(shared);
            state.unreachable = shared.hub.unreachable();
            json(Ok(state))
        }
        M::GetFleet(_) => {
            let mut state = local_state(shared);
            crate::hub::fleet_state(&shared.hub, &mut state);
            json(Ok(state))
        }
        M::Status(_) => json(Ok(status(shared))),
        M::Listen(m) => json(listen::listen(shared, &m)),
        M::RemoteConnections(_) => json(Ok(phux_core::wire::RemoteConnectionsOk {
            connections: shared.remote.list(),
        })),
        M::RemoteDisconnect(m) => {
            let disconnected = shared.remote.disconnect(&m.credential_id);
            crate::log::line(&format!(
                "remote: the owner ended {disconnected} connection(s) of credential {}",
                m.credential_id
            ));
            json(Ok(phux_core::wire::RemoteDisconnectOk { disconnected }))
        }
        M::NewSession(m) => json(lifecycle::new_session(shared, m)),
        M::Spawn(m) => json(lifecycle::spawn(shared, m)),
        M::Kill(m) => json(lifecycle::kill_panes(shared, &m.panes)),
        M::KillWindow(m) => json(lifecycle::kill_window(shared, m.window)),
        M::KillSession(m) => json(lifecycle::kill_session(shared, &m.session)),
        M::Upgrade(_) => {
            // Returns only when the hand-off failed; otherwise this process is the new server.
            crate::handoff::upgrade(shared)?;
            json(Ok(Done {}))
        }
        M::KillServer(_) => {
            shared.shut_down();
            json(Ok(Done {}))
        }
        M::RenameSession(m) => json(lifecycle::rename_session(shared, &m.from, &m.to)),
        M::Resize(m) => json(pane_ops::resize(shared, &m)),
        M::Signal(m) => json(pane_ops::signal(shared, &m)),
        M::TagsGet(m) => json(pane_ops::tags(shared, &m, None)),
        M::TagsAdd(m) => json(pane_ops::tags(shared, &m, Some(true))),
        M::TagsRemove(m) => json(pane_ops::tags(shared, &m, Some(false))),
        M::Input(m) => json(pane_ops::input(shared, m)),
        M::Paste(m) => json(pane_ops::paste(shared, m)),
        M::GetScreen(m) => json(pane_ops::get_screen(shared, &m)),
        M::InsertPane(m) => json(spatial::insert_pane(shared, &m)),
        M::MovePane(m) => json(spatial::move_pane(shared, &m)),
        M::SwapPane(m) => json(spatial::swap_pane(shared, &m)),
        M::ReportAsked(m) => json(crate::streams::report_asked(shared, m)),
        M::AskAnswered(m) => json(crate::agents::handlers::ask_answered(shared, &m)),
        M::ShellState(m) => json(pane_ops::shell_state(shared, &m)),
        M::ClientResize(m) => json(tui::client_resize(shared, &m)),
        M::DetachClients(m) => json(tui::detach_clients(shared, &m)),
        M::SelectPane(m) => json(tui::select_pane(shared, &m)),
        M::NewWindow(m) => json(tui::new_window(shared, m)),
        M::RenameWindow(m) => json(tui::rename_window(shared, &m)),
        M::SetSplitRatio(m) => json(tui::set_split_ratio(shared, &m)),
        M::MetadataGet(m) => json(agents::metadata_get(shared, &m)),
        M::MetadataSet(m) => json(agents::metadata_set(shared, m)),
        M::AgentSet(m) => json(agents::agent_set(shared, m)),
        M::AgentClear(m) => json(agents::agent_clear(shared, &m)),
        M::AgentReportState(m) => json(agents::agent_report_state(shared, &m)),
        M::AgentInspect(m) => json(agents::agent_inspect(shared, &m)),
        M::Hello(_)
        | M::Subscribe(_)
        | M::Observe(_)
        | M::TapInput(_)
        | M::AttachClient(_)
        | M::Tunnel(_)
        | M::ClaimRun(_)
        | M::ReleaseRun(_)
        | M::Lease(_)
        | M::Unknown => Err(RequestError::UnknownRequest),
    }
}

fn status(shared: &Shared) -> StatusOk {
    StatusOk {
        pid: std::process::id(),
        socket: shared.config.socket.display().to_string(),
        since_unix_secs: shared.started_unix,
        protocol: PROTOCOL,
        clients: shared.client_count(),
        log: shared
            .config
            .log_path
            .as_ref()
            .map(|p| p.display().to_string()),
        listener: listen::current(shared),
    }
}
