//! What `phux server` takes from the config file: `[defaults]` (shell, term, history,
//! flight recorder, cwd inheritance, the first session's name) and the enabled plugins' event
//! hooks. A config file that cannot be read or a plugin that fails its checks is reported on
//! stderr (the server's log when detached) and left out: the server still starts.

use std::time::Duration;

use phux_core::config::defaults::Defaults;
use phux_server::hooks::{Hook, HookTable};
use phux_server::ServerConfig;

use crate::output;
use crate::registry::{self, Plugin};

/// Fills `config` from the config file; returns its `[defaults]` for the flags that still
/// decide over it.
pub fn apply(config: &mut ServerConfig) -> Defaults {
    let loaded = match registry::load_config() {
        Ok(loaded) => loaded,
        Err(error) => {
            output::warn(&format!("{error}; starting with the built-in defaults"));
            return Defaults::default();
        }
    };
    for warning in &loaded.warnings {
        output::warn(&warning.to_string());
    }
    config.ws_addr = loaded.file.listener.ws_addr.clone();
    let defaults = loaded.file.defaults.clone();
    if let Some(shell) = defaults.shell.clone().filter(|s| !s.is_empty()) {
        config.default_shell = shell;
    }
    config.term = defaults.term_or_default().to_string();
    // `$PHUX_HISTORY_LIMIT` (read by `ServerConfig::new`) outranks the file.
    let env_history = std::env::var_os("PHUX_HISTORY_LIMIT").is_some();
    if let Some(rows) = defaults.history_limit.filter(|_| !env_history) {
        config.scrollback_rows = rows.clamp(1, phux_server::config::MAX_HISTORY_LIMIT);
    }
    if let Some(bytes) = defaults.flight_bytes {
        config.flight_bytes = bytes;
    }
    if let Some(cwd) = defaults.cwd_inheritance {
        config.cwd_inheritance = cwd;
    }
    if let Some(name) = defaults
        .session_name_template
        .clone()
        .filter(|n| !n.is_empty())
    {
        config.seed_session_name = name;
    }
    match registry::plugins(&loaded) {
        Ok(plugins) => config.hooks = hook_table(&plugins),
        Err(error) => output::warn(&format!("{error}; no plugin event hooks will run")),
    }
    defaults
}

/// The hook table the server runs: every `[[events]]` entry of every enabled plugin, unless
/// `PHUX_NO_HOOKS=1`. `PHUX_HOOK_TIMEOUT` (seconds) overrides each hook's time limit.
fn hook_table(plugins: &[Plugin]) -> HookTable {
    let mut table = HookTable::default();
    if std::env::var("PHUX_NO_HOOKS").is_ok_and(|v| v == "1") {
        return table;
    }
    if let Some(secs) = std::env::var("PHUX_HOOK_TIMEOUT")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|s| *s > 0.0 && s.is_finite())
    {
        table.timeout = Duration::from_secs_f64(secs);
    }
    for plugin in plugins.iter().filter(|p| p.entry.enabled) {
        for event in &plugin.valid.manifest.events {
            table.hooks.push(Hook {
                plugin_id: plugin.id().to_string(),
                hook_id: event.id.clone().unwrap_or_default(),
                on: event.on.clone().unwrap_or_default(),
                argv: event.command.clone().unwrap_or_default(),
                plugin_root: plugin.valid.plugin_root.clone(),
            });
        }
    }
    table
}
