//! The `phux` binary: parses the command line and hands each verb to its file under
//! `commands/`.

mod commands;
mod output;

use clap::Parser;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "phux",
    version,
    about = "A terminal multiplexer built to record, replay and observe terminals"
)]
struct Cli {
    /// The server's socket (default: $PHUX_SOCKET, else $XDG_RUNTIME_DIR/phux/phux.sock, else
    /// /tmp/phux-$UID/phux.sock)
    #[arg(long, global = true)]
    socket: Option<PathBuf>,
    #[command(subcommand)]
    command: commands::Command,
}

fn main() {
    output::ignore_sigpipe();
    let cli = Cli::parse();
    let code = commands::run(cli.command, cli.socket);
    std::process::exit(code);
}
