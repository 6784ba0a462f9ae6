//! `phux config run PLUGIN ACTION [--timeout SECS] [--cwd DIR] [--json]`: runs a plugin's
//! action from its root (§4.8). Without `--json` its output streams to this terminal as it
//! comes; with it, one PluginActionOutput document. phux exits with the action's status, or
//! 125 when it killed the action at `--timeout`.

use std::path::PathBuf;
use std::time::Duration;

use phux_client::verbs::plugin_action::{document, PluginActionOptions};
use phux_core::documents::ActionOutcome;
use phux_core::exit_code::{FAILURE, RUN_GAVE_UP};

use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Run a plugin's action (argv from the plugin root, output streamed live)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The plugin's id
    #[arg(value_name = "PLUGIN")]
    pub plugin: String,
    /// The action's id
    #[arg(value_name = "ACTION")]
    pub action: String,
    /// Kill the action after this many seconds (exit 125, outcome "timed_out")
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Run it here instead of the plugin root
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Capture the output and print a PluginActionOutput document
    #[arg(long)]
    pub json: bool,
}

impl Args {
    /// The operation's options, as the flags give them.
    pub fn options(&self) -> PluginActionOptions {
        PluginActionOptions {
            plugin: self.plugin.clone(),
            action: self.action.clone(),
            timeout: self.timeout,
            cwd: self.cwd.clone(),
            echo: !self.json,
        }
    }
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(secs) if secs > 0.0 && secs.is_finite() => Ok(Duration::from_secs_f64(secs)),
        _ => Err(format!("{text:?} is not a positive number of seconds")),
    }
}

pub fn run(args: Args, _context: &Context) -> i32 {
    conclude(args.json, execute(&args))
}

fn execute(args: &Args) -> VerbResult {
    let document = document(&args.options(), None)?;
    if args.json {
        output::print_json(&document);
    }
    Ok(match document.outcome {
        ActionOutcome::TimedOut => {
            if !args.json {
                output::stderr_line(&format!(
                    "phux: {}/{} timed out after {:.1}s and was killed",
                    document.plugin_id,
                    document.action_id,
                    args.timeout.unwrap_or_default().as_secs_f64()
                ));
            }
            RUN_GAVE_UP
        }
        ActionOutcome::Completed => document.exit_code.unwrap_or(FAILURE),
    })
}
