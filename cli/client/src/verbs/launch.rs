//! `launch`'s operation: starts an agent integration of an enabled plugin in a new pane
//! (§4.13): the resolved argv (a fresh session id when its template has one, or a resumed
//! one), placed by target/split/ratio, with the pane's `phux.agent/v1` record declared and the
//! launch recorded for `workspace save`; or only the inventory, or only the resolution.

use std::path::PathBuf;

use phux_core::documents::{LaunchJson, LaunchListJson, LaunchPrintJson, LAUNCH_SCHEMA_VERSION};
use phux_core::ids::PaneId;
use phux_core::split::{check_ratio, SplitDirection};

use crate::agents::{self, Declaration};
use crate::failure::Failure;
use crate::lifecycle::{new_session, spawn, Placement, ProcessSpec};
use crate::registry::integrations::{self, Prepared};
use crate::registry::registered;
use crate::workspace::archive::LAUNCH_METADATA_KEY;
use crate::{target, Client, ClientError, Context};

/// What to launch and where.
#[derive(Debug, Clone)]
pub struct LaunchOptions {
    /// The integration's id (ignored with `list`).
    pub id: Option<String>,
    /// List every enabled plugin's integrations instead.
    pub list: bool,
    /// Resolve the argv and directory without spawning.
    pub print: bool,
    /// Only the integration of this plugin.
    pub plugin: Option<String>,
    /// Resume this agent session id instead of starting a fresh one.
    pub resume: Option<String>,
    /// The pane to split, or a session to add the pane to.
    pub target: Option<String>,
    pub split: SplitDirection,
    /// The new pane's share of the space, strictly between 0 and 1.
    pub ratio: f64,
}

/// What `launch` did: listed, resolved, or started.
#[derive(serde::Serialize)]
#[serde(untagged)]
pub enum Launched {
    List(LaunchListJson),
    Print(LaunchPrintJson),
    Started(LaunchJson),
}

/// Lists, resolves (`print`) or starts the integration, as the options say (the `phux_launch`
/// tool's result too).
pub fn document(args: &LaunchOptions, context: &Context) -> Result<Launched, Failure> {
    check_ratio(args.ratio)?;
    let available = integrations::available(&registered()?)?;
    if args.list {
        return Ok(Launched::List(LaunchListJson {
            schema_version: LAUNCH_SCHEMA_VERSION,
            integrations: available.iter().map(|a| a.row()).collect(),
        }));
    }
    let id = args.id.as_deref().unwrap_or_default();
    let chosen = integrations::find(&available, id, args.plugin.as_deref())?;
    let workspace = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let prepared = chosen.prepare(&workspace, args.resume.as_deref());
    if args.print {
        return Ok(Launched::Print(LaunchPrintJson {
            schema_version: LAUNCH_SCHEMA_VERSION,
            integration: prepared.integration_id.clone(),
            plugin: prepared.plugin_id.clone(),
            cwd: prepared.cwd.display().to_string(),
            working_directory: prepared.working_directory.clone(),
            argv: prepared.argv.clone(),
        }));
    }
    // Quiet: a document may follow on stdout.
    let mut client = crate::autostart::ensure_server_saying(&context.socket, true)?;
    let pane =
        start(&mut client, args, &prepared).map_err(|e| Failure::from(e).partial_view_exits_1())?;
    declare(&mut client, pane, &prepared)?;
    Ok(Launched::Started(LaunchJson {
        schema_version: LAUNCH_SCHEMA_VERSION,
        terminal_id: pane.0,
        integration: prepared.integration_id,
        plugin: prepared.plugin_id,
        argv: prepared.argv,
    }))
}

/// Spawns the pane where the flags say; with no target and no session, a new session named
/// after the integration.
fn start(
    client: &mut Client,
    args: &LaunchOptions,
    prepared: &Prepared,
) -> Result<PaneId, ClientError> {
    let spec = ProcessSpec {
        cwd: Some(prepared.cwd.clone()),
        env: vec![("PHUX_PLUGIN_ID".into(), prepared.plugin_id.clone())],
        command: Some(prepared.argv.clone()),
        history_limit: None,
    };
    if args.target.is_none() && client.state()?.sessions.is_empty() {
        let made = new_session(client, Some(prepared.integration_id.clone()), spec)?;
        return Ok(made.terminal_id);
    }
    let placement = Placement {
        target: args.target.as_deref().map(target::parse).transpose()?,
        split: args.split,
        ratio: args.ratio,
        unplaced: false,
    };
    Ok(spawn(client, placement, spec)?.terminal_id)
}

/// The pane's agent record, and the launch provenance `workspace save` archives.
pub fn declare(client: &mut Client, pane: PaneId, prepared: &Prepared) -> Result<(), ClientError> {
    agents::set(
        client,
        pane,
        Declaration {
            name: prepared.agent_name.clone(),
            kind: prepared.agent_kind.clone(),
            state: None,
            attention: None,
            session: prepared.session_id.clone(),
        },
    )?;
    let value = serde_json::json!({
        "plugin_id": prepared.plugin_id,
        "integration_id": prepared.integration_id,
        "native_id": prepared.session_id,
    });
    agents::set_metadata(client, pane, LAUNCH_METADATA_KEY, Some(value))
}
