//! The agent requests: the metadata store's get/set, the record's writers (`agent_set`,
//! `agent_clear`, `agent_report_state`) and `agent_inspect`. Every write announces its events
//! on the pane's bus (and so on the server-wide one) after the store's lock is released.

use phux_core::agents::{AgentRecord, StateSource};
use phux_core::documents::WatchEventKind;
use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;
use phux_core::wire::{self, AgentInspectOk, AgentPaneReport, AgentRecordOk, Done, MetadataOk};

use super::store::{put_record, AskClaim, PaneAgent};
use crate::pane::PaneCommand;
use crate::request_error::RequestError;
use crate::shared::Shared;

/// Longest metadata key, and the largest value (as JSON), a pane may hold.
const MAX_KEY_BYTES: usize = 256;
const MAX_VALUE_BYTES: usize = 64 * 1024;
/// Most keys one pane may hold.
const MAX_KEYS: usize = 256;

fn exists(shared: &Shared, pane: PaneId) -> Result<(), RequestError> {
    if shared.tree().panes.contains_key(&pane) {
        Ok(())
    } else {
        Err(RequestError::NoSuchTarget(pane.to_string()))
    }
}

/// Raises `events` on the pane's bus.
pub fn announce(shared: &Shared, pane: PaneId, events: Vec<WatchEventKind>) {
    let handle = shared.tree().panes.get(&pane).map(|e| e.handle.clone());
    if let Some(handle) = handle {
        for event in events {
            let _ = handle.send(PaneCommand::Announce(event));
        }
    }
}

fn write<T>(
    shared: &Shared,
    pane: PaneId,
    change: impl FnOnce(&mut PaneAgent) -> T,
) -> Result<T, RequestError> {
    exists(shared, pane)?;
    let (out, events) = shared.agents.update(pane, change);
    announce(shared, pane, events);
    Ok(out)
}

pub fn metadata_get(
    shared: &Shared,
    request: &wire::MetadataGet,
) -> Result<MetadataOk, RequestError> {
    exists(shared, request.pane)?;
    Ok(MetadataOk {
        pane: request.pane,
        entries: shared.agents.get(request.pane).metadata,
    })
}

pub fn metadata_set(shared: &Shared, request: wire::MetadataSet) -> Result<Done, RequestError> {
    let too_big = |what: String| {
        RequestError::refused(
            ErrorCode::InvalidArgument,
            what,
            "store less: keys up to 256 bytes, values up to 64 KiB, 256 keys per pane",
        )
    };
    if request.key.is_empty() || request.key.len() > MAX_KEY_BYTES {
        return Err(too_big(format!(
            "a metadata key is 1 to {MAX_KEY_BYTES} bytes"
        )));
    }
    let value = request.value.filter(|v| !v.is_null());
    if let Some(value) = &value {
        let len = serde_json::to_vec(value).map_or(usize::MAX, |v| v.len());
        if len > MAX_VALUE_BYTES {
            return Err(too_big(format!(
                "the value is {len} bytes; at most {MAX_VALUE_BYTES} are stored"
            )));
        }
    }
    let key = request.key;
    write(shared, request.pane, |entry| match value {
        Some(value) if entry.metadata.len() < MAX_KEYS || entry.metadata.contains_key(&key) => {
            entry.metadata.insert(key, value);
            Ok(())
        }
        Some(_) => Err(too_big(format!("the pane holds {MAX_KEYS} keys already"))),
        None => {
            entry.metadata.remove(&key);
            Ok(())
        }
    })??;
    Ok(Done {})
}

pub fn agent_set(shared: &Shared, request: wire::AgentSet) -> Result<AgentRecordOk, RequestError> {
    if request.name.trim().is_empty() {
        return Err(RequestError::refused(
            ErrorCode::InvalidAgentName,
            "the agent's name is empty",
            "pass --name NAME",
        ));
    }
    let record = write(shared, request.pane, |entry| {
        let old = entry.record();
        let kind = request
            .kind
            .clone()
            .or_else(|| old.as_ref().map(|r| r.kind.clone()))
            .or_else(|| entry.detection.as_ref().map(|d| d.kind.clone()))
            .unwrap_or_else(|| "declared".to_owned());
        let (state, state_source) = match request.state {
            Some(state) => (Some(state), Some(StateSource::Declared)),
            // Keep what the detector found; drop a previously declared state only when asked.
            None => match &old {
                Some(r) if r.state_source == Some(StateSource::Detector) => {
                    (r.state, r.state_source)
                }
                _ => (None, None),
            },
        };
        let record = AgentRecord {
            name: request.name.clone(),
            kind,
            state,
            attention: request.attention,
            session: request
                .session
                .clone()
                .or_else(|| old.and_then(|r| r.session)),
            declared: true,
            state_source,
        };
        if request.state.is_some() {
            entry.ask = entry.ask.take().filter(|a| a.from_title);
        }
        put_record(entry, Some(&record));
        record
    })?;
    Ok(AgentRecordOk {
        pane: request.pane,
        record: Some(record),
    })
}

