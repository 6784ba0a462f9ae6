//! `phux wait [TARGET]`: until text appears (`--until` / `--regex`, matched against soft-wrap
//! joined lines) or the screen settles (`--idle`). Exit 0 when met, 124 on `--timeout` (with
//! `--json` the final ScreenState is still printed), 2 for a usage error or a bad regex.
//! Driven by the pane's change notices, not by a polling loop. `--new` / `--after MARK` match
//! text only in output written after the wait began / after a mark another verb reported.
//! With `--json` the ScreenState carries additive keys: `met`, `matched`, `match {text,row}` and, with
//! `--tail N`, `tail_lines` (the last N non-blank-trailing rows).

use std::time::Duration;

pub use phux_client::verbs::wait::{wait_for, WaitOptions, Waited};
use phux_core::error_code::ErrorCode;
use phux_core::exit_code::SUCCESS;

use crate::commands::values::parse_seconds;
use crate::commands::Context;
use crate::failure::{conclude, Failure, VerbResult};
use crate::output;

/// Wait until text appears on a pane or its screen settles
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Wait until a line contains TEXT. Lines are matched as the terminal shows them: soft
    /// wraps joined, right-trimmed, but the cursor's line keeps its blanks up to the cursor
    /// (`--until '>>> '` matches a waiting Python prompt)
    #[arg(long, value_name = "TEXT")]
    pub until: Option<String>,
    /// Wait until a line matches the regular expression RE
    #[arg(long, value_name = "RE")]
    pub regex: Option<String>,
    /// Wait until the screen has not changed for MS milliseconds (alone: 500); with --after or
    /// --new, until the pane wrote something after the mark and then stayed quiet that long
    /// (a full-screen program done redrawing after a key)
    #[arg(long, value_name = "MS")]
    pub idle: Option<u64>,
    /// Match (and print) the last N rows of history+viewport (bare: 80; 0: all, capped at
    /// 10000)
    #[arg(long, value_name = "N", num_args = 0..=1)]
    pub tail: Option<Option<String>>,
    /// Match --until/--regex (or count --idle) only in output that arrives after the wait began
    #[arg(long)]
    pub new: bool,
    /// Match --until/--regex only in the program's output after MARK (the `mark` send-keys,
    /// paste, run or snapshot --json reported): what was typed and its echo never count, and
    /// the line matched is one on the screen as it stands
    #[arg(long, value_name = "MARK")]
    pub after: Option<u64>,
    /// Ignore rows holding typed input (needs a shell that emits OSC 133 marks)
    #[arg(long)]
    pub output_only: bool,
    /// Give up after SECS seconds and exit 124 [default: never; 0: check once]
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Print the final ScreenState v3 document (also on timeout), with met, matched,
    /// match{text,row} and, with --tail N, tail_lines
    #[arg(long)]
    pub json: bool,
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

impl Args {
    /// The operation's options, as the flags give them.
    pub fn options(&self) -> WaitOptions {
        WaitOptions {
            until: self.until.clone(),
            regex: self.regex.clone(),
            idle: self.idle,
            tail: self.tail.clone(),
            new: self.new,
            after: self.after,
            output_only: self.output_only,
            timeout: self.timeout,
            target: self.target.clone(),
        }
    }
}

fn execute(args: Args, context: &Context) -> VerbResult {
    let json = args.json;
    let timeout = args.timeout;
    let target = args.target.clone().unwrap_or_default();
    let waited = wait_for(args.options(), context, None)?;
    let document = serde_json::to_value(waited.document()).unwrap_or_default();
    conclude_wait(&waited, &document, json, timeout, &target)
}

/// Prints how a wait ended (`document` with `--json`, the rows looked at with `--tail`) and
/// says why one that was not met ended: `wait` and `send-keys --wait-*` alike.
pub fn conclude_wait(
    waited: &Waited,
    document: &serde_json::Value,
    json: bool,
    timeout: Option<Duration>,
    target: &str,
) -> VerbResult {
    if json {
        output::print_json(document);
    } else if let Some(n) = waited.tail {
        // The rows the wait looked at, as `snapshot --tail N` prints them.
        output::print_lines(&phux_client::verbs::wait_json::last_rows(&waited.state, n));
    }
    if waited.met {
        return Ok(SUCCESS);
    }
    // The document (the contract's outcome) is on stdout; the typed line says why it ended.
    let secs = timeout.unwrap_or_default().as_secs_f64();
    // A satellite's pane is named as given (`devbox/@1`): its bare id is another pane here.
    let pane = if target.contains('/') {
        target.to_owned()
    } else {
        waited.pane.to_string()
    };
    let failure = Failure::new(
        ErrorCode::WaitTimedOut,
        format!("wait timed out after {secs}s on {pane}"),
        format!(
            "read what the pane shows (`phux snapshot {pane}`), then wait again with a longer --timeout or another condition"
        ),
    );
    Ok(failure.report(json))
}
