//! `phux insert-pane TARGET NEW_PANE [--split h|v] [--ratio R] [--json]`: places NEW_PANE next
//! to TARGET, in TARGET's session. Refusals are exit 2: those decided before sending
//! (`invalid_ratio`, `same_pane`, `selector_not_single`, ...) and the server's `cross_session`
//! and `pane_already_in_layout` (§4.12: a pane with a place is moved by move-pane, not here;
//! every pane phux runs today has a place, so this refusal is what insert-pane answers).

use phux_core::split::DEFAULT_RATIO;

use crate::client::layout::SpatialRequest;
use crate::client::target;
use crate::commands::values::SplitArg;
use crate::commands::{swap_pane, Context};
use crate::failure::{conclude, VerbResult};

/// Place an unplaced pane next to a pane of its session (placed ones: move-pane)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pane to place the new one next to
    #[arg(value_name = "TARGET")]
    pub target: String,
    /// The pane to place
    #[arg(value_name = "NEW_PANE")]
    pub new_pane: String,
    /// The divider: horizontal (stacked) or vertical (side by side)
    #[arg(long, value_enum, default_value_t = SplitArg::Horizontal)]
    pub split: SplitArg,
    /// NEW_PANE's share of the space, strictly between 0 and 1
    #[arg(long, default_value_t = DEFAULT_RATIO, allow_negative_numbers = true)]
    pub ratio: f64,
    /// Print a SpatialEditJson document
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let request = SpatialRequest::Insert {
        target: target::parse(&args.target)?,
        new_pane: target::parse(&args.new_pane)?,
        split: args.split.into(),
        ratio: args.ratio,
    };
    swap_pane::send_edit(request, args.json, context)
}
