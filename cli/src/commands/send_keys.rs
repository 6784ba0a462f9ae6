//! `phux send-keys TARGET KEYS...`: keystrokes, as tmux's `send-keys` types them: key names
//! (`Enter`, `C-c`, `Up`, any case) or text, typed key by key and never pasted (`phux paste`
//! pastes). `-l` types every argument as text with no key-name lookup. The batch is checked
//! before connecting (`invalid_key_spec`, exit 2, nothing sent); the server encodes it for the
//! pane's key modes. Flags go before TARGET. Silent on success; with `--json` it prints the
//! pane and its output `mark` from just before the keys, for `phux wait --after MARK`.

pub use phux_client::verbs::send_keys::{deliver, MarkJson};
use phux_core::exit_code::SUCCESS;

use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Type keys into a pane (tmux key names or text, typed as keystrokes)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Type every argument as text, with no key-name lookup
    #[arg(short = 'l', long)]
    pub literal: bool,
    /// Print {schema_version,pane,mark} (MARK for `wait --after`); on failure, end stderr with
    /// one JSON error line
    #[arg(long)]
    pub json: bool,
    /// The pane
    #[arg(value_name = "TARGET")]
    pub target: String,
    /// Key names (Enter, Escape, C-c, M-x, F1..F12, Up, BSpace, ...; any case) or text, in order
    #[arg(
        value_name = "KEYS",
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    pub keys: Vec<String>,
}

pub fn run(args: Args, context: &Context) -> i32 {
    // A shared-resolver verb: a partial view keeps exit 1 (§5.2).
    conclude(
        args.json,
        execute(args, context).map_err(crate::failure::Failure::partial_view_exits_1),
    )
}

fn execute(args: Args, context: &Context) -> VerbResult {
    let document = deliver(context, &args.target, args.keys, args.literal)?;
    if args.json {
        output::print_json(&document);
    }
    Ok(SUCCESS)
}
