//! `phux swap-pane FIRST SECOND [--json]`: exchanges the places of two panes. Also holds the
//! reporting the three layout edits share.

use phux_core::exit_code::SUCCESS;

use crate::client::layout::{edit, SpatialRequest};
use crate::client::target;
use crate::commands::values::connect;
use crate::commands::Context;
use crate::failure::{conclude, Failure, VerbResult};
use crate::output;

/// Swap the places of two panes of one session
#[derive(Debug, clap::Args)]
pub struct Args {
    /// One pane
    #[arg(value_name = "FIRST")]
    pub first: String,
    /// The other pane
    #[arg(value_name = "SECOND")]
    pub second: String,
    /// Print a SpatialEditJson document
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let request = SpatialRequest::Swap {
        first: target::parse(&args.first)?,
        second: target::parse(&args.second)?,
    };
    send_edit(request, args.json, context)
}

/// Offline checks, then the edit; prints `SpatialEditJson` with `--json`, nothing otherwise.
/// A partial-fleet miss keeps its `partial_view` code but exits 1 (layout edits spend only
/// 0, 1 and 2).
pub(crate) fn send_edit(request: SpatialRequest, json: bool, context: &Context) -> VerbResult {
    request.check_offline()?;
    let mut client = connect(context)?;
    let document =
        edit(&mut client, request).map_err(|e| Failure::from(e).partial_view_exits_1())?;
    if json {
        output::print_json(&document);
    }
    Ok(SUCCESS)
}
