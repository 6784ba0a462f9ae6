//! `phux launch --json` (§4.13): what was spawned, what would be (`--print`), and the
//! integrations on offer (`--list`).

use serde::{Deserialize, Serialize};

pub const LAUNCH_SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaunchJson {
    pub schema_version: u32,
    pub terminal_id: u32,
    pub integration: String,
    pub plugin: String,
    /// The argv actually spawned, with a generated or resumed session id when the template
    /// has one.
    pub argv: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaunchPrintJson {
    pub schema_version: u32,
    pub integration: String,
    pub plugin: String,
    pub cwd: String,
    /// `workspace` or `plugin`.
    pub working_directory: String,
    pub argv: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaunchListJson {
    pub schema_version: u32,
    pub integrations: Vec<IntegrationRow>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IntegrationRow {
    pub id: String,
    pub plugin: String,
    pub display_name: Option<String>,
    pub kind: Option<String>,
    pub description: Option<String>,
    pub capabilities: Vec<String>,
    pub command: Vec<String>,
    pub working_directory: String,
    pub path: String,
}
