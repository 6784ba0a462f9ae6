//! `phux config check --json` and `phux config show --json`.

use serde::{Deserialize, Serialize};

use crate::config::ConfigFile;

pub const CONFIG_CHECK_SCHEMA_VERSION: u32 = 1;
pub const CONFIG_SHOW_SCHEMA_VERSION: u32 = 1;

/// Every problem in the config file and the manifests it names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfigCheckJson {
    pub schema_version: u32,
    pub path: String,
    pub ok: bool,
    pub problems: Vec<ConfigProblem>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfigProblem {
    /// `warning` (an unknown key) or `error` (a manifest that fails its checks).
    pub severity: String,
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
}

/// The config in effect: `[defaults]` with every key filled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfigShowJson {
    pub schema_version: u32,
    pub path: String,
    pub exists: bool,
    #[serde(flatten)]
    pub config: ConfigFile,
}
