//! One module per verb; each holds its clap `Args` and its `run()`.

pub mod engine;
pub mod pane_exec;
pub mod server;

use clap::Subcommand;
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum Command {
    /// Install or inspect the terminal engine (libghostty-vt)
    Engine(engine::Args),
    /// Run the server in the foreground
    Server(server::Args),
    #[command(name = "__pane-exec", hide = true)]
    PaneExec(pane_exec::Args),
}

/// Runs a verb and returns the process exit code.
pub fn run(command: Command, socket: Option<PathBuf>) -> i32 {
    match command {
        Command::Engine(args) => engine::run(args),
        Command::Server(args) => server::run(args, socket),
        Command::PaneExec(args) => pane_exec::run(args),
    }
}
