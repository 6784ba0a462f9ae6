//! `phux config agents [--json]`: the agents plugins declare (`[[agents]]`), merged with the
//! live agent records when a server answers (§4.6, schema 2).

pub use phux_client::configured_agents::document;
use phux_core::exit_code::SUCCESS;

use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// The agents plugins declare, with their live state when a server runs
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print a ConfiguredAgentsJson document
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let document = document(context)?;
    if args.json {
        output::print_json(&document);
    } else {
        let lines: Vec<String> = document
            .agents
            .iter()
            .map(|a| {
                format!(
                    "{}/{}\t{}\t{}\t{}",
                    a.plugin_id,
                    a.id,
                    a.state,
                    a.attention,
                    a.runtime
                        .as_ref()
                        .map_or_else(|| "manifest".to_string(), |r| r.terminal.clone())
                )
            })
            .collect();
        output::print_lines(&lines);
    }
    Ok(SUCCESS)
}
