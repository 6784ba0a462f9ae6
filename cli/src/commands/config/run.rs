//! `phux config run PLUGIN ACTION [--timeout SECS] [--cwd DIR] [--json]`: runs a plugin's
//! action from its root (§4.8). Without `--json` its output streams to this terminal as it
//! comes; with it, one PluginActionOutput document. phux exits with the action's status, or
//! 125 when it killed the action at `--timeout`.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use phux_core::docs::{ActionOutcome, PluginActionOutput};
use phux_core::exit_code::{FAILURE, RUN_GAVE_UP};

use crate::commands::plugin::registered;
use crate::commands::Context;
use crate::failure::{conclude, Failure, VerbResult};
use crate::output;
use crate::registry::{self, action};

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

/// Runs the action and returns its PluginActionOutput (the `phux_plugin_action` tool's result
/// too). Without `--json` its output streams here as it comes. `cancel`, once set, kills it
/// as the time limit does.
pub fn document(
    args: &Args,
    cancel: Option<Arc<AtomicBool>>,
) -> Result<PluginActionOutput, Failure> {
    let plugins = registered()?;
    let plugin = registry::find(&plugins, &args.plugin)?;
    let how = action::ActionRun {
        cwd: args.cwd.clone(),
        timeout: args.timeout,
        echo: !args.json,
        cancel,
    };
    Ok(action::run(plugin, &args.action, &how)?)
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
    let document = document(args, None)?;
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
