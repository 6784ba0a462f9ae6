//! The top-level command line: global flags, the verb, and the exit-code table in `--help`.

use std::path::PathBuf;

use clap::Parser;
use phux_core::exit_code::EXIT_CODE_TABLE_HELP;

use crate::commands::{Command, Context};

#[derive(Parser)]
#[command(
    name = "phux",
    version,
    about = "A terminal multiplexer built to record, replay and observe terminals",
    after_help = EXIT_CODE_TABLE_HELP,
    propagate_version = true
)]
pub struct Cli {
    #[command(flatten)]
    pub globals: Globals,
    #[command(subcommand)]
    pub command: Command,
}

/// Flags every verb accepts, before or after its name.
#[derive(Debug, clap::Args)]
pub struct Globals {
    /// The server's socket [default: $PHUX_SOCKET, else $XDG_RUNTIME_DIR/phux/phux.sock, else
    /// /tmp/phux-$UID/phux.sock]
    #[arg(long, global = true, value_name = "PATH")]
    pub socket: Option<PathBuf>,
}

impl Globals {
    /// What every verb needs to know beyond its own arguments.
    pub fn context(&self) -> Context {
        Context {
            socket: phux_core::socket_path::resolve(self.socket.as_deref()),
        }
    }
}
