//! `phux plugin list [--json]`: every registered plugin and what its manifest declares.

use phux_core::documents::{PluginListJson, PLUGIN_SCHEMA_VERSION};
use phux_core::exit_code::SUCCESS;

use crate::failure::{conclude, VerbResult};
use crate::output;

/// List the registered plugins
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the registry as JSON (§4.5)
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> i32 {
    conclude(args.json, execute(args.json))
}

fn execute(json: bool) -> VerbResult {
    let plugins = super::registered()?;
    let document = PluginListJson {
        schema_version: PLUGIN_SCHEMA_VERSION,
        valid: None,
        plugins: plugins.iter().map(crate::registry::Plugin::json).collect(),
        warnings: Vec::new(),
    };
    if json {
        output::print_json(&document);
    } else {
        let lines: Vec<String> = document.plugins.iter().map(super::prose_line).collect();
        output::print_lines(&lines);
    }
    Ok(SUCCESS)
}
