//! `phux signal TARGET SIGNAL`: sends interrupt/freeze/resume/terminate/kill to the process
//! group of the pane.

use clap::ValueEnum;
use phux_core::exit_code::SUCCESS;
use phux_core::wire::SignalName;

use crate::client::{pane, target};
use crate::commands::values::{connect, resolve_pane};
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};

/// Send a signal to a pane's process group
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pane
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
    conclude(false, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let selector = target::parse(&args.target)?;
    let mut client = connect(context)?;
    let pane = resolve_pane(&mut client, &selector)?;
    pane::signal(&mut client, pane, args.signal.into())?;
    Ok(SUCCESS)
}
