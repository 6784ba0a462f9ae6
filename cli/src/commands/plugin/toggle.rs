//! `phux plugin enable ID` and `phux plugin disable ID`: flips `enabled` in the plugin's entry.
//! A disabled plugin's actions, hooks and integrations do not run.

use phux_core::exit_code::SUCCESS;

use crate::failure::{conclude, VerbResult};
use crate::registry::edit;

/// Turn a registered plugin on
#[derive(Debug, clap::Args)]
pub struct EnableArgs {
    #[arg(value_name = "ID")]
    pub id: String,
    /// Print {"plugin": ...} as JSON
    #[arg(long)]
    pub json: bool,
}

/// Turn a registered plugin off (its entry stays)
#[derive(Debug, clap::Args)]
pub struct DisableArgs {
    #[arg(value_name = "ID")]
    pub id: String,
    /// Print {"plugin": ...} as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(id: &str, enabled: bool, json: bool) -> i32 {
    conclude(json, execute(id, enabled, json))
}

fn execute(id: &str, enabled: bool, json: bool) -> VerbResult {
    let plugin = edit::set_enabled(id, enabled)?;
    super::print_wrapped(&plugin, json, if enabled { "enabled" } else { "disabled" });
    Ok(SUCCESS)
}
