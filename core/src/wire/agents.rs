//! The agent requests and their answers: the per-pane metadata store (`metadata_get`,
//! `metadata_set`), the `phux.agent/v1` record's writers (`agent_set`, `agent_clear`,
//! `agent_report_state`), and `agent_inspect`, which reports what the server knows about each
//! pane's agent (record, ask, occupant, detection) for the CLI to project into AgentStateJson.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::agents::{AgentRecord, AgentState, Attention, FallbackReason};
use crate::ids::PaneId;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetadataGet {
    pub id: u64,
    pub pane: PaneId,
}

/// Writes `key`; `value: null` (or absent) deletes it. Every write raises a `metadata` event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetadataSet {
    pub id: u64,
    pub pane: PaneId,
    pub key: String,
    #[serde(default)]
    pub value: Option<Value>,
}

/// `metadata_get`: every key the pane holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetadataOk {
    pub pane: PaneId,
    pub entries: BTreeMap<String, Value>,
}

/// `agent set`: declares (or redeclares) the pane's agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentSet {
    pub id: u64,
    pub pane: PaneId,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<AgentState>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attention: Option<Attention>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentClear {
    pub id: u64,
    pub pane: PaneId,
}

/// What an agent's hook reports: its own state, declared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentReportState {
    pub id: u64,
    pub pane: PaneId,
    pub state: AgentState,
}

/// The answer of the three record writers: the record as stored afterwards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentRecordOk {
    pub pane: PaneId,
    pub record: Option<AgentRecord>,
}

/// `panes` empty: every pane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentInspect {
    pub id: u64,
    #[serde(default)]
    pub panes: Vec<PaneId>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentInspectOk {
    pub panes: Vec<AgentPaneReport>,
    /// The server runs without screen detection (`PHUX_AGENT_DETECT=0`): no state is derived
    /// and no occupant is identified.
    #[serde(default)]
    pub detection_off: bool,
}

/// Where a pane's effective state comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StateOrigin {
    /// A state a person or hook declared on the record.
    AgentRecord,
    /// An active title-sentinel ask raised a record without a declared state to `blocked`.
    TitleAsk,
    /// An active `phux ask` (a reported ask) raised a record without a declared state to
    /// `blocked`: named apart from `title_ask` so the `agent_state` event agrees with the
    /// `asked` event's `source: "report"`.
    ReportedAsk,
    /// The screen detector's derived state.
    Screen,
    /// A plugin's report (`agent report-state --plugin`).
    PluginReport,
}

impl StateOrigin {
    /// The name `sources[].kind` and `agent_state` events use for this origin.
    pub fn as_str(self) -> &'static str {
        match self {
            StateOrigin::AgentRecord => "agent_record",
            StateOrigin::TitleAsk => "title_ask",
            StateOrigin::ReportedAsk => "reported_ask",
            StateOrigin::Screen => "screen",
            StateOrigin::PluginReport => "plugin_report",
        }
    }
}

/// An ask active on the pane (the title sentinel, `phux ask`, or a dialog on the screen).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveAsk {
    pub id: String,
    pub question: String,
    pub suggestions: Vec<String>,
    /// True when it came from the title sentinel.
    pub from_title: bool,
    /// True when the detector read it from a dialog on the screen (it lasts while the screen
    /// reads blocked).
    #[serde(default, skip_serializing_if = "crate::documents::is_false")]
    pub from_screen: bool,
    /// On a screen ask: which suggestion the dialog's pointer is on (0-based), so an answer
    /// moves from there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected: Option<usize>,
}

impl ActiveAsk {
    /// Where it came from: `title`, `screen` or `report` (`phux ask`).
    pub fn source(&self) -> &'static str {
        if self.from_title {
            "title"
        } else if self.from_screen {
            "screen"
        } else {
            "report"
        }
    }
}

/// The pane's foreground process, as identity sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Occupant {
    pub pid: u32,
    /// The names it goes by, most specific first.
    pub names: Vec<String>,
    /// The manifest kind those names select, if any.
    pub kind: Option<String>,
}

/// The detector's last evaluation of the pane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DetectionReport {
    pub kind: String,
    pub name: String,
    /// What the detector publishes (after the working→idle hold).
    pub state: AgentState,
    pub matched_rule: Option<String>,
    pub visible_idle: bool,
    pub fallback_reason: Option<FallbackReason>,
}

/// The pane's shell as its OSC 133 marks describe it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SemanticMarks {
    /// A command has started (C) and not finished (D).
    pub running: bool,
    /// The prompt has been drawn to its end (B) since the last command finished.
    pub at_prompt: bool,
}

/// Everything the server knows about one pane's agent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentPaneReport {
    pub pane: PaneId,
    pub session: String,
    pub window: String,
    pub title: Option<String>,
    pub cwd: Option<String>,
    pub record: Option<AgentRecord>,
    /// The effective state and where it comes from; `None` without a record.
    pub state: Option<AgentState>,
    pub origin: Option<StateOrigin>,
    pub ask: Option<ActiveAsk>,
    pub occupant: Option<Occupant>,
    pub detection: Option<DetectionReport>,
    /// What the OSC 133 marks of the pane's shell say (its prompt, input and output cells),
    /// when the shell writes them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub semantic: Option<SemanticMarks>,
    /// A plugin's report of the agent's state, when one was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plugin_report: Option<crate::agents::PluginReport>,
    /// The argv of the pane's foreground program now (`workspace save` archives it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub foreground: Option<Vec<String>>,
}
