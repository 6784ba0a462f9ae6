//! The `phux` binary: parses the command line and hands the verb to its file under `commands/`
//! (the hottest agent calls first through `quick`, which skips describing them to clap).

use phux_cli::cli::Cli;

fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(code) = phux_cli::quick::run(&args) {
        std::process::exit(code);
    }
    let code = match Cli::try_from_args(args.clone()) {
        Ok(cli) => phux_cli::commands::run(cli.command, &cli.globals.context()),
        Err(error) => phux_cli::usage::report(&error, phux_cli::usage::wants_json(&args)),
    };
    std::process::exit(code);
}
