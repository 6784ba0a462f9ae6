//! `phux worktree list|new|rm`: git worktrees bound to sessions (a worktree's session is named
//! from its directory). Failures are the `workspace` error.

mod list;
mod new;
mod rm;

use crate::commands::Context;

/// Git worktrees bound to sessions: list them, make one with its session, remove a clean one
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, clap::Subcommand)]
pub enum Action {
    #[command(visible_alias = "ls")]
    List(list::Args),
    New(new::Args),
    Rm(rm::Args),
}

pub fn run(args: Args, context: &Context) -> i32 {
    match args.action {
        Action::List(args) => list::run(args, context),
        Action::New(args) => new::run(args, context),
        Action::Rm(args) => rm::run(args, context),
    }
}

/// A connection to the server when one answers (a listing does not need one).
fn server(context: &Context) -> Option<crate::client::Client> {
    crate::client::Client::connect(&context.socket).ok()
}
