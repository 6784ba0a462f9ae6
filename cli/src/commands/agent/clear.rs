//! `phux agent clear [TARGET]`: deletes the pane's `phux.agent/v1` record. Prints `@N<TAB>-`.

use phux_core::exit_code::SUCCESS;

use crate::client::{agents, target};
use crate::commands::values::{connect, resolve_agent_pane};
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Delete a pane's agent record
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pane [default: the active pane]
    #[arg(value_name = "TARGET")]
    pub target: Option<String>,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(false, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let selector = target::parse(args.target.as_deref().unwrap_or("."))?;
    let mut client = connect(context)?;
    let pane = resolve_agent_pane(&mut client, &selector, "agent clear")?;
    agents::clear(&mut client, pane)?;
    output::print_line(&format!("{pane}\t-"));
    Ok(SUCCESS)
}
