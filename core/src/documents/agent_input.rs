//! `agent send-keys --json` and `agent prompt --json` (§4.7): input delivered to a pane after
//! the occupant check, and for `prompt` the wait fused after it.

use serde::{Deserialize, Serialize};

use crate::agents::AgentState;
use crate::documents::AgentEdge;
use crate::ids::TerminalAddr;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputAgent {
    pub name: String,
    pub kind: String,
}

/// `agent send-keys --json`, printed only on a fully delivered batch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentSendKeysJson {
    pub schema_version: u32,
    pub terminal: TerminalAddr,
    pub agent: InputAgent,
    pub keys: u32,
    pub verified: bool,
    pub delivery: String,
    pub operation_id: String,
    pub attempts: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromptAgent {
    pub name: String,
    pub kind: String,
    pub state: AgentState,
    pub session: Option<String>,
}

/// `agent prompt --json`: the prompt's delivery, then (with `--wait`) what the wait saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentPromptJson {
    pub schema_version: u32,
    pub terminal: TerminalAddr,
    pub delivery: String,
    pub operation_id: String,
    pub agent: PromptAgent,
    pub pre_submit_state: AgentState,
    pub staleness_bound_ms: Option<u64>,
    pub attempts: u32,
    pub submit_ms: u64,
    pub transition_observed: bool,
    /// `transition` when an edge satisfied the wait; null otherwise.
    pub matched_by: Option<String>,
    pub edge: Option<AgentEdge>,
    pub waited_ms: Option<u64>,
    pub degraded_to_polling: bool,
}

/// The ask an answer went to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnsweredAsk {
    pub id: String,
    pub question: String,
    pub suggestions: Vec<String>,
}

/// `agent answer --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentAnswerJson {
    pub schema_version: u32,
    pub terminal: TerminalAddr,
    pub ask: AnsweredAsk,
    pub answer: String,
    /// `choice` or `text`.
    pub source: String,
    pub operation_id: String,
    pub delivered: bool,
}

/// How `agent start` saw the agent come up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartReadiness {
    /// The occupant name that selected the manifest.
    pub identity: String,
    /// The first derived state, as `none -> STATE`.
    pub transition: String,
    /// Where that state came from (`screen`).
    pub detector: String,
    pub latency_ms: u64,
    /// Reads of the pane until ready.
    pub observations: u32,
}

/// `agent start --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentStartJson {
    pub schema_version: u32,
    pub terminal: TerminalAddr,
    pub name: String,
    pub kind: String,
    pub integration: Option<String>,
    pub started: bool,
    pub ready: bool,
    pub state: Option<AgentState>,
    /// `passed`: the target's foreground was a shell.
    pub shell_check: String,
    pub readiness: Option<StartReadiness>,
}
