//! `phux agent list [--json]`: every pane with an agent (a record, an ask, or a detected
//! agent), as AgentStateJson; the prose form is one line per agent.

use phux_core::exit_code::SUCCESS;

use crate::client::agents;
use crate::commands::agent::show::summary_line;
use crate::commands::values::connect;
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// List the panes that hold an agent and what state each is in
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print an AgentStateJson document
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let mut client = connect(context)?;
    let document = agents::list(&mut client)?;
    if args.json {
        output::print_json(&document);
    } else {
        let lines: Vec<String> = document.agents.iter().map(summary_line).collect();
        if lines.is_empty() {
            // Say so, on stderr: stdout stays the (empty) list a script reads.
            output::stderr_line(
                "no pane holds an agent (none declared with `phux agent set`, asking, or detected)",
            );
        }
        output::print_lines(&lines);
    }
    Ok(SUCCESS)
}
