//! The agent documents of §4.7: `AgentStateJson` (`agent list/show/explain --json`), its
//! projection from what the server reports about a pane, `AgentWaitJson` and
//! `AgentExplainJson` (the offline explainer).

use serde::{Deserialize, Serialize};

use crate::agents::{AgentState, Attention, Evaluation};
use crate::ids::TerminalAddr;
use crate::wire::{AgentPaneReport, StateOrigin};

pub const AGENT_STATE_SCHEMA_VERSION: u32 = 1;

/// Confidence of each kind of evidence.
const DECLARED_CONFIDENCE: f64 = 1.0;
const ASK_CONFIDENCE: f64 = 0.95;
const RULE_CONFIDENCE: f64 = 0.9;
const PLUGIN_CONFIDENCE: f64 = 0.85;
const VISIBLE_IDLE_CONFIDENCE: f64 = 0.8;
const FROZEN_CONFIDENCE: f64 = 0.6;
const SEMANTIC_CONFIDENCE: f64 = 0.5;
const FAIL_SAFE_CONFIDENCE: f64 = 0.4;
const IDENTITY_CONFIDENCE: f64 = 0.3;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentStateJson {
    pub schema_version: u32,
    pub agents: Vec<AgentEntry>,
}

impl AgentStateJson {
    pub fn new(agents: Vec<AgentEntry>) -> Self {
        AgentStateJson {
            schema_version: AGENT_STATE_SCHEMA_VERSION,
            agents,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentIdentity {
    pub id: String,
    pub label: String,
    pub kind: String,
}

/// One piece of evidence, in the order of confidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentSource {
    pub kind: String,
    pub signal: String,
    pub confidence: f64,
    pub observed: String,
}

/// One pane's agent, as phux believes it to be.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentEntry {
    pub terminal: TerminalAddr,
    pub session: String,
    pub window: String,
    pub agent: AgentIdentity,
    pub state: AgentState,
    pub confidence: f64,
    pub attention: Attention,
    pub title: Option<String>,
    pub cwd: Option<String>,
    pub sources: Vec<AgentSource>,
    pub explanation: String,
}

fn source(kind: &str, signal: String, confidence: f64, observed: String) -> AgentSource {
    AgentSource {
        kind: kind.to_owned(),
        signal,
        confidence,
        observed,
    }
}

/// An id made of the name: lowercase, spaces as dashes.
fn slug(name: &str) -> String {
    name.trim().to_lowercase().replace(char::is_whitespace, "-")
}

impl AgentEntry {
    /// Projects the server's report about a pane into the contract's entry.
    pub fn from_report(report: &AgentPaneReport) -> AgentEntry {
        let agent = identity(report);
        let state = report.state.unwrap_or(AgentState::Unknown);
        let mut sources = Vec::new();
        if let Some(record) = report.record.as_ref().filter(|r| r.declared) {
            let observed = match record.state.filter(|_| record.state_is_declared()) {
                Some(state) => state.to_string(),
                None => format!("{} (no state declared)", record.name),
            };
            let confidence = if record.state_is_declared() {
                DECLARED_CONFIDENCE
            } else {
                IDENTITY_CONFIDENCE
            };
            sources.push(source(
                "agent_record",
                "phux.agent/v1 record".into(),
                confidence,
                observed,
            ));
        }
        // A dialog read on the screen is the screen source's own evidence, listed below.
        if let Some(ask) = report.ask.as_ref().filter(|a| !a.from_screen) {
            let (kind, signal, observed) = if ask.from_title {
                (
                    StateOrigin::TitleAsk,
                    "phux-ask title sentinel",
                    report.title.clone().unwrap_or_default(),
                )
            } else {
                (
                    StateOrigin::ReportedAsk,
                    "phux ask report",
                    ask.question.clone(),
                )
            };
            sources.push(source(
                kind.as_str(),
                signal.into(),
                ASK_CONFIDENCE,
                observed,
            ));
        }
        if let Some(detection) = &report.detection {
            let (signal, confidence) = match (&detection.matched_rule, detection.fallback_reason) {
                (Some(rule), Some(_)) => (
                    format!("{} manifest, freeze rule {rule}", detection.kind),
                    FROZEN_CONFIDENCE,
                ),
                (Some(rule), None) if detection.visible_idle => (
                    format!("{} manifest, rule {rule}", detection.kind),
                    VISIBLE_IDLE_CONFIDENCE,
                ),
                (Some(rule), None) => (
                    format!("{} manifest, rule {rule}", detection.kind),
                    RULE_CONFIDENCE,
                ),
                (None, Some(crate::agents::FallbackReason::WorkingIndicator)) => (
                    format!(
                        "{} manifest, no rule matched beside a working-looking row (fail-safe working)",
                        detection.kind
                    ),
                    FAIL_SAFE_CONFIDENCE,
                ),
                (None, _) => (
                    format!(
                        "{} manifest, no rule matched (fail-safe idle)",
                        detection.kind
                    ),
                    FAIL_SAFE_CONFIDENCE,
                ),
            };
            sources.push(source(
                "screen",
                signal,
                confidence,
                detection.state.to_string(),
            ));
        }
        if let Some(marks) = report.semantic {
            let (signal, observed) = if marks.running {
                (
                    "OSC 133 marks: a command is running in the pane's shell",
                    "working",
                )
            } else if marks.at_prompt {
                ("OSC 133 marks: the pane's shell is at its prompt", "idle")
            } else {
                (
                    "OSC 133 marks: the pane's shell is between commands",
                    "unknown",
                )
            };
            sources.push(source(
                "semantic_cells",
                signal.into(),
                SEMANTIC_CONFIDENCE,
                observed.into(),
            ));
        }
        if let Some(plugin) = &report.plugin_report {
            sources.push(source(
                "plugin_report",
                format!("{} plugin report", plugin.plugin),
                PLUGIN_CONFIDENCE,
                plugin.state.to_string(),
            ));
        }
        if let Some(occupant) = &report.occupant {
            let name = occupant.names.first().cloned().unwrap_or_default();
            sources.push(source(
                "identity",
                "foreground process".into(),
                IDENTITY_CONFIDENCE,
                format!("{name} (pid {})", occupant.pid),
            ));
        }
        sources.sort_by(|a, b| b.confidence.total_cmp(&a.confidence));
        let origin_kind = report.origin.map(StateOrigin::as_str);
        let confidence = origin_kind
            .and_then(|k| sources.iter().find(|s| s.kind == k))
            .map_or(0.0, |s| s.confidence);
        let attention = match &report.record {
            Some(record) => record.effective_attention(Some(state)),
            None => state.derived_attention(),
        };
        AgentEntry {
            terminal: TerminalAddr::local(report.pane),
            session: report.session.clone(),
            window: report.window.clone(),
            agent,
            state,
            confidence,
            attention,
            title: report.title.clone(),
            cwd: report.cwd.clone(),
            explanation: explanation(report, state),
            sources,
        }
    }
}

fn identity(report: &AgentPaneReport) -> AgentIdentity {
    if let Some(record) = &report.record {
        return AgentIdentity {
            id: slug(&record.name),
            label: record.name.clone(),
            kind: record.kind.clone(),
        };
    }
    if let Some(detection) = &report.detection {
        return AgentIdentity {
            id: detection.kind.clone(),
            label: detection.name.clone(),
            kind: detection.kind.clone(),
        };
    }
    AgentIdentity {
        id: "unknown".into(),
        label: "unknown".into(),
        kind: "unknown".into(),
    }
}

fn explanation(report: &AgentPaneReport, state: AgentState) -> String {
    match report.origin {
        Some(StateOrigin::AgentRecord) => {
            format!("{state}, as declared by the pane's phux.agent/v1 record")
        }
        Some(StateOrigin::TitleAsk | StateOrigin::ReportedAsk) => {
            "waiting on a reported human-answerable ask".into()
        }
        Some(StateOrigin::Screen) => match &report.detection {
            Some(d) => match (&d.matched_rule, d.fallback_reason) {
                (Some(rule), Some(_)) => format!(
                    "{state}, held while the {} freeze rule {rule} matches",
                    d.kind
                ),
                (Some(rule), None) => format!("{state}, from the {} screen rule {rule}", d.kind),
                (None, _) => format!("{state}: no {} screen rule matched (the fail-safe)", d.kind),
            },
            None => format!("{state}, from the screen"),
        },
        Some(StateOrigin::PluginReport) => match &report.plugin_report {
            Some(plugin) => format!("{state}, as the {} plugin reports", plugin.plugin),
            None => format!("{state}, as a plugin reports"),
        },
        None if report.record.is_some() => "a record without a state: unknown".into(),
        None => "no agent record, ask or recognised occupant: unknown".into(),
    }
}

/// `{from, to, via}` of an observed transition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentEdge {
    pub from: AgentState,
    pub to: AgentState,
    /// `push` (a change notification) or `poll` (the re-read floor).
    pub via: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitAgent {
    pub name: String,
    pub kind: String,
    pub session: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WaitObservations {
    pub edges: u32,
    pub pushes: u32,
    pub polls: u32,
}

/// `agent wait --json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentWaitJson {
    pub schema_version: u32,
    pub terminal: TerminalAddr,
    pub satisfied: bool,
    pub edge: Option<AgentEdge>,
    pub baseline: AgentState,
    pub state: AgentState,
    pub agent: WaitAgent,
    pub observations: WaitObservations,
    pub detection: Option<AgentEntry>,
}

/// Where an offline capture came from and what it was parsed as.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaptureInfo {
    pub path: String,
    /// `json` or `text`.
    pub format: String,
    pub rows: u32,
    pub cols: Option<u16>,
    pub title: String,
}

/// `agent explain --file ... --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AgentExplainJson {
    pub schema_version: u32,
    pub capture: CaptureInfo,
    pub explain: Evaluation,
}
