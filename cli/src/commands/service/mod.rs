//! `phux service install|uninstall|status|logs`: a systemd user unit, or a launchd agent on
//! macOS (see `manager`), that keeps a server running (and, with `install --restore`, saves the
//! workspace when it stops and restores it at start). One file per sub-verb; this module only
//! routes.

pub mod install;
pub mod launchd;
mod listener_env;
pub mod logs;
pub mod manager;
pub mod status;
pub mod uninstall;
pub mod unit;

use clap::Subcommand;

use crate::commands::Context;

/// Keep a server running as a systemd user service (a launchd agent on macOS)
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Subcommand)]
pub enum Action {
    Install(install::Args),
    Uninstall(uninstall::Args),
    Status(status::Args),
    Logs(logs::Args),
}

/// Schema of every `phux service ... --json` document.
pub const SERVICE_SCHEMA_VERSION: u32 = 1;

pub fn run(args: Args, context: &Context) -> i32 {
    match args.action {
        Action::Install(args) => install::run(args, context),
        Action::Uninstall(args) => uninstall::run(args),
        Action::Status(args) => status::run(args),
        Action::Logs(args) => logs::run(args, context),
    }
}
