//! The `phux` binary: parses the command line and hands the verb to its file under `commands/`.

use phux_cli::cli::Cli;

fn main() {
    let cli = Cli::from_env();
    let code = phux_cli::commands::run(cli.command, &cli.globals.context());
    std::process::exit(code);
}
