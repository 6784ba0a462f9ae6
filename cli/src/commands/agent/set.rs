//! `phux agent set TARGET --name N [--kind K] [--state S] [--attention A] [--session ID]`:
//! declares the pane's agent in its `phux.agent/v1` record. A declared state outranks what the
//! screen detector derives. Prints `@N<TAB>RECORD-JSON`.

use phux_core::agents::{AgentState, Attention, AGENT_KINDS};
use phux_core::exit_code::SUCCESS;

use crate::client::agents::{self, Declaration};
use crate::client::target;
use crate::commands::values::{connect, resolve_agent_pane};
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Declare the agent in a pane (its phux.agent/v1 record)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Who this is (`reviewer`, `codex`)
    #[arg(long, value_name = "N")]
    pub name: String,
    /// codex, claude, opencode, pi, omp, plugin, declared or unknown [default: the detected
    /// kind, else declared]
    #[arg(long, value_name = "K", value_parser = clap::builder::PossibleValuesParser::new(AGENT_KINDS))]
    pub kind: Option<String>,
    /// unknown, idle, working, blocked or done (outranks the detector)
    #[arg(long, value_name = "S")]
    pub state: Option<AgentState>,
    /// none, low, normal or high [default: derived from the state]
    #[arg(long, value_name = "A")]
    pub attention: Option<Attention>,
    /// The agent's own session id
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// The pane [default: the active pane]
    #[arg(value_name = "TARGET")]
    pub target: Option<String>,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(false, execute(args, context))
}

fn execute(args: Args, context: &Context) -> VerbResult {
    let selector = target::parse(args.target.as_deref().unwrap_or("."))?;
    let mut client = connect(context)?;
    let pane = resolve_agent_pane(&mut client, &selector, "agent set")?;
    let record = agents::set(
        &mut client,
        pane,
        Declaration {
            name: args.name,
            kind: args.kind,
            state: args.state,
            attention: args.attention,
            session: args.session,
        },
    )?;
    let json = serde_json::to_string(&record).unwrap_or_default();
    output::print_line(&format!("{pane}\t{json}"));
    Ok(SUCCESS)
}
