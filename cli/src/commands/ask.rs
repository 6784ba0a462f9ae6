//! `phux ask TARGET QUESTION`: reports that the pane's program is asking a question (the same
//! `asked` event a `phux-ask[ID]:QUESTION??s=A|B` title raises), for watchers to surface.

use phux_core::exit_code::SUCCESS;

use crate::client::pane::{self, Ask};
use crate::client::target;
use crate::commands::values::{connect, resolve_pane};
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Report that a pane is asking a question
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The ask's id, so an answer can name it
    #[arg(long, value_name = "ID", default_value = "")]
    pub id: String,
    /// A suggested answer; repeat for several
    #[arg(long = "suggest", value_name = "TEXT")]
    pub suggest: Vec<String>,
    /// How long the question has been waiting already
    #[arg(long, value_name = "N")]
    pub elapsed_seconds: Option<u64>,
    /// Print the ask as a JSON document
    #[arg(long)]
    pub json: bool,
    /// The pane asking
    #[arg(value_name = "TARGET")]
    pub target: String,
    /// The question
    #[arg(value_name = "QUESTION")]
    pub question: String,
}

pub fn run(args: Args, context: &Context) -> i32 {
    // A shared-resolver verb: a partial view keeps exit 1 (§5.2).
    conclude(
        args.json,
        execute(args, context).map_err(crate::failure::Failure::partial_view_exits_1),
    )
}

fn execute(args: Args, context: &Context) -> VerbResult {
    let selector = target::parse(&args.target)?;
    let mut client = connect(context)?;
    let pane = resolve_pane(&mut client, &selector)?;
    let mut document = pane::ask(
        &mut client,
        pane,
        Ask {
            id: args.id,
            question: args.question,
            suggestions: args.suggest,
            elapsed_seconds: args.elapsed_seconds,
        },
    )?;
    // A satellite pane is named as the hub addresses it.
    if let Some(host) = client.route() {
        document.terminal.host = Some(host.to_owned());
    }
    if args.json {
        output::print_json(&document);
    }
    Ok(SUCCESS)
}
