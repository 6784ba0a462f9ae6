//! `phux signal TARGET SIGNAL`: sends interrupt/freeze/resume/terminate/kill to the process
//! group of every pane TARGET names (a `#tag` set, a session or window: all of their panes).

use clap::ValueEnum;
use phux_core::exit_code::SUCCESS;
use phux_core::wire::SignalName;

use crate::client::{pane, target};
use crate::commands::values::{connect, warn_if_partial};
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};

/// Send a signal to the process group of every pane TARGET names
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pane, or every pane of a #tag, session or window
    #[arg(value_name = "TARGET")]
    pub target: String,
    /// The signal
    #[arg(value_name = "SIGNAL", value_enum)]
    pub signal: SignalArg,
}

/// The signals a pane's process group may be sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SignalArg {
    /// SIGINT
    Interrupt,
    /// SIGSTOP
    Freeze,
    /// SIGCONT
    Resume,
    /// SIGTERM
    Terminate,
    /// SIGKILL
    Kill,
}

impl From<SignalArg> for SignalName {
    fn from(signal: SignalArg) -> Self {
        match signal {
            SignalArg::Interrupt => SignalName::Interrupt,
            SignalArg::Freeze => SignalName::Freeze,
            SignalArg::Resume => SignalName::Resume,
            SignalArg::Terminate => SignalName::Terminate,
            SignalArg::Kill => SignalName::Kill,
        }
    }
}

pub fn run(args: Args, context: &Context) -> i32 {
    // A shared-resolver verb: a partial view keeps exit 1 (§5.2).
    conclude(
        false,
        execute(&args, context).map_err(crate::failure::Failure::partial_view_exits_1),
    )
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let selector = target::parse(&args.target)?;
    let mut client = connect(context)?;
    let panes = match selector {
        // `@N` names one local pane outright; the server refuses it if it does not exist.
        phux_core::selector::Selector::Terminal(pane) => vec![pane],
        _ => {
            let resolved = target::resolve_target(&mut client, &selector)?;
            warn_if_partial(resolved.partial_warning());
            resolved.panes().to_vec()
        }
    };
    for pane in panes {
        pane::signal(&mut client, pane, args.signal.into())?;
    }
    Ok(SUCCESS)
}
