//! `phux plugin unlink ID [--json]`: removes a plugin's entry from the config file (its files
//! stay). ID may also be the manifest's path, for an entry whose manifest is broken.

use phux_core::documents::{PluginRemovedJson, PLUGIN_SCHEMA_VERSION};
use phux_core::exit_code::SUCCESS;

use crate::failure::{conclude, VerbResult};
use crate::output;
use crate::registry::edit;

/// Remove a plugin from the config file (its files stay)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The plugin's id, or its manifest's path
    #[arg(value_name = "ID")]
    pub id: String,
    /// Print {"removed": ...} as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> i32 {
    conclude(args.json, execute(&args))
}

fn execute(args: &Args) -> VerbResult {
    let plugin = edit::unlink(&args.id)?;
    let document = PluginRemovedJson {
        schema_version: PLUGIN_SCHEMA_VERSION,
        removed: plugin.json(),
    };
    if args.json {
        output::print_json(&document);
    } else {
        output::print_line(&format!(
            "unlinked {}",
            super::prose_line(&document.removed)
        ));
    }
    Ok(SUCCESS)
}
