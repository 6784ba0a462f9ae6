//! `phux snapshot [TARGET]`: one read of a pane's screen. `--json` prints ScreenState v3;
//! `--plain` the text alone (soft wraps joined, no frame); without either, a boxed view. `--tail` and `--unwrap` are projections made here over that one
//! read; the read itself never attaches, resizes or changes which pane is active.

pub use phux_client::verbs::snapshot::{plan, Plan};
use phux_core::documents::ScreenState;
use phux_core::exit_code::SUCCESS;

use crate::client::{screen, target};
use crate::commands::values::{connect, exclusive, resolve_single_pane};
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::{output, screen_view};

/// Print a pane's screen (boxed, or ScreenState v3 with --json)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print a ScreenState v3 document
    #[arg(long)]
    pub json: bool,
    /// Include history: bare or 0 = all retained rows, N = the last N rows
    #[arg(long, value_name = "N", num_args = 0..=1)]
    pub scrollback: Option<Option<String>>,
    /// Include the sparse styled and OSC 133 marked cells
    #[arg(long)]
    pub cells: bool,
    /// Keep the last N rows of history+viewport (bare: 80; 0: all, capped at 10000); the
    /// viewport is never cut
    #[arg(long, value_name = "N", num_args = 0..=1)]
    pub tail: Option<Option<String>>,
    /// Join soft-wrapped rows into logical lines (drops cells)
    #[arg(long)]
    pub unwrap: bool,
    /// Print the text alone: history (with --scrollback/--tail) then the screen, soft wraps
    /// joined, trailing blanks and blank last rows dropped, no frame
    #[arg(long, conflicts_with_all = ["json", "cells"])]
    pub plain: bool,
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
    if args.unwrap && args.cells {
        return Err(exclusive("unwrap", "cells"));
    }
    let plan = plan(args.scrollback, args.tail, args.target)?;
    let selector = target::parse(&plan.target)?;
    let mut client = connect(context)?;
    let pane = resolve_single_pane(&mut client, &selector)?;
    let mut state = screen::get_screen(&mut client, pane, plan.scrollback, args.cells)?;
    if let Some(n) = plan.tail {
        state = state.tail(n);
    }
    if args.unwrap || args.plain {
        state = state.unwrap();
    }
    if args.plain {
        output::print_lines(&plain(&state));
        return Ok(SUCCESS);
    }
    match (client.route(), args.json) {
        (Some(host), false) => {
            let name = phux_core::ids::TerminalAddr::remote(host, state.pane).to_string();
            output::print_lines(&screen_view::boxed_as(&state, &name));
        }
        _ => print(&state, args.json),
    }
    Ok(SUCCESS)
}

/// The document with `--json`, the boxed view otherwise.
pub fn print(state: &ScreenState, json: bool) {
    if json {
        output::print_json(state);
    } else {
        output::print_lines(&screen_view::boxed(state));
    }
}

/// The text of `state` (already unwrapped), history first, each row right-trimmed and escaped
/// for the reader's terminal, without the blank rows below the last one written.
fn plain(state: &ScreenState) -> Vec<String> {
    let mut rows: Vec<String> = state
        .scrollback
        .iter()
        .chain(&state.lines)
        .map(|row| phux_core::limits::for_display(row.trim_end()).into_owned())
        .collect();
    while rows.last().is_some_and(String::is_empty) {
        rows.pop();
    }
    rows
}
