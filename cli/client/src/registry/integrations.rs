//! Agent integrations of enabled plugins (`integrations/*.toml`), resolved into the argv
//! `phux launch` spawns: `${PHUX_PLUGIN_ROOT}` expanded, and a fresh session id generated (or
//! a saved one resumed) when the integration's session template says how.

use std::path::{Path, PathBuf};

use phux_core::config::integration::{self, expand, LoadedIntegration};
use phux_core::documents::IntegrationRow;

use super::{Plugin, RegistryError};

/// One integration and the plugin it comes from.
#[derive(Debug, Clone)]
pub struct Available {
    pub plugin: Plugin,
    pub integration: LoadedIntegration,
}

/// What `launch` runs, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    pub plugin_id: String,
    pub integration_id: String,
    pub argv: Vec<String>,
    pub cwd: PathBuf,
    /// `workspace` or `plugin`.
    pub working_directory: String,
    /// The agent session id the argv carries (fresh or resumed).
    pub session_id: Option<String>,
    pub agent_name: String,
    pub agent_kind: Option<String>,
}

/// Every integration of every enabled plugin; a broken integration file fails the whole read.
pub fn available(plugins: &[Plugin]) -> Result<Vec<Available>, RegistryError> {
    let mut out = Vec::new();
    for plugin in plugins.iter().filter(|p| p.entry.enabled) {
        let found = integration::load_all(&plugin.valid.plugin_root).map_err(|message| {
            RegistryError::Install {
                source_ref: plugin.id().to_string(),
                message,
            }
        })?;
        out.extend(found.into_iter().map(|integration| Available {
            plugin: plugin.clone(),
            integration,
        }));
    }
    Ok(out)
}

impl Available {
    /// How a message names it: `ID (PLUGIN)`.
    pub fn label(&self) -> String {
        format!("{} ({})", self.integration.id, self.plugin.id())
    }

    pub fn row(&self) -> IntegrationRow {
        let i = &self.integration.integration;
        IntegrationRow {
            id: self.integration.id.clone(),
            plugin: self.plugin.id().to_string(),
            display_name: i.display_name.clone(),
            kind: i.kind.clone(),
            description: i.description.clone(),
            capabilities: i.capabilities.clone(),
            command: i.launch.command.clone(),
            working_directory: working_directory(self),
            path: self.integration.path.display().to_string(),
        }
    }

    /// The agent kind a launch of this integration brings up: its `[agent_identity]` kind,
    /// else the integration's own.
    pub fn agent_kind(&self) -> Option<String> {
        let i = &self.integration.integration;
        let identity = i.agent_identity.as_ref().and_then(|a| a.kind.clone());
        identity.or_else(|| i.kind.clone())
    }

    /// The argv and directory for a launch from `workspace`: resuming `resume` when given (and
    /// the template has `resume_args`), else with a fresh id when it has `fresh_args`.
    pub fn prepare(&self, workspace: &Path, resume: Option<&str>) -> Prepared {
        let root = &self.plugin.valid.plugin_root;
        let i = &self.integration.integration;
        let identity = i.session_identity.clone().unwrap_or_default();
        let (session_id, extra) = match resume {
            Some(id) if !identity.resume_args.is_empty() => {
                (Some(id.to_string()), identity.resume_args.clone())
            }
            _ if !identity.fresh_args.is_empty() => (Some(fresh_id()), identity.fresh_args.clone()),
            _ => (None, Vec::new()),
        };
        let argv = i
            .launch
            .command
            .iter()
            .chain(extra.iter())
            .map(|w| expand(w, root, session_id.as_deref()))
            .collect();
        let working_directory = working_directory(self);
        let cwd = if working_directory == "plugin" {
            root.clone()
        } else {
            workspace.to_path_buf()
        };
        let agent = i.agent_identity.clone().unwrap_or_default();
        Prepared {
            plugin_id: self.plugin.id().to_string(),
            integration_id: self.integration.id.clone(),
            argv,
            cwd,
            working_directory,
            session_id,
            agent_name: agent.name.unwrap_or_else(|| self.integration.id.clone()),
            agent_kind: self.agent_kind(),
        }
    }
}

fn working_directory(a: &Available) -> String {
    a.integration
        .integration
        .launch
        .working_directory
        .clone()
        .unwrap_or_else(|| "workspace".into())
}

/// The integration `id` (of plugin `plugin_id` when given). Two enabled plugins offering the
/// same id need `plugin_id` to choose.
pub fn find<'a>(
    available: &'a [Available],
    id: &str,
    plugin_id: Option<&str>,
) -> Result<&'a Available, RegistryError> {
    let matches: Vec<&Available> = available
        .iter()
        .filter(|a| a.integration.id == id && plugin_id.is_none_or(|p| a.plugin.id() == p))
        .collect();
    match matches.as_slice() {
        [one] => Ok(one),
        [] => Err(RegistryError::NotRegistered {
            id: format!("integration {id}"),
            known: available.iter().map(Available::label).collect(),
        }),
        several => Err(RegistryError::Install {
            source_ref: id.to_string(),
            message: format!(
                "several enabled plugins offer integration {id}: {}; choose one with --plugin",
                several
                    .iter()
                    .map(|a| a.plugin.id())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
    }
}

/// A random (version 4) UUID from the kernel's random source.
fn fresh_id() -> String {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if read.is_err() {
        // Unique enough for an id: the time and our pid.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes = (nanos ^ (u128::from(std::process::id()) << 64)).to_le_bytes();
    }
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}
