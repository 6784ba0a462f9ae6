//! Agent records and what the server knows about each pane's agent: `agent list/show` read it
//! (`agent_inspect`), `agent set/clear/report-state` write the `phux.agent/v1` record.

use phux_core::agents::{AgentRecord, AgentState, Attention};
use phux_core::documents::{AgentEntry, AgentStateJson};
use phux_core::ids::PaneId;
use phux_core::wire::{
    AgentClear, AgentInspect, AgentInspectOk, AgentPaneReport, AgentRecordOk, AgentReportState,
    AgentSet, ClientMessage, MetadataSet,
};

use crate::connection::Client;
use crate::error::ClientError;

/// What the server knows about `panes` (every pane when empty).
pub fn inspect(
    client: &mut Client,
    panes: Vec<PaneId>,
) -> Result<Vec<AgentPaneReport>, ClientError> {
    Ok(inspect_server(client, panes)?.panes)
}

/// The reports of `panes` (every pane when empty), and whether the server detects at all.
pub fn inspect_server(
    client: &mut Client,
    panes: Vec<PaneId>,
) -> Result<AgentInspectOk, ClientError> {
    client.request(ClientMessage::AgentInspect(AgentInspect { id: 0, panes }))
}

/// Whether a pane has anything agent-like to list: a record, an ask, or a detected agent.
pub fn has_agent(report: &AgentPaneReport) -> bool {
    report.record.is_some() || report.ask.is_some() || report.detection.is_some()
}

/// `agent list`: every pane with an agent.
pub fn list(client: &mut Client) -> Result<AgentStateJson, ClientError> {
    let reports = inspect(client, Vec::new())?;
    Ok(AgentStateJson::new(
        reports
            .iter()
            .filter(|r| has_agent(r))
            .map(AgentEntry::from_report)
            .collect(),
    ))
}

/// `agent show`: the named panes, agent or not.
pub fn show(client: &mut Client, panes: Vec<PaneId>) -> Result<AgentStateJson, ClientError> {
    let reports = inspect(client, panes)?;
    Ok(AgentStateJson::new(
        reports.iter().map(AgentEntry::from_report).collect(),
    ))
}

/// What `agent set` declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declaration {
    pub name: String,
    pub kind: Option<String>,
    pub state: Option<AgentState>,
    pub attention: Option<Attention>,
    pub session: Option<String>,
}

pub fn set(
    client: &mut Client,
    pane: PaneId,
    d: Declaration,
) -> Result<Option<AgentRecord>, ClientError> {
    let ok: AgentRecordOk = client.request(ClientMessage::AgentSet(AgentSet {
        id: 0,
        pane,
        name: d.name,
        kind: d.kind,
        state: d.state,
        attention: d.attention,
        session: d.session,
    }))?;
    Ok(ok.record)
}

pub fn clear(client: &mut Client, pane: PaneId) -> Result<(), ClientError> {
    let _: AgentRecordOk = client.request(ClientMessage::AgentClear(AgentClear { id: 0, pane }))?;
    Ok(())
}

pub fn report_state(
    client: &mut Client,
    pane: PaneId,
    state: AgentState,
) -> Result<Option<AgentRecord>, ClientError> {
    let ok: AgentRecordOk = client.request(ClientMessage::AgentReportState(AgentReportState {
        id: 0,
        pane,
        state,
    }))?;
    Ok(ok.record)
}

/// The occupant check of the agent input verbs, before a byte is written: the pane must hold
/// a record (`no_agent_record`), and it must be the agent and kind the caller named
/// (`agent_mismatch`). Returns the pane's report and whether a check ran.
pub fn verify_occupant(
    client: &mut Client,
    pane: PaneId,
    expect_agent: Option<&str>,
    expect_kind: Option<&str>,
) -> Result<(AgentPaneReport, AgentRecord, bool), ClientError> {
    use phux_core::error_code::ErrorCode;
    let report = inspect(client, vec![pane])?
        .into_iter()
        .next()
        .ok_or_else(|| ClientError::Preflight {
            code: ErrorCode::NoSuchTarget,
            message: format!("no such target: {pane}"),
            remedy: "list what exists with `phux ls --json`".into(),
        })?;
    let Some(record) = report.record.clone() else {
        return Err(ClientError::Preflight {
            code: ErrorCode::NoAgentRecord,
            message: format!("{pane} has no phux.agent/v1 record, so there is no identity to verify; nothing was written"),
            remedy: format!("declare one with `phux agent set {pane} --name NAME`, or use `phux send-keys`"),
        });
    };
    let wrong = |what: &str, wanted: &str, found: &str| ClientError::Preflight {
        code: ErrorCode::AgentMismatch,
        message: format!(
            "{pane} hosts {} ({}), not the {what} {wanted:?}; nothing was written",
            record.name, record.kind
        ),
        remedy: format!(
            "check which pane holds it with `phux agent list` (this one's {what} is {found:?})"
        ),
    };
    if let Some(name) = expect_agent.filter(|n| *n != record.name) {
        return Err(wrong("agent", name, &record.name));
    }
    if let Some(kind) = expect_kind.filter(|k| *k != record.kind) {
        return Err(wrong("kind", kind, &record.kind));
    }
    let verified = expect_agent.is_some() || expect_kind.is_some();
    Ok((report, record, verified))
}

/// Writes `value` under `key` in the pane's metadata (`None` deletes it).
pub fn set_metadata(
    client: &mut Client,
    pane: PaneId,
    key: &str,
    value: Option<serde_json::Value>,
) -> Result<(), ClientError> {
    let _: serde_json::Value = client.request(ClientMessage::MetadataSet(MetadataSet {
        id: 0,
        pane,
        key: key.into(),
        value,
    }))?;
    Ok(())
}
