//! `phux agent ...`: supervising agents in panes. One file per sub-verb; this module only
//! routes.

pub mod answer;
pub mod clear;
pub mod explain;
pub mod list;
pub mod prompt;
pub mod report_state;
pub mod send_keys;
pub mod set;
pub mod show;
pub mod start;
pub mod wait;

use clap::Subcommand;

use crate::commands::Context;

/// Supervise coding agents in panes: records, detected state, waits
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Subcommand)]
pub enum Action {
    #[command(visible_alias = "ls")]
    List(list::Args),
    Show(show::Args),
    Explain(explain::Args),
    Set(set::Args),
    Clear(clear::Args),
    ReportState(report_state::Args),
    Wait(wait::Args),
    SendKeys(send_keys::Args),
    Prompt(prompt::Args),
    Answer(answer::Args),
    Start(start::Args),
}

pub fn run(args: Args, context: &Context) -> i32 {
    match args.action {
        Action::List(args) => list::run(args, context),
        Action::Show(args) => show::run(args, context),
        Action::Explain(args) => explain::run(args, context),
        Action::Set(args) => set::run(args, context),
        Action::Clear(args) => clear::run(args, context),
        Action::ReportState(args) => report_state::run(args, context),
        Action::Wait(args) => wait::run(args, context),
        Action::SendKeys(args) => send_keys::run(args, context),
        Action::Prompt(args) => prompt::run(args, context),
        Action::Answer(args) => answer::run(args, context),
        Action::Start(args) => start::run(args, context),
    }
}
