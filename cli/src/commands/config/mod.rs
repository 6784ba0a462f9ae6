//! `phux config ...`: the config file (init, path, show, check) and what plugins declare in it
//! (run an action, the declared agents). One file per sub-verb; this module only routes.

pub mod agents;
pub mod check;
pub mod init;
pub mod path;
pub mod run;
pub mod show;

use clap::Subcommand;

use crate::commands::Context;

/// The config file: create, locate, show and check it; run plugin actions; declared agents
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Subcommand)]
pub enum Action {
    Init(init::Args),
    Path(path::Args),
    Show(show::Args),
    Check(check::Args),
    Run(run::Args),
    Agents(agents::Args),
}

pub fn run(args: Args, context: &Context) -> i32 {
    match args.action {
        Action::Init(args) => init::run(args),
        Action::Path(args) => path::run(args),
        Action::Show(args) => show::run(args),
        Action::Check(args) => check::run(args),
        Action::Run(args) => run::run(args, context),
        Action::Agents(args) => agents::run(args, context),
    }
}