/// `ask_answered`: the answerer claims the ask with this id before typing its answer. The claim
/// ends the ask whatever raised it (a title or a dialog still showing it is not raised again
/// until it goes away), so of two answers only the first is typed; the second is refused.
pub fn ask_answered(
    shared: &Shared,
    request: &wire::AskAnswered,
) -> Result<wire::Done, RequestError> {
    let claimed = write(shared, request.pane, |entry| {
        entry.claim_ask(&request.ask_id)
    })?;
    match claimed {
        AskClaim::Claimed => Ok(wire::Done {}),
        AskClaim::NoneActive => Err(RequestError::refused(
            ErrorCode::NoActiveAsk,
            format!(
                "{} is asking nothing (its ask {:?} was answered already); nothing was typed",
                request.pane, request.ask_id
            ),
            format!("see what the pane shows with `phux agent show {}`", request.pane),
        )),
        AskClaim::Other(current) => Err(RequestError::refused(
            ErrorCode::AskStale,
            format!(
                "the ask {:?} is no longer active on {}; it asks {current:?} now; nothing was typed",
                request.ask_id, request.pane
            ),
            format!(
                "answer the current ask: `phux agent answer {} --id {current} ...`",
                request.pane
            ),
        )),
    }
}

pub fn agent_clear(
    shared: &Shared,
    request: &wire::AgentClear,
) -> Result<AgentRecordOk, RequestError> {
    write(shared, request.pane, |entry| put_record(entry, None))?;
    Ok(AgentRecordOk {
        pane: request.pane,
        record: None,
    })
}

pub fn agent_report_state(
    shared: &Shared,
    request: &wire::AgentReportState,
) -> Result<AgentRecordOk, RequestError> {
    let record = write(shared, request.pane, |entry| {
        let mut record = entry.record().unwrap_or_else(|| {
            let (name, kind) = entry
                .detection
                .as_ref()
                .map_or(("agent".to_owned(), "declared".to_owned()), |d| {
                    (d.name.clone(), d.kind.clone())
                });
            AgentRecord {
                name,
                kind,
                state: None,
                attention: None,
                session: None,
                declared: true,
                state_source: None,
            }
        });
        record.state = Some(request.state);
        record.state_source = Some(StateSource::Declared);
        record.declared = true;
        entry.ask = entry.ask.take().filter(|a| a.from_title);
        put_record(entry, Some(&record));
        record
    })?;
    Ok(AgentRecordOk {
        pane: request.pane,
        record: Some(record),
    })
}

pub fn agent_inspect(
    shared: &Shared,
    request: &wire::AgentInspect,
) -> Result<AgentInspectOk, RequestError> {
    type Row = (
        PaneId,
        String,
        String,
        Option<String>,
        u32,
        Option<phux_core::wire::SemanticMarks>,
    );
    let rows: Vec<Row> = {
        let tree = shared.tree();
        if let Some(missing) = request.panes.iter().find(|p| !tree.panes.contains_key(p)) {
            return Err(RequestError::NoSuchTarget(missing.to_string()));
        }
        tree.panes
            .iter()
            .filter(|(id, _)| request.panes.is_empty() || request.panes.contains(id))
            .map(|(id, entry)| {
                let session = tree
                    .session_by_id(entry.session)
                    .map(|s| s.name.clone())
                    .unwrap_or_default();
                let window = tree
                    .session_by_id(entry.session)
                    .and_then(|s| s.windows.iter().find(|w| w.id == entry.window))
                    .map(|w| w.name.clone())
                    .unwrap_or_default();
                let semantic = entry.handle.shell().marks();
                (
                    *id,
                    session,
                    window,
                    entry.title.clone(),
                    entry.handle.pid,
                    semantic,
                )
            })
            .collect()
    };
    let panes = rows
        .into_iter()
        .map(|(pane, session, window, title, pid, semantic)| {
            let agent = shared.agents.get(pane);
            let (state, origin) = agent.effective();
            AgentPaneReport {
                pane,
                session,
                window,
                title,
                cwd: agent
                    .occupant
                    .as_ref()
                    .and_then(|o| read_cwd(o.pid))
                    .or_else(|| read_cwd(pid)),
                record: agent.record(),
                semantic,
                plugin_report: agent.plugin_report(),
                state,
                origin,
                ask: agent.ask.clone(),
                occupant: agent.occupant.clone(),
                detection: agent.detection.clone(),
                foreground: super::identity::foreground_argv(pid).map(|(_, argv)| argv),
            }
        })
        .collect();
    Ok(AgentInspectOk {
        panes,
        detection_off: !super::detection_enabled(),
    })
}

fn read_cwd(pid: u32) -> Option<String> {
    std::fs::read_link(format!("/proc/{pid}/cwd"))
        .ok()
        .map(|p| p.display().to_string())
}
