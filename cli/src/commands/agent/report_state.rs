//! `phux agent report-state TARGET working|blocked|done`: what an agent's hook calls to declare
//! its own state (creating a record when the pane has none). Silent on success.

use phux_core::agents::AgentState;
use phux_core::exit_code::SUCCESS;

use crate::client::{agents, target};
use crate::commands::values::{connect, resolve_agent_pane};
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};

/// Declare an agent's state from its hook (working, blocked or done)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pane (a hook addresses its own as @$PHUX_TERMINAL_ID)
    #[arg(value_name = "TARGET")]
    pub target: String,
    /// working, blocked or done
    #[arg(value_name = "STATE", value_parser = reportable)]
    pub state: AgentState,
}

fn reportable(text: &str) -> Result<AgentState, String> {
    match text.parse::<AgentState>() {
        Ok(state @ (AgentState::Working | AgentState::Blocked | AgentState::Done)) => Ok(state),
        _ => Err(format!("expected working, blocked or done, got {text:?}")),
    }
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(false, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let selector = target::parse(&args.target)?;
    let mut client = connect(context)?;
    let pane = resolve_agent_pane(&mut client, &selector, "agent report-state")?;
    agents::report_state(&mut client, pane, args.state)?;
    Ok(SUCCESS)
}
