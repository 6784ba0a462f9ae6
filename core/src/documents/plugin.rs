//! `phux plugin ... --json` (§4.5) and `phux config run --json` (§4.8): the plugin registry as
//! the config file and the manifests describe it, and the result of running one action.

use serde::{Deserialize, Serialize};

use crate::config::manifest::{ActionDecl, BuildStep, EventHook, LinkHandler, PaneProvider};

pub const PLUGIN_SCHEMA_VERSION: u32 = 1;
pub const PLUGIN_ACTION_SCHEMA_VERSION: u32 = 1;

/// One registered plugin: its `[[plugins]]` entry and its manifest's declarations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PluginJson {
    pub id: String,
    pub name: Option<String>,
    pub version: Option<String>,
    pub min_phux_version: Option<String>,
    pub description: Option<String>,
    /// As the config file writes it.
    pub manifest: String,
    pub manifest_path: String,
    pub plugin_root: String,
    pub enabled: bool,
    pub platforms: Option<Vec<String>>,
    pub build: Vec<BuildStep>,
    pub actions: Vec<ActionDecl>,
    pub events: Vec<EventHook>,
    pub panes: Vec<PaneProvider>,
    pub links: Vec<LinkHandler>,
}

/// `plugin list --json` and `plugin validate --json` (which adds `valid`, and `warnings`
/// when a manifest holds keys phux does not know).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PluginListJson {
    pub schema_version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid: Option<bool>,
    pub plugins: Vec<PluginJson>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<ManifestWarning>,
}

/// Something a manifest holds that phux ignored (an unknown key), with where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestWarning {
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
}

/// `plugin link|enable|disable|install|update --json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PluginWrapJson {
    pub schema_version: u32,
    pub plugin: PluginJson,
}

/// `plugin unlink --json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PluginRemovedJson {
    pub schema_version: u32,
    pub removed: PluginJson,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionOutcome {
    Completed,
    TimedOut,
}

/// `config run PLUGIN ACTION --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PluginActionOutput {
    pub schema_version: u32,
    pub plugin_id: String,
    pub action_id: String,
    pub command: Vec<String>,
    pub cwd: String,
    pub outcome: ActionOutcome,
    /// `None` when killed at the time limit or ended by a signal.
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub duration_ms: u64,
}
