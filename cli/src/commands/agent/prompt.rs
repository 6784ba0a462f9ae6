//! `phux agent prompt TARGET TEXT [--expect-agent N] [--expect-kind K] [--wait [--until S]...
//! [--timeout SECS]] [--json]`: one line typed and submitted to an agent after the occupant
//! check, then optionally the `agent wait` edge rule, in one document. With `--wait` the wait
//! is subscribed before the line is typed, so the agent's first transition cannot be missed.

use std::time::Duration;

use phux_client::verbs::agent::prompt::{document, timed_out, PromptOptions};
use phux_core::agents::AgentState;
use phux_core::exit_code::{SUCCESS, WAIT_TIMEOUT};

use crate::commands::values::parse_seconds;
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Type one line into an agent and submit it, optionally waiting for its answer
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Refuse (agent_mismatch) unless the pane's agent record has this name
    #[arg(long, value_name = "N")]
    pub expect_agent: Option<String>,
    /// Refuse (agent_mismatch) unless the pane's agent record has this kind
    #[arg(long, value_name = "K")]
    pub expect_kind: Option<String>,
    /// After submitting, wait for a transition (see `agent wait`)
    #[arg(long)]
    pub wait: bool,
    /// A state to wait for; repeat for several [default: idle, blocked, done] (needs --wait)
    #[arg(long, value_name = "STATE", requires = "wait")]
    pub until: Vec<AgentState>,
    /// Give up waiting after SECS seconds and exit 124 (needs --wait) [default: never]
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, requires = "wait")]
    pub timeout: Option<Duration>,
    /// Print the prompt document (also on a wait timeout)
    #[arg(long)]
    pub json: bool,
    /// The pane
    #[arg(value_name = "TARGET")]
    pub target: String,
    /// The prompt: one line
    #[arg(value_name = "TEXT")]
    pub text: String,
}

pub fn run(args: Args, context: &Context) -> i32 {
    // A shared-resolver verb: a partial view keeps exit 1 (§5.2).
    conclude(
        args.json,
        execute(args, context).map_err(crate::failure::Failure::partial_view_exits_1),
    )
}

fn execute(args: Args, context: &Context) -> VerbResult {
    let json = args.json;
    let document = document(args.options(), context)?;
    let pane = document.terminal.clone();
    if json {
        output::print_json(&document);
    }
    if timed_out(&document) {
        if !json {
            output::stderr_line(&format!(
                "phux: the prompt was delivered, but no wanted transition was observed on {pane} before the timeout"
            ));
        }
        return Ok(WAIT_TIMEOUT);
    }
    if let (false, Some(edge)) = (json, &document.edge) {
        output::print_line(&format!(
            "{pane}\t{}\t{} -> {}\tvia {}",
            document.agent.name, edge.from, edge.to, edge.via
        ));
    }
    Ok(SUCCESS)
}

impl Args {
    /// The operation's options, as the flags give them.
    pub fn options(&self) -> PromptOptions {
        PromptOptions {
            expect_agent: self.expect_agent.clone(),
            expect_kind: self.expect_kind.clone(),
            wait: self.wait,
            until: self.until.clone(),
            timeout: self.timeout,
            target: self.target.clone(),
            text: self.text.clone(),
        }
    }
}
