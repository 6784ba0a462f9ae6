//! What can go wrong reading or editing the plugin registry; every case is the `registry`
//! error code.

use std::path::PathBuf;

use phux_core::config::edit::EditError;
use phux_core::config::manifest::ManifestError;
use phux_core::config::ConfigError;
use phux_core::error_code::ErrorCode;
use phux_core::error_doc::ContractError;

#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Edit(#[from] EditError),
    /// A manifest given on the command line (link, install).
    #[error("{error}")]
    Manifest { error: ManifestError },
    /// The manifest of a registered plugin.
    #[error("{error}")]
    RegisteredManifest {
        config: PathBuf,
        error: ManifestError,
    },
    #[error("two plugins have the id {id:?}: {} and {}", first.display(), second.display())]
    DuplicateId {
        id: String,
        first: PathBuf,
        second: PathBuf,
    },
    #[error("no plugin {id:?} is registered{}", known_list(known))]
    NotRegistered { id: String, known: Vec<String> },
    #[error("plugin {id:?} is already registered (manifest {})", manifest.display())]
    AlreadyLinked { id: String, manifest: PathBuf },
    #[error("plugin {plugin:?} has no action {action:?}{}", known_list(known))]
    NoSuchAction {
        plugin: String,
        action: String,
        known: Vec<String>,
    },
    #[error("plugin {id:?} is disabled")]
    Disabled { id: String },
    #[error("cannot start {program:?} for {plugin}/{what}: {source}")]
    Spawn {
        plugin: String,
        what: String,
        program: String,
        source: std::io::Error,
    },
    #[error("install from {source_ref}: {message}")]
    Install { source_ref: String, message: String },
}

fn known_list(known: &[String]) -> String {
    if known.is_empty() {
        String::new()
    } else {
        format!(" (have: {})", known.join(", "))
    }
}

impl ContractError for RegistryError {
    fn code(&self) -> ErrorCode {
        ErrorCode::Registry
    }

    fn remedy(&self) -> String {
        match self {
            RegistryError::Config(e) => e.remedy(),
            RegistryError::Edit(EditError::Config(e)) => e.remedy(),
            RegistryError::Edit(_) => "check the permissions of the config file's directory".into(),
            RegistryError::Manifest { error } => error.remedy(),
            RegistryError::RegisteredManifest { config, error } => format!(
                "{}; or remove its [[plugins]] entry from {} with `phux plugin unlink PATH`",
                error.remedy(),
                config.display()
            ),
            RegistryError::DuplicateId { id, .. } => {
                format!("unlink one of them: `phux plugin unlink {id}` removes the first")
            }
            RegistryError::NotRegistered { .. } => {
                "list the registered plugins with `phux plugin list`".into()
            }
            RegistryError::AlreadyLinked { id, .. } => {
                format!("it is linked already; `phux plugin unlink {id}` first to link another copy")
            }
            RegistryError::NoSuchAction { plugin, .. } => {
                format!("see the actions with `phux plugin list --json` (plugin {plugin})")
            }
            RegistryError::Disabled { id } => format!("enable it with `phux plugin enable {id}`"),
            RegistryError::Spawn { .. } => {
                "check that the program exists and is executable from the plugin root".into()
            }
            RegistryError::Install { .. } => {
                "check the source (a git URL, a directory or a .tar/.tar.gz/.tgz) and its build steps".into()
            }
        }
    }
}
