//! One module per verb; each holds its clap `Args` and its `run()`.

pub mod engine;

use clap::Subcommand;

#[derive(Subcommand)]
pub enum Command {
    /// Install or inspect the terminal engine (libghostty-vt)
    Engine(engine::Args),
}

/// Runs a verb and returns the process exit code.
pub fn run(command: Command) -> i32 {
    match command {
        Command::Engine(args) => engine::run(args),
    }
}
