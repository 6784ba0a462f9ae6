//! The `phux` binary: parses the command line and hands each verb to its file under
//! `commands/`.

mod commands;
mod output;

use clap::Parser;

#[derive(Parser)]
#[command(
    name = "phux",
    version,
    about = "A terminal multiplexer built to record, replay and observe terminals"
)]
struct Cli {
    #[command(subcommand)]
    command: commands::Command,
}

fn main() {
    output::ignore_sigpipe();
    let cli = Cli::parse();
    let code = commands::run(cli.command);
    std::process::exit(code);
}
