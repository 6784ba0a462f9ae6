//! `config run`'s operation: runs a plugin's action from its root (§4.8) and returns its
//! PluginActionOutput (the `phux_plugin_action` tool's result too).

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use phux_core::documents::PluginActionOutput;

use crate::failure::Failure;
use crate::registry::{self, action, registered};

/// Which action to run, and how.
#[derive(Debug, Clone)]
pub struct PluginActionOptions {
    /// The plugin's id.
    pub plugin: String,
    /// The action's id.
    pub action: String,
    /// Kill the action after this long (outcome "timed_out").
    pub timeout: Option<Duration>,
    /// Run it here instead of the plugin root.
    pub cwd: Option<PathBuf>,
    /// Stream the action's output to this process's terminal as it comes (else it is only
    /// captured in the document).
    pub echo: bool,
}

/// Runs the action and returns its PluginActionOutput. `cancel`, once set, kills it as the
/// time limit does.
pub fn document(
    options: &PluginActionOptions,
    cancel: Option<Arc<AtomicBool>>,
) -> Result<PluginActionOutput, Failure> {
    let plugins = registered()?;
    let plugin = registry::find(&plugins, &options.plugin)?;
    let how = action::ActionRun {
        cwd: options.cwd.clone(),
        timeout: options.timeout,
        echo: options.echo,
        cancel,
    };
    Ok(action::run(plugin, &options.action, &how)?)
}
