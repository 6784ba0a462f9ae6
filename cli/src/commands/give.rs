//! `phux give TARGET [--as NAME] [--json]`: gives back the pane's input lease. Given by someone
//! who does not hold it, it is refused (`input_lease_held`, exit 2) and nothing changes; a pane
//! nobody holds is given back already (exit 0, a note says so).

use phux_core::exit_code::SUCCESS;

use crate::client::lease;
use crate::commands::take::leased_pane;
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Give back a pane's input lease
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The holder giving it back [default: $PHUX_AS, else $USER]
    #[arg(long = "as", value_name = "NAME")]
    pub holder: Option<String>,
    /// Print {schema_version,terminal_id,lease,note}
    #[arg(long)]
    pub json: bool,
    /// The pane
    #[arg(value_name = "TARGET")]
    pub target: String,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let (mut client, pane) = leased_pane(&args.target, context)?;
    let holder = args.holder.clone().unwrap_or_else(lease::default_holder);
    let answer = lease::give(&mut client, pane, &holder)?;
    if args.json {
        output::print_json(&serde_json::json!({
            "schema_version": 1,
            "terminal_id": pane,
            "lease": answer.lease,
            "note": answer.note,
        }));
    } else if let Some(note) = &answer.note {
        output::warn(&phux_core::limits::for_display(note));
    } else {
        output::print_line(&format!(
            "{pane} given back: anyone's input reaches it again"
        ));
    }
    Ok(SUCCESS)
}
