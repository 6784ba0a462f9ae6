//! `phux agent start NAME --kind K --target T [--timeout SECS] [--no-wait] [--json] [-- ARGS]`:
//! launches a recognised agent in a pane whose foreground is an idle shell (`target_not_shell`
//! otherwise, a shell running a script included): declares the record, types the launch
//! command, and waits until the server has identified the agent and derived its first state
//! (`agent_start_timeout`, 124). Refused before anything is typed: a name another pane's record
//! holds (`agent_name_conflict`), and a wait on a server without detection
//! (`agent_detection_unavailable`).

use std::time::Duration;

use phux_client::verbs::agent::start::{document, AgentStartOptions};
use phux_core::exit_code::SUCCESS;

use crate::commands::values::parse_seconds;
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Launch a recognised agent in a pane's shell and wait until phux sees it
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The agent's name (`^[a-z][a-z0-9_-]{0,31}$`)
    #[arg(value_name = "NAME")]
    pub name: String,
    /// The agent's kind: a detection manifest (claude, codex, opencode, pi, omp)
    #[arg(long, value_name = "K")]
    pub kind: String,
    /// The pane whose shell starts it
    #[arg(long, value_name = "T")]
    pub target: String,
    /// Give up waiting for readiness after SECS seconds (exit 124) [default: 30]
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Return once the command is typed
    #[arg(long)]
    pub no_wait: bool,
    /// Launch through this plugin integration (when several enabled ones claim the kind)
    #[arg(long, value_name = "ID")]
    pub integration: Option<String>,
    /// Print the start document
    #[arg(long)]
    pub json: bool,
    /// Arguments for the agent
    #[arg(last = true, value_name = "ARGS")]
    pub args: Vec<String>,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(args, context))
}

impl Args {
    /// The operation's options, as the flags give them.
    pub fn options(&self) -> AgentStartOptions {
        AgentStartOptions {
            name: self.name.clone(),
            kind: self.kind.clone(),
            target: self.target.clone(),
            timeout: self.timeout,
            no_wait: self.no_wait,
            integration: self.integration.clone(),
            args: self.args.clone(),
        }
    }
}

fn execute(args: Args, context: &Context) -> VerbResult {
    let json = args.json;
    let document = document(args.options(), context)?;
    if json {
        output::print_json(&document);
    } else {
        output::print_line(&format!(
            "{}\t{}\t{}\t{}",
            document.terminal,
            document.name,
            document.kind,
            document
                .state
                .map_or("started".to_owned(), |s| s.to_string())
        ));
    }
    Ok(SUCCESS)
}
