//! The config file (`config.toml`) and plugin manifests (`phux-plugin.toml`, `integrations/*.toml`):
//! where they live, their typed contents, the problems found in them (with file, line and
//! column), and the writer that edits the config in place keeping the user's comments.

pub mod defaults;
pub mod edit;
pub mod file;
pub mod integration;
pub mod keybindings;
pub mod listener;
pub mod location;
pub mod manifest;
pub mod paths;
pub mod schema;
pub mod version;

pub use file::{ConfigError, ConfigFile, ConfigWarning, LoadedConfig, PluginEntry};
