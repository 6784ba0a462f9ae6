//! `phux new [NAME] [-s NAME] [-c DIR] [-e K=V]... [--json] [-- CMD...]`: creates a session,
//! starting a server if none runs, and prints its first pane (`@N`, or `NewJson` with `--json`).
//! Create-only: a name already in use is exit 1.

use std::path::PathBuf;

pub use phux_client::verbs::new::create;
use phux_core::exit_code::SUCCESS;

use crate::cli::Cli;
use crate::client::lifecycle::ProcessSpec;
use crate::commands::values::parse_env;
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Create a session (starting a server if none runs) and print its first pane
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Session name (the same as -s); the server picks one when omitted
    // Not `conflicts_with = "session"`: clap waives `--json`'s `requires = "session"` when an
    // argument conflicting with it is present, so the conflict is checked in `run`.
    #[arg(value_name = "NAME")]
    pub name: Option<String>,
    /// Session name: letters, digits, - and _ (no whitespace, controls or : . @ # /; at most
    /// 64 bytes)
    #[arg(short = 's', long = "session", value_name = "NAME")]
    pub session: Option<String>,
    /// Directory the first process starts in [default: the current directory]
    #[arg(short = 'c', long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Environment entry for the first process (repeatable; VALUE may contain '=')
    #[arg(short = 'e', long = "env", value_name = "KEY=VALUE", value_parser = parse_env)]
    pub env: Vec<(String, String)>,
    /// Stay detached: print the pane id instead of attaching (attaching needs a terminal)
    #[arg(short = 'd', long = "detached")]
    pub detached: bool,
    /// Print a NewJson document instead of the pane id (requires -s); never attaches
    #[arg(long, requires = "session")]
    pub json: bool,
    /// Rows of history the pane keeps (1..=1000000) [default: the server's, 10000; see
    /// `phux server --history-limit`]; a transcript that hit it says `truncated`
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub history_limit: Option<u32>,
    /// The command to run instead of the default shell
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
}

pub fn run(args: Args, context: &Context) -> i32 {
    if args.name.is_some() && args.session.is_some() {
        let error = <Cli as clap::CommandFactory>::command().error(
            clap::error::ErrorKind::ArgumentConflict,
            "NAME and -s/--session both name the session; pass only one",
        );
        return crate::usage::report(&error, args.json);
    }
    let json = args.json;
    conclude(json, execute(args, context))
}

fn execute(args: Args, context: &Context) -> VerbResult {
    let name = args.session.or(args.name);
    let spec = ProcessSpec {
        cwd: args.cwd,
        env: args.env,
        command: (!args.command.is_empty()).then_some(args.command),
        history_limit: args.history_limit,
    };
    let created = create(name, spec, context, args.json)?;
    let attach = !args.json
        && !args.detached
        && crate::tui::outer::is_tty()
        && !crate::commands::attach::inside_a_pane();
    if attach {
        return crate::commands::attach::attach_to(created.session.clone(), context);
    }
    if args.json {
        output::print_json(&created);
    } else {
        output::print_line(&created.terminal_id.to_string());
    }
    Ok(SUCCESS)
}
