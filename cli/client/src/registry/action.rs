//! `config run PLUGIN ACTION`: one `[[actions]]` command run from the plugin root with the
//! `PHUX_PLUGIN_*` environment, its output captured (lossy UTF-8) and its status kept.

use std::path::PathBuf;
use std::time::Duration;

use phux_core::documents::{ActionOutcome, PluginActionOutput, PLUGIN_ACTION_SCHEMA_VERSION};
use phux_core::plugin_exec::{self, PluginCommand};

use super::{Plugin, RegistryError};

/// How to run it.
#[derive(Debug, Clone, Default)]
pub struct ActionRun {
    /// Instead of the plugin root.
    pub cwd: Option<PathBuf>,
    pub timeout: Option<Duration>,
    /// Copy the action's output to the terminal as it arrives.
    pub echo: bool,
    /// Once set, the action is killed as at its time limit (an MCP client cancelling).
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// Runs action `action_id` of `plugin`.
pub fn run(
    plugin: &Plugin,
    action_id: &str,
    how: &ActionRun,
) -> Result<PluginActionOutput, RegistryError> {
    let actions = &plugin.valid.manifest.actions;
    let action = actions
        .iter()
        .find(|a| a.id.as_deref() == Some(action_id))
        .ok_or_else(|| RegistryError::NoSuchAction {
            plugin: plugin.id().to_string(),
            action: action_id.to_string(),
            known: actions.iter().filter_map(|a| a.id.clone()).collect(),
        })?;
    if !plugin.entry.enabled {
        return Err(RegistryError::Disabled {
            id: plugin.id().to_string(),
        });
    }
    // Validation guarantees a non-empty argv.
    let argv = action.command.clone().unwrap_or_default();
    let cwd = how
        .cwd
        .clone()
        .unwrap_or_else(|| plugin.valid.plugin_root.clone());
    let command = PluginCommand {
        argv: argv.clone(),
        cwd: cwd.clone(),
        env: plugin_env(plugin, "PHUX_PLUGIN_ACTION_ID", action_id),
        stdin: None,
        timeout: how.timeout,
        echo: how.echo,
        cancel: how.cancel.clone(),
    };
    let done = plugin_exec::run(&command).map_err(|source| RegistryError::Spawn {
        plugin: plugin.id().to_string(),
        what: action_id.to_string(),
        program: argv.first().cloned().unwrap_or_default(),
        source,
    })?;
    Ok(PluginActionOutput {
        schema_version: PLUGIN_ACTION_SCHEMA_VERSION,
        plugin_id: plugin.id().to_string(),
        action_id: action_id.to_string(),
        command: argv,
        cwd: cwd.display().to_string(),
        outcome: if done.timed_out {
            ActionOutcome::TimedOut
        } else {
            ActionOutcome::Completed
        },
        exit_code: done.exit_code,
        stdout: String::from_utf8_lossy(&done.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&done.stderr).into_owned(),
        duration_ms: u64::try_from(done.duration.as_millis()).unwrap_or(u64::MAX),
    })
}

/// `PHUX_PLUGIN_ID`, `PHUX_PLUGIN_ROOT` and the one id variable of what runs.
pub fn plugin_env(plugin: &Plugin, id_var: &str, id: &str) -> Vec<(String, String)> {
    vec![
        ("PHUX_PLUGIN_ID".into(), plugin.id().to_string()),
        (id_var.into(), id.to_string()),
        (
            "PHUX_PLUGIN_ROOT".into(),
            plugin.valid.plugin_root.display().to_string(),
        ),
    ]
}
