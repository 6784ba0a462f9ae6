//! `phux resize TARGET COLSxROWS [--json]`: sets a pane's grid and reports the size the server
//! holds afterwards. Exit 1 when it did not hold, and then the document is still printed.

use phux_core::documents::GridSize;
use phux_core::limits::check_grid;

use crate::client::{pane, target};
use crate::commands::values::{connect, parse_geometry, resolve_pane};
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Set a pane's grid size and print the size the server holds
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print a ResizeJson document (also when the size did not hold)
    #[arg(long)]
    pub json: bool,
    /// The pane
    #[arg(value_name = "TARGET")]
    pub target: String,
    /// The grid, e.g. 120x40 (each at least 1, at most 1000)
    #[arg(value_name = "COLSxROWS", value_parser = parse_geometry)]
    pub geometry: GridSize,
}

pub fn run(args: Args, context: &Context) -> i32 {
    // A shared-resolver verb: a partial view keeps exit 1 (§5.2).
    conclude(
        args.json,
        execute(&args, context).map_err(crate::failure::Failure::partial_view_exits_1),
    )
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    // Refused here as well as in the server, so the answer comes at once and without a server.
    check_grid(args.geometry.cols, args.geometry.rows)?;
    let selector = target::parse(&args.target)?;
    let mut client = connect(context)?;
    let pane = resolve_pane(&mut client, &selector)?;
    let mut document = pane::resize(&mut client, pane, args.geometry)?;
    // A satellite's pane is named as the hub addresses it: its bare id is another pane here.
    document.satellite = client.route().map(str::to_owned);
    if args.json {
        output::print_json(&document);
    } else {
        output::print_line(&format!(
            "{}x{}",
            document.applied.cols, document.applied.rows
        ));
    }
    Ok(document.exit_code())
}
