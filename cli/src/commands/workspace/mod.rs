//! `phux workspace ...`: a repository's worktrees (inspect), and saving and restoring a
//! server's sessions (save, restore). One file per sub-verb; this module only routes.

pub mod inspect;
pub mod restore;
pub mod save;

use clap::Subcommand;

use crate::commands::Context;

/// Inspect git worktrees; save and restore sessions with their layouts
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Subcommand)]
pub enum Action {
    Inspect(inspect::Args),
    Save(save::Args),
    Restore(restore::Args),
}

pub fn run(args: Args, context: &Context) -> i32 {
    match args.action {
        Action::Inspect(args) => inspect::run(args),
        Action::Save(args) => save::run(args, context),
        Action::Restore(args) => restore::run(args, context),
    }
}
