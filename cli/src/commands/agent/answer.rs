//! `phux agent answer TARGET --id ID (--choice N | --text T) [--allow-unlisted] [--json]`:
//! answers the ask active on the pane, typing the answer the way the occupant takes it: a
//! numbered dialog (claude, codex) takes the number, an arrow-driven one (opencode, pi, omp)
//! takes arrows and Enter, anything else the answer's text and Enter.

use phux_client::verbs::agent::answer::{document, AnswerOptions};
use phux_core::exit_code::SUCCESS;

use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Answer the question a pane's agent is asking
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The ask's id (as `agent show` or `watch` reported it)
    #[arg(long, value_name = "ID")]
    pub id: String,
    /// Pick the Nth suggested answer (1-based)
    #[arg(long, value_name = "N", conflicts_with = "text")]
    pub choice: Option<usize>,
    /// Answer with this text
    #[arg(long, value_name = "T")]
    pub text: Option<String>,
    /// Allow a --text that is not one of the suggestions
    #[arg(long)]
    pub allow_unlisted: bool,
    /// Print the answer document
    #[arg(long)]
    pub json: bool,
    /// The pane
    #[arg(value_name = "TARGET")]
    pub target: String,
}

pub fn run(args: Args, context: &Context) -> i32 {
    // A shared-resolver verb: a partial view keeps exit 1 (§5.2).
    conclude(
        args.json,
        execute(args, context).map_err(crate::failure::Failure::partial_view_exits_1),
    )
}

impl Args {
    /// The operation's options, as the flags give them.
    pub fn options(&self) -> AnswerOptions {
        AnswerOptions {
            id: self.id.clone(),
            choice: self.choice,
            text: self.text.clone(),
            allow_unlisted: self.allow_unlisted,
            target: self.target.clone(),
        }
    }
}

fn execute(args: Args, context: &Context) -> VerbResult {
    let json = args.json;
    let document = document(args.options(), context)?;
    if json {
        output::print_json(&document);
    }
    Ok(SUCCESS)
}
