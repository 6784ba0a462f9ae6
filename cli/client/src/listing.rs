//! Read-only overviews: the session list (`ls`) and the server's status (`status`).

use std::path::Path;

use phux_core::documents::status::STATUS_SCHEMA_VERSION;
use phux_core::documents::{
    SessionEntry, SessionListJson, StatusJson, StatusLogs, StatusProtocol, StatusSession,
};
use phux_core::ids::TerminalAddr;
use phux_core::state_view::StateView;
use phux_core::wire::{ClientMessage, IdOnly, StatusOk};

use crate::connection::Client;
use crate::error::ClientError;

/// `SessionListJson` v3 of a state: sessions by name, every pane as a terminal in snapshot
/// order, and the unreachable satellites (always present, even empty).
pub fn session_list(state: &StateView) -> SessionListJson {
    let sessions = state
        .sessions
        .iter()
        .map(|s| SessionEntry::new(s.name.clone(), count(s.windows.len()), s.attached_clients))
        .collect();
    let terminals = state
        .panes()
        .map(|p| TerminalAddr::local(p.id))
        .chain(satellite_terminals(state))
        .collect();
    let mut listing = SessionListJson::new(sessions, terminals, state.unreachable.clone());
    listing.exited = state.exited.clone();
    listing.leases = state.leases();
    listing.unplaced = state.unplaced();
    listing
}

/// Every satellite pane of a merged view, as `NAME/@N`, satellite by satellite.
pub fn satellite_terminals(state: &StateView) -> impl Iterator<Item = TerminalAddr> + '_ {
    state.satellites.iter().flat_map(|s| {
        s.terminals
            .iter()
            .map(|&pane| TerminalAddr::remote(s.name.clone(), pane))
    })
}

/// `ls`: one `get_fleet` (the hub's state with its satellites' terminals merged in).
pub fn list(client: &mut Client) -> Result<SessionListJson, ClientError> {
    Ok(session_list(&client.fleet()?))
}

/// `status`: the not-running document when nothing listens at `socket` (never an error), else
/// `status` plus `get_state` on one connection.
pub fn status(socket: &Path) -> Result<StatusJson, ClientError> {
    let mut client = match Client::connect(socket) {
        Ok(client) => client,
        Err(ClientError::NoServer { .. }) => {
            return Ok(StatusJson::not_running(
                socket.display().to_string(),
                StatusLogs::default(),
            ))
        }
        Err(other) => return Err(other),
    };
    let facts: StatusOk = client.request(ClientMessage::Status(IdOnly { id: 0 }))?;
    let state = client.fleet()?;
    Ok(running_status(facts, &state))
}

/// The running document from the server's own facts and its state.
pub fn running_status(facts: StatusOk, state: &StateView) -> StatusJson {
    let sessions = state
        .sessions
        .iter()
        .map(|s| StatusSession {
            name: s.name.clone(),
            windows: count(s.windows.len()),
            attached_clients: s.attached_clients,
        })
        .collect();
    // Client logs live beside the server's; the wire has no patch level, so it is 0.
    let client_dir = facts
        .log
        .as_deref()
        .and_then(|log| Path::new(log).parent().map(|dir| dir.display().to_string()));
    StatusJson {
        schema_version: STATUS_SCHEMA_VERSION,
        running: true,
        pid: Some(facts.pid),
        socket: facts.socket,
        since_unix_secs: Some(facts.since_unix_secs),
        protocol: Some(StatusProtocol {
            major: facts.protocol.major,
            minor: facts.protocol.minor,
            patch: 0,
        }),
        clients: facts.clients,
        sessions,
        satellite_terminals: satellite_terminals(state).collect(),
        unreachable: state.unreachable.clone(),
        logs: StatusLogs {
            server: facts.log,
            client_dir,
        },
        exited: state.exited.clone(),
        asks: state.asks.clone(),
        leases: state.leases(),
        unplaced: state.unplaced(),
        listener: facts.listener,
    }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
