//! `phux send-keys TARGET KEYS...`: keystrokes, as tmux's `send-keys` types them: key names
//! (`Enter`, `C-c`, `Up`, any case) or text, typed key by key and never pasted (`phux paste`
//! pastes). `-l` types every argument as text with no key-name lookup. The batch is checked
//! before connecting (`invalid_key_spec`, exit 2, nothing sent); the server encodes it for the
//! pane's key modes. Flags go before TARGET. Silent on success; with `--json` it prints the
//! pane and its output `mark` from just before the keys, for `phux wait --after MARK`. A batch
//! that submits several lines is typed line by line, each once the pane answered the one
//! before, and `mark` is from just before the last line. `--wait-until` / `--wait-regex` /
//! `--wait-idle` then wait in the same call, as `wait --after MARK` would, and print its
//! document (with the keys' delivery under `sent`).

use std::time::Duration;

pub use phux_client::verbs::send_keys::{deliver, MarkJson, ThenWait};
use phux_core::exit_code::SUCCESS;

use crate::commands::values::parse_seconds;
use crate::commands::wait::{conclude_wait, wait_for};
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
    /// Then wait until a line of the pane's output after the keys contains TEXT (as `wait
    /// --after MARK --until TEXT`); prints the wait's document
    #[arg(long, value_name = "TEXT")]
    pub wait_until: Option<String>,
    /// Then wait until a line of the output after the keys matches RE
    #[arg(long, value_name = "RE")]
    pub wait_regex: Option<String>,
    /// Then wait until the pane wrote after the keys and stayed quiet for MS milliseconds (a
    /// full-screen program done redrawing)
    #[arg(long, value_name = "MS")]
    pub wait_idle: Option<u64>,
    /// With a --wait-*: give up after SECS seconds and exit 124 [default: 30]
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
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
    let then = ThenWait {
        until: args.wait_until.clone(),
        regex: args.wait_regex.clone(),
        idle_ms: args.wait_idle,
        timeout: args.timeout,
    };
    let waits = then.asked()?;
    let document = deliver(context, &args.target, args.keys.clone(), args.literal)?;
    if !waits {
        if args.json {
            output::print_json(&document);
        }
        return Ok(SUCCESS);
    }
    let options = then.options(&args.target, document.mark);
    let timeout = options.timeout;
    let waited = wait_for(options, context, None)?;
    let mut sent = serde_json::to_value(waited.document()).unwrap_or_default();
    if let Some(fields) = sent.as_object_mut() {
        fields.insert(
            "sent".into(),
            serde_json::to_value(&document).unwrap_or_default(),
        );
    }
    conclude_wait(&waited, &sent, args.json, timeout, &args.target)
}
