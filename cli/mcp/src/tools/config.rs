//! Tools over the config file and what its plugins declare: `phux_plugin_action` (`config run`,
//! bounded by `timeout_secs` and stopped by a cancellation), `phux_config_agents`,
//! `phux_launch` (an integration: list, print or start) and `phux_doctor`.

use std::path::PathBuf;

use phux_client::configured_agents as agents;
use phux_client::failure::Failure;
use phux_client::verbs::plugin_action::{self as run, PluginActionOptions};
use phux_client::verbs::{doctor, launch};
use phux_core::documents::ActionOutcome;
use phux_core::error_code::ErrorCode;
use phux_core::split::SplitDirection;
use phux_core::split::DEFAULT_RATIO;
use serde::Deserialize;

use crate::schema::{boolean, choice, number, object, string};
use crate::tools::{invalid_argument, seconds, to_value, Call, Document, Tool, MAX_OUTPUT_BYTES};

/// How long `phux_plugin_action` lets an action run unless `timeout_secs` says otherwise.
pub const DEFAULT_ACTION_TIMEOUT_SECS: f64 = 60.0;

pub fn tools() -> Vec<Tool> {
    vec![
        Tool {
            name: "phux_plugin_action",
            description: "Run an [[actions]] command of an enabled plugin (like `phux config run PLUGIN ACTION --json`): argv from the plugin root, output captured. Returns PluginActionOutput {plugin_id, action_id, command, cwd, outcome: completed|timed_out, exit_code, stdout, stderr, duration_ms}. A non-zero exit_code and a timeout (the action and its children killed) are outcomes, not errors; a cancelled call kills the action.",
            schema: || {
                object(
                    &["plugin_id", "action_id"],
                    vec![
                        ("plugin_id", string("The plugin's id (phux_config_agents and `phux plugin list` name them)")),
                        ("action_id", string("The action's id, from the plugin's manifest")),
                        ("timeout_secs", number("Kill the action after this many seconds [default: 60]", 0.1, 3600.0)),
                        ("cwd", string("Run it in this directory instead of the plugin root")),
                    ],
                )
            },
            call: plugin_action,
        },
        Tool {
            name: "phux_config_agents",
            description: "The agents enabled plugins declare ([[agents]]), each merged with the live agent record of the pane it runs in when a server answers (ConfiguredAgentsJson v2: {live, agents[{plugin_id, id, source: manifest|runtime, declared, runtime}]}).",
            schema: || object(&[], vec![]),
            call: config_agents,
        },
        Tool {
            name: "phux_launch",
            description: "Start an agent integration of an enabled plugin in a new pane, its agent record declared (LaunchJson {terminal_id, integration, plugin, argv}); with list: true, every integration (LaunchListJson); with print: true, the argv and directory it would use, spawning nothing (LaunchPrintJson). Like `phux launch --json`.",
            schema: || {
                object(
                    &[],
                    vec![
                        ("id", string("The integration's id [required unless list]")),
                        ("list", boolean("List every enabled plugin's integrations instead")),
                        ("print", boolean("Resolve the argv and directory without spawning (a dry run)")),
                        ("plugin", string("Only the integration of this plugin (when several offer the id)")),
                        ("resume", string("Resume this agent session id instead of starting a fresh one")),
                        ("target", string("The pane to split, or a session to add the pane to [default: the most recently active session, or a new session named after the integration]")),
                        ("split", choice("Stacked (horizontal) or side by side (vertical) [default: horizontal]", &["horizontal", "vertical"])),
                        ("ratio", number("The new pane's share of the space [default: 0.5]", 0.0, 1.0)),
                    ],
                )
            },
            call: launch_tool,
        },
        Tool {
            name: "phux_doctor",
            description: "Check what phux needs: the engine, the socket directory, the server, the config file, the plugins, shell integration, git and ssh. Returns DoctorJson {ok, failed, checks[{name, status: pass|warn|fail, detail, hint}]}; failed checks are a result (ok: false), not an error.",
            schema: || object(&[], vec![]),
            call: doctor_tool,
        },
    ]
}

#[derive(Deserialize)]
struct ActionArgs {
    plugin_id: String,
    action_id: String,
    timeout_secs: Option<f64>,
    cwd: Option<String>,
}

fn plugin_action(call: &Call) -> Result<Document, Failure> {
    let args: ActionArgs = call.parse()?;
    let verb_args = PluginActionOptions {
        plugin: args.plugin_id,
        action: args.action_id,
        timeout: Some(seconds(
            args.timeout_secs.unwrap_or(DEFAULT_ACTION_TIMEOUT_SECS),
        )),
        cwd: args.cwd.map(PathBuf::from),
        echo: false,
    };
    let output = run::document(&verb_args, Some(call.stop.flag()))?;
    let document = to_value(&output)?;
    if document.text.len() > MAX_OUTPUT_BYTES {
        // Too late to ask for less: the action has run. Say how it ended, and keep it all.
        let ended = match (output.outcome, output.exit_code) {
            (ActionOutcome::TimedOut, _) => "timed out".to_string(),
            (_, Some(code)) => format!("exit code {code}"),
            (_, None) => "ended by a signal".to_string(),
        };
        let kept = super::too_large("phux_plugin_action", &document.text);
        let doc = kept.document();
        return Err(Failure::new(
            ErrorCode::OutputTooLarge,
            format!(
                "{}/{} ran ({ended}) and printed {} bytes of output; {}",
                output.plugin_id,
                output.action_id,
                output.stdout.len() + output.stderr.len(),
                doc.error.message
            ),
            doc.remedy,
        ));
    }
    Ok(document)
}

fn config_agents(call: &Call) -> Result<Document, Failure> {
    to_value(&agents::document(&call.context)?)
}

#[derive(Deserialize)]
struct LaunchArgs {
    id: Option<String>,
    #[serde(default)]
    list: bool,
    #[serde(default)]
    print: bool,
    plugin: Option<String>,
    resume: Option<String>,
    target: Option<String>,
    split: Option<String>,
    ratio: Option<f64>,
}

fn launch_tool(call: &Call) -> Result<Document, Failure> {
    let args: LaunchArgs = call.parse()?;
    if args.list && (args.id.is_some() || args.print) {
        return Err(invalid_argument(
            "phux_launch: list takes no id and no print",
        ));
    }
    if !args.list && args.id.is_none() {
        return Err(invalid_argument(
            "phux_launch: id is required unless list is true (list: true names the integrations)",
        ));
    }
    let verb_args = launch::LaunchOptions {
        id: args.id,
        list: args.list,
        print: args.print,
        plugin: args.plugin,
        resume: args.resume,
        target: args.target,
        split: match args.split.as_deref() {
            Some("vertical") => SplitDirection::Vertical,
            _ => SplitDirection::Horizontal,
        },
        ratio: args.ratio.unwrap_or(DEFAULT_RATIO),
    };
    to_value(&launch::document(&verb_args, &call.context)?)
}

fn doctor_tool(call: &Call) -> Result<Document, Failure> {
    to_value(&doctor::document(&call.context))
}
