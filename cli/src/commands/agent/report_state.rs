//! `phux agent report-state TARGET working|blocked|done`: what an agent's hook calls to declare
//! its own state (creating a record when the pane has none). With `--plugin ID` it is a
//! plugin's report instead (`phux.plugin_report/v1`, idle allowed): weaker than a declared
//! state, an active ask or the screen's blocked/done, stronger than the screen's idle/working.
//! Silent on success.

use phux_core::agents::{AgentState, PluginReport, PLUGIN_REPORT_KEY};
use phux_core::exit_code::SUCCESS;

use crate::client::{agents, target};
use crate::commands::values::{connect, resolve_agent_pane, usage};
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};

/// Declare an agent's state from its hook (working, blocked or done)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pane (a hook addresses its own as @$PHUX_TERMINAL_ID)
    #[arg(value_name = "TARGET")]
    pub target: String,
    /// working, blocked or done (with --plugin also idle)
    #[arg(value_name = "STATE", value_parser = reportable)]
    pub state: AgentState,
    /// Report as this plugin (its id) rather than declare on the agent record
    #[arg(long, value_name = "ID")]
    pub plugin: Option<String>,
}

fn reportable(text: &str) -> Result<AgentState, String> {
    match text.parse::<AgentState>() {
        Ok(
            state @ (AgentState::Idle
            | AgentState::Working
            | AgentState::Blocked
            | AgentState::Done),
        ) => Ok(state),
        _ => Err(format!("expected working, blocked or done, got {text:?}")),
    }
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(false, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    if args.state == AgentState::Idle && args.plugin.is_none() {
        return Err(usage(
            "idle is reported only by a plugin (--plugin ID); an agent declares working, blocked or done",
        ));
    }
    let selector = target::parse(&args.target)?;
    let mut client = connect(context)?;
    let pane = resolve_agent_pane(&mut client, &selector, "agent report-state")?;
    match &args.plugin {
        Some(plugin) => {
            let report = PluginReport {
                plugin: plugin.clone(),
                state: args.state,
            };
            let value = serde_json::to_value(report).ok();
            agents::set_metadata(&mut client, pane, PLUGIN_REPORT_KEY, value)?;
        }
        None => {
            agents::report_state(&mut client, pane, args.state)?;
        }
    }
    Ok(SUCCESS)
}
