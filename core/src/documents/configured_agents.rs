//! `phux config agents --json` (§4.6, schema 2): each agent a plugin declares, with the state
//! and attention in effect: a live `phux.agent/v1` record's when one matches, else the
//! manifest's declared baseline.

use serde::{Deserialize, Serialize};

pub const CONFIGURED_AGENTS_SCHEMA_VERSION: u32 = 2;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfiguredAgentsJson {
    pub schema_version: u32,
    /// Whether a server answered.
    pub live: bool,
    pub agents: Vec<ConfiguredAgent>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfiguredAgent {
    pub plugin_id: String,
    pub plugin_enabled: bool,
    pub id: String,
    pub label: Option<String>,
    pub description: Option<String>,
    pub state: String,
    pub attention: String,
    /// `runtime` when a live record matched, else `manifest`.
    pub source: String,
    pub declared: DeclaredBaseline,
    pub runtime: Option<RuntimeBinding>,
    pub contexts: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeclaredBaseline {
    pub state: String,
    pub attention: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuntimeBinding {
    /// `@N`.
    pub terminal: String,
    pub name: String,
    pub kind: String,
    pub state: String,
    pub attention: String,
    pub asked: bool,
}
