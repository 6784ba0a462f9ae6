//! `phux agent send-keys TARGET KEYS... [--expect-agent N] [--expect-kind K] [--json]`: keys
//! for an agent, after the occupant check (`agent_mismatch`, `no_agent_record`: nothing is
//! written). Silent on success like `send-keys`; `--json` prints the delivery document.

use phux_client::verbs::agent::send_keys::{document, AgentSendKeysOptions};
use phux_core::exit_code::SUCCESS;

use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Type keys into an agent's pane after checking who occupies it
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Refuse (agent_mismatch) unless the pane's agent record has this name
    #[arg(long, value_name = "N")]
    pub expect_agent: Option<String>,
    /// Refuse (agent_mismatch) unless the pane's agent record has this kind
    #[arg(long, value_name = "K")]
    pub expect_kind: Option<String>,
    /// Print the delivery document
    #[arg(long)]
    pub json: bool,
    /// The pane
    #[arg(value_name = "TARGET")]
    pub target: String,
    /// Key specs (Enter, C-c, Up, ...) or literal text
    #[arg(value_name = "KEYS", required = true)]
    pub keys: Vec<String>,
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
    if json {
        output::print_json(&document);
    }
    Ok(SUCCESS)
}

impl Args {
    /// The operation's options, as the flags give them.
    pub fn options(&self) -> AgentSendKeysOptions {
        AgentSendKeysOptions {
            expect_agent: self.expect_agent.clone(),
            expect_kind: self.expect_kind.clone(),
            target: self.target.clone(),
            keys: self.keys.clone(),
        }
    }
}
