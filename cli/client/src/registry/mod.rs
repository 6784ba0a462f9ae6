//! The plugin registry as a library: the config file's `[[plugins]]` entries with their
//! checked manifests, the lifecycle edits (link, unlink, enable, disable, install, update),
//! and running an action. Nothing here prints; the `plugin` and `config` verbs (and MCP tools)
//! decide how to show the result.

pub mod action;
pub mod edit;
mod error;
pub mod install;
pub mod integrations;

use std::path::Path;

use phux_core::config::file::{load, LoadedConfig};
use phux_core::config::manifest::{self, ValidManifest};
use phux_core::config::paths::config_path;
use phux_core::config::PluginEntry;
use phux_core::documents::{ManifestWarning, PluginJson};

pub use error::RegistryError;

/// One `[[plugins]]` entry and its manifest, checked.
#[derive(Debug, Clone)]
pub struct Plugin {
    pub entry: PluginEntry,
    pub valid: ValidManifest,
}

impl Plugin {
    pub fn id(&self) -> &str {
        &self.valid.id
    }

    /// What its manifest holds that phux ignored, each with its file and line.
    pub fn warnings(&self) -> Vec<ManifestWarning> {
        self.valid
            .warnings
            .iter()
            .map(|w| ManifestWarning {
                file: w.file.display().to_string(),
                line: w.line,
                message: w.detail(),
            })
            .collect()
    }

    /// Its §4.5 document.
    pub fn json(&self) -> PluginJson {
        let m = &self.valid.manifest;
        PluginJson {
            id: self.valid.id.clone(),
            name: m.name.clone(),
            version: m.version.clone(),
            min_phux_version: m.min_phux_version.clone(),
            description: m.description.clone(),
            manifest: self.entry.manifest.clone(),
            manifest_path: self.valid.manifest_path.display().to_string(),
            plugin_root: self.valid.plugin_root.display().to_string(),
            enabled: self.entry.enabled,
            platforms: m.platforms.clone(),
            build: m.build.clone(),
            actions: m.actions.clone(),
            events: m.events.clone(),
            panes: m.panes.clone(),
            links: m.links.clone(),
        }
    }
}

/// The remote listener's address as a server started now would take it (`PHUX_WS_ADDR`, else
/// `[listener] ws_addr`; `None`: no listener).
pub fn configured_ws_addr() -> Option<String> {
    phux_core::config::listener::configured_addr(|| {
        load_config()
            .ok()
            .and_then(|loaded| loaded.file.listener.ws_addr)
    })
}

/// The config file phux uses, loaded; a malformed one is the `registry` failure.
pub fn load_config() -> Result<LoadedConfig, RegistryError> {
    Ok(load(&config_path())?)
}

/// Every registered plugin, each manifest checked. Any invalid or missing manifest, or two
/// entries naming the same plugin id, fails the whole read: a plugin is never silently
/// skipped.
pub fn plugins(config: &LoadedConfig) -> Result<Vec<Plugin>, RegistryError> {
    let mut plugins: Vec<Plugin> = Vec::new();
    for entry in &config.file.plugins {
        let path = entry.manifest_path(&config.path);
        let valid = manifest::load(&path).map_err(|error| RegistryError::RegisteredManifest {
            config: config.path.clone(),
            error,
        })?;
        if let Some(first) = plugins.iter().find(|p| p.id() == valid.id) {
            return Err(RegistryError::DuplicateId {
                id: valid.id.clone(),
                first: first.valid.manifest_path.clone(),
                second: valid.manifest_path.clone(),
            });
        }
        plugins.push(Plugin {
            entry: entry.clone(),
            valid,
        });
    }
    Ok(plugins)
}

/// A warning as a person reads it: `FILE:LINE: MESSAGE`.
pub fn warning_line(warning: &ManifestWarning) -> String {
    match warning.line {
        Some(line) => format!("{}:{line}: {}", warning.file, warning.message),
        None => format!("{}: {}", warning.file, warning.message),
    }
}

/// The registered plugin with `id`.
pub fn find<'p>(plugins: &'p [Plugin], id: &str) -> Result<&'p Plugin, RegistryError> {
    plugins
        .iter()
        .find(|p| p.id() == id)
        .ok_or_else(|| RegistryError::NotRegistered {
            id: id.to_string(),
            known: plugins.iter().map(|p| p.id().to_string()).collect(),
        })
}

/// Whether two paths name the same file (after resolving links), for finding an entry by path.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The registered plugins, after printing the config file's warnings.
pub fn registered() -> Result<Vec<Plugin>, RegistryError> {
    let config = load_config()?;
    for warning in &config.warnings {
        crate::output::warn(&warning.to_string());
    }
    plugins(&config)
}
