//! `phux plugin update [ID] [--json]`: re-fetches installed plugins from their `plugins.lock`,
//! rebuilds and revalidates them; a fetched plugin whose id changed is refused.

use phux_core::documents::{PluginListJson, PLUGIN_SCHEMA_VERSION};
use phux_core::exit_code::SUCCESS;

use crate::failure::{conclude, VerbResult};
use crate::output;
use crate::registry::{self, install};

/// Re-fetch, rebuild and revalidate installed plugins from their plugins.lock
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only this plugin [default: every installed one]
    #[arg(value_name = "ID")]
    pub id: Option<String>,
    /// Print {"plugin": ...} (one) or {"plugins": [...]} (all) as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> i32 {
    conclude(args.json, execute(&args))
}

fn execute(args: &Args) -> VerbResult {
    let plugins = super::registered()?;
    if let Some(id) = &args.id {
        let updated = install::update(registry::find(&plugins, id)?)?;
        super::print_wrapped(&updated, args.json, "updated");
        return Ok(SUCCESS);
    }
    let mut updated = Vec::new();
    for plugin in plugins.iter().filter(|p| install::is_installed(p)) {
        updated.push(install::update(plugin)?.json());
    }
    if args.json {
        output::print_json(&PluginListJson {
            schema_version: PLUGIN_SCHEMA_VERSION,
            valid: None,
            plugins: updated,
            warnings: Vec::new(),
        });
    } else {
        let lines: Vec<String> = updated
            .iter()
            .map(|p| format!("updated {}", super::prose_line(p)))
            .collect();
        output::print_lines(&lines);
    }
    Ok(SUCCESS)
}
