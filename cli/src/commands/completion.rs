//! `phux completion SHELL`: the completion script for bash, zsh, fish, elvish or powershell,
//! generated from the command line's own description (no server, no config).

use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;

/// Print a shell completion script (bash, zsh, fish, elvish, powershell)
#[derive(Debug, clap::Args)]
pub struct Args {
    #[arg(value_name = "SHELL", value_enum)]
    pub shell: Shell,
}

pub fn run(args: Args) -> i32 {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "phux", &mut script);
    crate::output::print_line(String::from_utf8_lossy(&script).trim_end());
    phux_core::exit_code::SUCCESS
}
