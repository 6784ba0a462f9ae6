//! `integrations/*.toml` inside a plugin: agent integrations `phux launch` starts. Found by
//! convention, not declared in the manifest.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::location::line_col;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Integration {
    pub schema_version: Option<u32>,
    pub id: Option<String>,
    pub display_name: Option<String>,
    pub kind: Option<String>,
    pub description: Option<String>,
    pub capabilities: Vec<String>,
    pub launch: Launch,
    pub agent_identity: Option<AgentIdentity>,
    pub session_identity: Option<SessionIdentity>,
    /// Informational tables, kept as written.
    pub detect: Option<toml::Table>,
    pub link: Option<toml::Table>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Launch {
    pub command: Vec<String>,
    /// `workspace` (the caller's directory) or `plugin` (the plugin root).
    pub working_directory: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AgentIdentity {
    pub name: Option<String>,
    pub kind: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SessionIdentity {
    pub mode: Option<String>,
    pub native_env: Option<String>,
    pub restore: Option<String>,
    pub resume_args: Vec<String>,
    pub fresh_args: Vec<String>,
}

/// One integration file, read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedIntegration {
    pub id: String,
    pub path: PathBuf,
    pub integration: Integration,
}

/// Every `integrations/*.toml` of the plugin at `root`, sorted by file name. A file that does
/// not parse or lacks an id or a launch command is an error naming it.
pub fn load_all(root: &Path) -> Result<Vec<LoadedIntegration>, String> {
    let dir = root.join("integrations");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(Vec::new());
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    paths.iter().map(|p| load(p)).collect()
}

fn load(path: &Path) -> Result<LoadedIntegration, String> {
    let text = crate::bounded_read::read_text(
        path,
        crate::bounded_read::MAX_TEXT_FILE_BYTES,
        "an integration file",
    )
    .map_err(|e| e.to_string())?;
    let integration: Integration = toml::from_str(&text).map_err(|e| {
        let (line, column) = line_col(&text, e.span().map_or(0, |s| s.start));
        format!("{}:{line}:{column}: {}", path.display(), e.message().trim())
    })?;
    let id = match integration.id.as_deref() {
        Some(id) if !id.is_empty() => id.to_string(),
        _ => return Err(format!("{}: missing `id`", path.display())),
    };
    if integration.schema_version.is_some_and(|v| v != 1) {
        return Err(format!(
            "{}: schema_version {} is not supported (this phux reads 1)",
            path.display(),
            integration.schema_version.unwrap_or_default()
        ));
    }
    if integration
        .launch
        .command
        .first()
        .is_none_or(|p| p.is_empty())
    {
        return Err(format!(
            "{}: [launch] command must be a non-empty argv",
            path.display()
        ));
    }
    Ok(LoadedIntegration {
        id,
        path: path.to_path_buf(),
        integration,
    })
}

/// `${PHUX_PLUGIN_ROOT}` and `${PHUX_AGENT_SESSION_ID}` substituted in one argv word.
pub fn expand(word: &str, root: &Path, session_id: Option<&str>) -> String {
    let mut out = word.replace("${PHUX_PLUGIN_ROOT}", &root.display().to_string());
    if let Some(id) = session_id {
        out = out.replace("${PHUX_AGENT_SESSION_ID}", id);
    }
    out
}
