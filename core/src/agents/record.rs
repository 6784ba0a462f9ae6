//! The `phux.agent/v1` record a pane's metadata holds: who the agent is and, when known, its
//! lifecycle state and attention. Written by `agent set` / `report-state` (declared) and by the
//! server's detector (derived).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The metadata key of the agent record.
pub const AGENT_RECORD_KEY: &str = "phux.agent/v1";

/// The metadata key of a plugin's report of the pane's agent state
/// (`agent report-state TARGET STATE --plugin ID`).
pub const PLUGIN_REPORT_KEY: &str = "phux.plugin_report/v1";

/// A plugin's word on the state of a pane's agent. It outranks the screen's idle and working,
/// and yields to a declared state, an active ask, and the screen's blocked or done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PluginReport {
    /// The reporting plugin's id.
    pub plugin: String,
    pub state: AgentState,
}

/// An agent's lifecycle state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AgentState {
    Unknown,
    Idle,
    Working,
    Blocked,
    Done,
}

impl AgentState {
    pub const ALL: [AgentState; 5] = [
        AgentState::Unknown,
        AgentState::Idle,
        AgentState::Working,
        AgentState::Blocked,
        AgentState::Done,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            AgentState::Unknown => "unknown",
            AgentState::Idle => "idle",
            AgentState::Working => "working",
            AgentState::Blocked => "blocked",
            AgentState::Done => "done",
        }
    }

    /// The attention a state asks for when the record declares none.
    pub const fn derived_attention(self) -> Attention {
        match self {
            AgentState::Blocked => Attention::High,
            AgentState::Working => Attention::Normal,
            AgentState::Done | AgentState::Unknown => Attention::Low,
            AgentState::Idle => Attention::None,
        }
    }
}

impl fmt::Display for AgentState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A word that is not a state.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown agent state {0:?} (expected unknown, idle, working, blocked or done)")]
pub struct UnknownState(pub String);

impl FromStr for AgentState {
    type Err = UnknownState;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        AgentState::ALL
            .into_iter()
            .find(|state| state.as_str() == s)
            .ok_or_else(|| UnknownState(s.to_owned()))
    }
}

/// How much a person should look at the pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Attention {
    None,
    Low,
    Normal,
    High,
}

impl Attention {
    pub const ALL: [Attention; 4] = [
        Attention::None,
        Attention::Low,
        Attention::Normal,
        Attention::High,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Attention::None => "none",
            Attention::Low => "low",
            Attention::Normal => "normal",
            Attention::High => "high",
        }
    }
}

impl fmt::Display for Attention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown attention {0:?} (expected none, low, normal or high)")]
pub struct UnknownAttention(pub String);

impl FromStr for Attention {
    type Err = UnknownAttention;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Attention::ALL
            .into_iter()
            .find(|a| a.as_str() == s)
            .ok_or_else(|| UnknownAttention(s.to_owned()))
    }
}

/// Who set the record's `state`: a person or hook (`declared`, which outranks the detector) or
/// the server's screen detector (`detector`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StateSource {
    Declared,
    Detector,
}

/// The `phux.agent/v1` record. `declared` and `state_source` are phux's additive keys: whether a
/// person or hook wrote the record (a detector-made record goes when its agent leaves) and who
/// set its state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentRecord {
    pub name: String,
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<AgentState>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attention: Option<Attention>,
    #[serde(default)]
    pub session: Option<String>,
    #[serde(default)]
    pub declared: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_source: Option<StateSource>,
}

impl AgentRecord {
    /// The record's attention: declared, else derived from its state (unknown when stateless).
    pub fn effective_attention(&self, state: Option<AgentState>) -> Attention {
        self.attention
            .unwrap_or_else(|| state.unwrap_or(AgentState::Unknown).derived_attention())
    }

    /// True when a person or hook declared the state, so the detector must not change it.
    pub fn state_is_declared(&self) -> bool {
        self.state.is_some() && self.state_source != Some(StateSource::Detector)
    }
}

/// The kinds a record may carry.
pub const AGENT_KINDS: [&str; 8] = [
    "codex", "claude", "opencode", "pi", "omp", "plugin", "declared", "unknown",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attention_follows_the_state_unless_declared() {
        let mut record = AgentRecord {
            name: "reviewer".into(),
            kind: "claude".into(),
            state: Some(AgentState::Blocked),
            attention: None,
            session: None,
            declared: true,
            state_source: Some(StateSource::Declared),
        };
        assert_eq!(record.effective_attention(record.state), Attention::High);
        record.attention = Some(Attention::Low);
        assert_eq!(record.effective_attention(record.state), Attention::Low);
        assert_eq!("working".parse::<AgentState>(), Ok(AgentState::Working));
        assert!("busy".parse::<AgentState>().is_err());
    }
}
