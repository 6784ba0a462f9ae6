//! `phux agent wait [TARGET] [--until STATE]... [--timeout SECS] [--json]`: waits for the pane's
//! agent to move into one of the states (default idle, blocked, done). Exit 0 on an observed
//! transition, 124 on timeout (the document still goes to stdout with --json), 2 when the pane
//! has no agent record, 1 when the agent departs mid-wait.

use std::time::Duration;

use phux_core::agents::AgentState;
use phux_core::exit_code::{SUCCESS, WAIT_TIMEOUT};

use crate::client::agent_wait::agent_wait;
use crate::client::target;
use crate::commands::values::{connect, parse_seconds, resolve_agent_pane};
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Wait until a pane's agent moves into a state (an observed transition, not the current level)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A state to wait for; repeat for several [default: idle, blocked, done]
    #[arg(long, value_name = "STATE")]
    pub until: Vec<AgentState>,
    /// Give up after SECS seconds and exit 124 [default: never]
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Print an AgentWaitJson document (also on timeout)
    #[arg(long)]
    pub json: bool,
    /// The pane [default: the active pane]
    #[arg(value_name = "TARGET")]
    pub target: Option<String>,
}

pub fn run(args: Args, context: &Context) -> i32 {
    // A shared-resolver verb: a partial view keeps exit 1 (§5.2).
    conclude(
        args.json,
        execute(args, context).map_err(crate::failure::Failure::partial_view_exits_1),
    )
}

fn execute(args: Args, context: &Context) -> VerbResult {
    let selector = target::parse(args.target.as_deref().unwrap_or("."))?;
    let mut client = connect(context)?;
    let pane = resolve_agent_pane(&mut client, &selector, "agent wait")?;
    let wanted = if args.until.is_empty() {
        vec![AgentState::Idle, AgentState::Blocked, AgentState::Done]
    } else {
        args.until
    };
    let document = agent_wait(&mut client, &context.socket, pane, wanted, args.timeout)?;
    if args.json {
        output::print_json(&document);
    }
    match &document.edge {
        Some(edge) => {
            if !args.json {
                let confidence = document.detection.as_ref().map_or(0.0, |d| d.confidence);
                output::print_line(&format!(
                    "{}\t{}\t{} -> {}\tvia {}\t{confidence:.2}",
                    document.terminal, document.agent.name, edge.from, edge.to, edge.via
                ));
            }
            Ok(SUCCESS)
        }
        None => {
            if !args.json {
                let secs = args.timeout.unwrap_or_default().as_secs_f64();
                output::stderr_line(&format!(
                    "phux: agent wait timed out after {secs}s on {pane} (baseline {}, now {}; no wanted transition was observed)",
                    document.baseline, document.state
                ));
            }
            Ok(WAIT_TIMEOUT)
        }
    }
}
