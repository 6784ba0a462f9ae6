//! `phux move-pane SOURCE TARGET [--split h|v] [--ratio R] [--json]`: moves SOURCE next to
//! TARGET, across sessions too (the pane keeps its process, scrollback and id).

use phux_core::split::DEFAULT_RATIO;

use crate::client::layout::SpatialRequest;
use crate::client::target;
use crate::commands::values::SplitArg;
use crate::commands::{swap_pane, Context};
use crate::failure::{conclude, VerbResult};

/// Move a pane next to another one, possibly in another session
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pane to move
    #[arg(value_name = "SOURCE")]
    pub source: String,
    /// The pane to move it next to
    #[arg(value_name = "TARGET")]
    pub target: String,
    /// The divider: horizontal (stacked) or vertical (side by side)
    #[arg(long, value_enum, default_value_t = SplitArg::Horizontal)]
    pub split: SplitArg,
    /// SOURCE's share of the space, strictly between 0 and 1
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
    let request = SpatialRequest::Move {
        source: target::parse(&args.source)?,
        target: target::parse(&args.target)?,
        split: args.split.into(),
        ratio: args.ratio,
    };
    swap_pane::send_edit(request, args.json, context)
}
