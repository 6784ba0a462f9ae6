//! `phux plugin validate [ID] [--json]`: checks every registered manifest (or one), each problem
//! on its own line. Any problem is a failure: exit 1, nothing on stdout. A key a manifest holds
//! that phux does not know is a warning (file:line on stderr, and in the document's `warnings`),
//! never a failure.

use phux_core::documents::{PluginListJson, PLUGIN_SCHEMA_VERSION};
use phux_core::exit_code::SUCCESS;

use crate::failure::{conclude, VerbResult};
use crate::output;
use crate::registry;

/// Check the registered plugins' manifests
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only this plugin
    #[arg(value_name = "ID")]
    pub id: Option<String>,
    /// Print the registry with "valid": true as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> i32 {
    conclude(args.json, execute(args.id.as_deref(), args.json))
}

fn execute(id: Option<&str>, json: bool) -> VerbResult {
    let plugins = super::registered()?;
    let chosen = match id {
        Some(id) => vec![registry::find(&plugins, id)?.clone()],
        None => plugins,
    };
    let document = PluginListJson {
        schema_version: PLUGIN_SCHEMA_VERSION,
        valid: Some(true),
        plugins: chosen.iter().map(registry::Plugin::json).collect(),
        warnings: chosen.iter().flat_map(registry::Plugin::warnings).collect(),
    };
    for warning in &document.warnings {
        output::warn(&registry::warning_line(warning));
    }
    if json {
        output::print_json(&document);
    } else {
        let lines: Vec<String> = document
            .plugins
            .iter()
            .map(|p| format!("ok\t{}", super::prose_line(p)))
            .collect();
        output::print_lines(&lines);
    }
    Ok(SUCCESS)
}
