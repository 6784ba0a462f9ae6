//! The typed tables of a manifest: every field optional, so a missing one is a problem the
//! checker reports (with its line) rather than a parse error that hides the others.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Manifest {
    pub id: Option<String>,
    pub name: Option<String>,
    pub version: Option<String>,
    pub min_phux_version: Option<String>,
    pub description: Option<String>,
    pub platforms: Option<Vec<String>>,
    pub build: Vec<BuildStep>,
    pub actions: Vec<ActionDecl>,
    pub events: Vec<EventHook>,
    pub panes: Vec<PaneProvider>,
    pub links: Vec<LinkHandler>,
    pub agents: Vec<AgentDecl>,
    pub workspaces: Vec<WorkspaceProfile>,
    pub widgets: Vec<Widget>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildStep {
    pub id: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub command: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ActionDecl {
    pub id: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub contexts: Option<Vec<String>>,
    pub command: Option<Vec<String>>,
    pub keys: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EventHook {
    pub id: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub on: Option<String>,
    pub command: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PaneProvider {
    pub id: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub placement: Option<String>,
    pub command: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LinkHandler {
    pub id: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub contexts: Option<Vec<String>>,
    pub patterns: Option<Vec<String>>,
    pub command: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AgentDecl {
    pub id: Option<String>,
    pub label: Option<String>,
    pub description: Option<String>,
    pub state: Option<String>,
    pub attention: Option<String>,
    pub contexts: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WorkspaceProfile {
    pub id: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    /// Where the profile is offered (`workspace`, `pane`).
    pub contexts: Option<Vec<String>>,
    pub agents: Vec<String>,
    pub actions: Vec<String>,
    pub events: Vec<String>,
    pub panes: Vec<WorkspacePane>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WorkspacePane {
    pub id: Option<String>,
    pub pane: Option<String>,
    pub role: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Widget {
    pub id: Option<String>,
    pub title: Option<String>,
    pub slot: Option<String>,
    pub kind: Option<String>,
    pub command: Option<Vec<String>>,
    pub interval: Option<f64>,
}
