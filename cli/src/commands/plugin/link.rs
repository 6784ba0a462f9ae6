//! `phux plugin link PATH [--disabled] [--json]`: registers a plugin directory (or its
//! manifest) in the config file, after checking the manifest. Keys the manifest holds that phux
//! does not know are warnings on stderr, never a refusal.

use std::path::PathBuf;

use phux_core::exit_code::SUCCESS;

use crate::failure::{conclude, VerbResult};
use crate::output;
use crate::registry::{self, edit};

/// Register a plugin directory (or its phux-plugin.toml) in the config file
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The plugin directory, or its manifest
    #[arg(value_name = "PATH")]
    pub path: PathBuf,
    /// Register it turned off
    #[arg(long)]
    pub disabled: bool,
    /// Print {"plugin": ...} as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> i32 {
    conclude(args.json, execute(&args))
}

fn execute(args: &Args) -> VerbResult {
    let plugin = edit::link(&args.path, !args.disabled)?;
    for warning in plugin.warnings() {
        output::warn(&registry::warning_line(&warning));
    }
    super::print_wrapped(&plugin, args.json, "linked");
    Ok(SUCCESS)
}
