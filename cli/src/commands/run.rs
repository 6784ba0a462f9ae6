//! `phux run TARGET COMMAND...`: runs COMMAND (its words joined by spaces) in the pane's shell,
//! prints its output and exits with its exit code (clamped to 0..=255); `--json` prints a
//! RunResult instead. On `--timeout` (default 600 s, 0 = never) it exits 125 with no document:
//! a diagnostic on stderr, or under `--json` the error line (`run_timed_out`). Once the line is
//! typed, every failure exits 125 (`server_disconnected`, ...): any status a child could
//! produce would lie. The one exception is the pane's own program ending under the command (a
//! shell's `exit 4`): `run` then exits with that program's status (1 when that status is 0:
//! there is no result), and under `--json` prints the `pane_exited` error line naming it.
//! Flags go before TARGET.

use std::time::Duration;

pub use phux_client::verbs::run::{run_in_pane, RunOptions};
use phux_core::exit_code::mirror_child_exit;

use crate::commands::values::parse_seconds;
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Run a shell command in a pane and mirror its exit code
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Give up after SECS seconds and exit 125, `run_timed_out` (0: never)
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, default_value = "600")]
    pub timeout: Duration,
    /// Print a RunResult document (its `mark` is MARK for `wait --after`)
    #[arg(long)]
    pub json: bool,
    /// Keep only the last N lines of the output (`truncated: true` when lines were cut)
    #[arg(long, value_name = "N")]
    pub tail: Option<usize>,
    /// Write the whole output to FILE (the document names it as `output_file`); `output` then
    /// holds only the --tail lines, if given
    #[arg(long, value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// The pane, running a POSIX shell (sh, dash, bash, zsh)
    #[arg(value_name = "TARGET")]
    pub target: String,
    /// The command line, its words joined by spaces
    #[arg(
        value_name = "COMMAND",
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    pub command: Vec<String>,
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
    let cut_to_tail = args.tail.is_some();
    let result = run_in_pane(args.options(), context, None)?;
    if json {
        output::print_json(&result);
    } else if !result.output.is_empty() {
        output::print_line(&result.output);
    }
    if result.truncated && !cut_to_tail {
        output::warn("the start of the output is no longer in the pane's history");
    }
    Ok(mirror_child_exit(result.exit_code))
}

impl Args {
    /// The operation's options, as the flags give them.
    pub fn options(&self) -> RunOptions {
        RunOptions {
            timeout: self.timeout,
            tail: self.tail,
            output: self.output.clone(),
            target: self.target.clone(),
            command: self.command.clone(),
        }
    }
}
