//! `phux send-keys TARGET KEYS...`: keystrokes, as tmux's `send-keys` types them: key names
//! (`Enter`, `C-c`, `Up`, any case) or text, typed key by key and never pasted (`phux paste`
//! pastes). `-l` types every argument as text with no key-name lookup. The batch is checked
//! before connecting (`invalid_key_spec`, exit 2, nothing sent); the server encodes it for the
//! pane's key modes. Flags go before TARGET. Silent on success; with `--json` it prints the
//! pane and its output `mark` from just before the keys, for `phux wait --after MARK`.

use phux_core::exit_code::SUCCESS;

use crate::client::{pane, target};
use crate::commands::values::{connect, resolve_single_pane};
use crate::commands::Context;
use crate::failure::{conclude, Failure, VerbResult};
use crate::output;

/// What `send-keys --json` and `paste --json` print: the pane and its output position from just
/// before the input was written (opaque; hand it to `wait --after`), and how the input was
/// delivered: `ok` once every byte is in the pane's PTY, under the write's operation id.
#[derive(Debug, serde::Serialize)]
pub struct MarkJson {
    pub schema_version: u32,
    pub pane: phux_core::ids::PaneId,
    pub mark: u64,
    pub delivery: &'static str,
    pub operation_id: String,
    /// `paste` only: whether the text went in bracketed-paste brackets.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bracketed: Option<bool>,
}

impl MarkJson {
    /// Input every byte of which reached `pane`'s terminal under `operation`.
    pub fn delivered(pane: phux_core::ids::PaneId, mark: u64, operation: String) -> MarkJson {
        MarkJson {
            schema_version: 1,
            pane,
            mark,
            delivery: "ok",
            operation_id: operation,
            bracketed: None,
        }
    }
}

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

/// Types `keys` into the one pane `target` names (as text when `literal`), acknowledged; the
/// document `--json` prints (the MCP adapter's `phux_send_keys` too).
pub fn deliver(
    context: &Context,
    target: &str,
    keys: Vec<String>,
    literal: bool,
) -> Result<MarkJson, Failure> {
    if !literal {
        pane::check_keys(&keys)?;
    }
    let selector = target::parse(target)?;
    let mut client = connect(context)?;
    let pane = resolve_single_pane(&mut client, &selector)?;
    let operation = pane::operation_id();
    let mark = if literal {
        pane::send_literal(&mut client, pane, keys.concat(), &operation)?
    } else {
        pane::send_keys(&mut client, pane, keys, &operation)?
    };
    Ok(MarkJson::delivered(pane, mark, operation))
}
