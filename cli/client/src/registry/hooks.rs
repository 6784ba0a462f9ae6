//! The hook table a server runs: every `[[events]]` entry of every enabled plugin, unless
//! `PHUX_NO_HOOKS=1`. `PHUX_HOOK_TIMEOUT` (seconds) overrides each hook's time limit.

use std::time::Duration;

use phux_server::hooks::{Hook, HookTable};

use super::Plugin;

pub fn table(plugins: &[Plugin]) -> HookTable {
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
