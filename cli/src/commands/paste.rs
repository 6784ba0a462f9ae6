//! `phux paste TARGET [TEXT]`: inserts TEXT (or all of stdin) as one paste, bracketed when the
//! pane asked for it, and never submits it (follow with `phux send-keys TARGET Enter`). With
//! `--json` it prints the pane and its output `mark` from just before the paste.

use std::io::Read;

pub use phux_client::verbs::paste::deliver;
use phux_core::error_code::ErrorCode;
use phux_core::exit_code::SUCCESS;

use crate::commands::Context;
use crate::failure::{conclude, Failure, VerbResult};
use crate::output;

/// Paste text into a pane without submitting it (stdin when TEXT is omitted)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print {schema_version,pane,mark,delivery,operation_id,bracketed} (MARK for `wait
    /// --after`); on failure, end stderr with one JSON error line
    #[arg(long)]
    pub json: bool,
    /// The pane
    #[arg(value_name = "TARGET")]
    pub target: String,
    /// The text [default: read all of stdin]
    #[arg(value_name = "TEXT", allow_hyphen_values = true)]
    pub text: Option<String>,
}

pub fn run(args: Args, context: &Context) -> i32 {
    // A shared-resolver verb: a partial view keeps exit 1 (§5.2).
    conclude(
        args.json,
        execute(args, context).map_err(crate::failure::Failure::partial_view_exits_1),
    )
}

fn execute(args: Args, context: &Context) -> VerbResult {
    let text = match args.text {
        Some(text) => text,
        None => read_stdin()?,
    };
    let document = deliver(context, &args.target, text)?;
    if args.json {
        output::print_json(&document);
    }
    Ok(SUCCESS)
}

/// All of stdin; bytes that are not UTF-8 become U+FFFD, with a warning.
fn read_stdin() -> Result<String, Failure> {
    let mut bytes = Vec::new();
    std::io::stdin().read_to_end(&mut bytes).map_err(|e| {
        Failure::new(
            ErrorCode::Transport,
            format!("cannot read the text from stdin: {e}"),
            "pass the text as an argument: phux paste TARGET TEXT",
        )
    })?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(e) => {
            output::warn("stdin is not UTF-8; invalid bytes were replaced with U+FFFD");
            Ok(String::from_utf8_lossy(e.as_bytes()).into_owned())
        }
    }
}
