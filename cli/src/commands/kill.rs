//! `phux kill TARGET` / `phux kill --server`: destroys what the selector's form names (a pane
//! for `@N`/`name:W.P`, a window for `name:W`, a session for `name`, every tagged pane for
//! `#tag`), or stops the server. A miss is 1, or 3 against a partial fleet.

use phux_core::exit_code::SUCCESS;

use crate::client::lifecycle::{kill, kill_server};
use crate::client::target;
use crate::commands::values::connect;
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};

/// Kill a pane, window, session or tagged set, or the server (--server)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to kill: @N, SESSION:W.P, SESSION:W, SESSION or #TAG
    #[arg(
        value_name = "TARGET",
        required_unless_present = "server",
        conflicts_with = "server"
    )]
    pub target: Option<String>,
    /// Stop the server and everything in it
    #[arg(long)]
    pub server: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(false, execute(args, context))
}

fn execute(args: Args, context: &Context) -> VerbResult {
    let selector = args.target.as_deref().map(target::parse).transpose()?;
    let mut client = connect(context)?;
    match selector {
        Some(selector) => {
            kill(&mut client, &selector)?;
        }
        None => kill_server(&mut client)?,
    }
    Ok(SUCCESS)
}
