//! `phux detach [SESSION]`: asks every client attached to SESSION (to any session when
//! omitted) to detach. The sessions keep running.

use phux_core::exit_code::SUCCESS;
use phux_core::wire::{ClientMessage, DetachClients, DetachOk};

use crate::commands::values::connect;
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Detach the clients of a session (of every session when omitted)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The session whose clients leave
    #[arg(value_name = "SESSION")]
    pub session: Option<String>,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(false, execute(args, context))
}

fn execute(args: Args, context: &Context) -> VerbResult {
    let mut client = connect(context)?;
    let ok: DetachOk = client.request(ClientMessage::DetachClients(DetachClients {
        id: 0,
        session: args.session,
    }))?;
    let plural = if ok.detached == 1 { "" } else { "s" };
    output::stderr_line(&format!("detached {} client{plural}", ok.detached));
    Ok(SUCCESS)
}
