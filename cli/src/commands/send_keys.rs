//! `phux send-keys TARGET KEYS...`: tmux key names (`Enter`, `C-c`, `Up`, ...) or literal text.
//! The batch is checked before connecting (`invalid_key_spec`, exit 2, nothing sent); the
//! server plans it against the pane's modes. Flags go before TARGET. Silent on success.

use phux_core::exit_code::SUCCESS;

use crate::client::{pane, target};
use crate::commands::values::{connect, resolve_pane};
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};

/// Type keys into a pane (tmux key names or literal text)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pane
    #[arg(value_name = "TARGET")]
    pub target: String,
    /// Key names or literal text, in order
    #[arg(
        value_name = "KEYS",
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    pub keys: Vec<String>,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(false, execute(args, context))
}

fn execute(args: Args, context: &Context) -> VerbResult {
    pane::check_keys(&args.keys)?;
    let selector = target::parse(&args.target)?;
    let mut client = connect(context)?;
    let pane = resolve_pane(&mut client, &selector)?;
    pane::send_keys(&mut client, pane, args.keys)?;
    Ok(SUCCESS)
}
