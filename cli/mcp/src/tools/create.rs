//! Tools that create, rename, tag and destroy: `phux_new`, `phux_spawn`, `phux_kill`,
//! `phux_rename`, `phux_detach`, `phux_tag`.

use std::path::PathBuf;

use phux_client::failure::Failure;
use phux_client::lifecycle::{kill, rename_session, spawn, KillScope, Placement, ProcessSpec};
use phux_client::pane::{normalize_tag, tags, TagAction};
use phux_client::values::{connect, parse_env};
use phux_client::verbs::new;
use phux_client::{target, ClientError};
use phux_core::split::{check_ratio, SplitDirection, DEFAULT_RATIO};
use phux_core::wire::{ClientMessage, DetachClients, DetachOk};
use serde::Deserialize;
use serde_json::json;

use crate::schema::{choice, confirm, number, object, string, strings};
use crate::tools::{invalid_argument, require_confirm, to_value, Call, Document, Fields, Tool};

pub fn tools() -> Vec<Tool> {
    vec![
        Tool {
            name: "phux_new",
            description: "Create a session (starting a server when none runs) without attaching. Returns {schema_version, session, terminal_id}. Like `phux new -s NAME --json`.",
            schema: || {
                object(
                    &["name"],
                    vec![
                        ("name", string("The session's name")),
                        ("command", strings("The program and its arguments [default: your shell]")),
                        ("cwd", string("The directory it starts in")),
                        ("env", strings("KEY=VALUE entries added to its environment")),
                    ],
                )
            },
            call: new_tool,
        },
        Tool {
            name: "phux_spawn",
            description: "Open a new pane beside a target pane (or in the most recently active session). Returns {schema_version, terminal_id, satellite}. Like `phux spawn --json`.",
            schema: || {
                object(
                    &[],
                    vec![
                        ("target", string("The pane to split [default: the most recently active session]")),
                        ("split", choice("Stacked (horizontal) or side by side (vertical) [default: horizontal]", &["horizontal", "vertical"])),
                        ("ratio", number("The share the target keeps, between 0 and 1 exclusive [default: 0.5]", 0.0, 1.0)),
                        ("command", strings("The program and its arguments [default: your shell]")),
                        ("cwd", string("The directory it starts in")),
                        ("env", strings("KEY=VALUE entries added to its environment")),
                    ],
                )
            },
            call: spawn_tool,
        },
        Tool {
            name: "phux_kill",
            description: "Close panes, a window or a session, and the processes in them (needs confirm: true). `@N`/#tag/`.` close panes, `name:W` a window, `name` a session. Returns {schema_version, target, killed}.",
            schema: || {
                object(
                    &["target", "confirm"],
                    vec![
                        ("target", string("What to close")),
                        ("confirm", confirm("the panes and their processes are gone for good")),
                    ],
                )
            },
            call: kill_tool,
        },
        Tool {
            name: "phux_rename",
            description: "Rename a session. Returns {schema_version, session, from}.",
            schema: || {
                object(
                    &["session", "new_name"],
                    vec![
                        ("session", string("The session's current name")),
                        ("new_name", string("Its new name")),
                    ],
                )
            },
            call: rename,
        },
        Tool {
            name: "phux_detach",
            description: "Detach the clients attached to a session (to every session without one); needs confirm: true, since a person may be looking. Returns {schema_version, detached, session}.",
            schema: || {
                object(
                    &["confirm"],
                    vec![
                        ("session", string("The session [default: every session]")),
                        ("confirm", confirm("people attached lose their view")),
                    ],
                )
            },
            call: detach,
        },
        Tool {
            name: "phux_tag",
            description: "List, add or remove pane tags (address tagged panes as #tag). Returns {schema_version, terminals[{terminal, tags}]}, read back after a change. Like `phux tag ls|add|rm --json`.",
            schema: || {
                object(
                    &["action"],
                    vec![
                        ("action", choice("ls, add or rm", &["ls", "add", "rm"])),
                        ("target", string("The pane(s) [ls default: every pane; needed for add and rm]")),
                        ("tags", strings("The tags, with or without # (add and rm)")),
                    ],
                )
            },
            call: tag,
        },
    ]
}

/// `KEY=VALUE` entries, each checked as `-e` checks it.
fn environment(entries: Vec<String>) -> Result<Vec<(String, String)>, Failure> {
    entries
        .iter()
        .map(|e| parse_env(e).map_err(|m| invalid_argument(format!("env: {m}"))))
        .collect()
}

fn process(
    command: Vec<String>,
    cwd: Option<String>,
    env: Vec<String>,
) -> Result<ProcessSpec, Failure> {
    Ok(ProcessSpec {
        cwd: cwd.map(PathBuf::from),
        env: environment(env)?,
        command: (!command.is_empty()).then_some(command),
        // The server's default (`new --history-limit` is the verb's).
        history_limit: None,
    })
}

#[derive(Deserialize)]
struct NewArgs {
    name: String,
    #[serde(default)]
    command: Vec<String>,
    cwd: Option<String>,
    #[serde(default)]
    env: Vec<String>,
}

fn new_tool(call: &Call) -> Result<Document, Failure> {
    let args: NewArgs = call.parse()?;
    let spec = process(args.command, args.cwd, args.env)?;
    to_value(&new::create(Some(args.name), spec, &call.context, true)?)
}

#[derive(Deserialize)]
struct SpawnArgs {
    target: Option<String>,
    split: Option<String>,
    ratio: Option<f64>,
    #[serde(default)]
    command: Vec<String>,
    cwd: Option<String>,
    #[serde(default)]
    env: Vec<String>,
}

fn spawn_tool(call: &Call) -> Result<Document, Failure> {
    let args: SpawnArgs = call.parse()?;
    let ratio = args.ratio.unwrap_or(DEFAULT_RATIO);
    check_ratio(ratio)?;
    let placement = Placement {
        target: args.target.as_deref().map(target::parse).transpose()?,
        split: split(args.split.as_deref()),
        ratio,
        unplaced: false,
    };
    let spec = process(args.command, args.cwd, args.env)?;
    let mut client = connect(&call.context)?;
    let spawned =
        spawn(&mut client, placement, spec).map_err(|e| Failure::from(e).partial_view_exits_1())?;
    to_value(&spawned)
}

/// `horizontal` (the default) or `vertical`.
pub fn split(name: Option<&str>) -> SplitDirection {
    match name {
        Some("vertical") => SplitDirection::Vertical,
        _ => SplitDirection::Horizontal,
    }
}

#[derive(Deserialize)]
struct KillArgs {
    target: String,
}

fn kill_tool(call: &Call) -> Result<Document, Failure> {
    let args: KillArgs = call.parse()?;
    require_confirm(call, &format!("kill {}", args.target))?;
    let selector = target::parse(&args.target)?;
    let mut client = connect(&call.context)?;
    let killed = match kill(&mut client, &selector)? {
        KillScope::Panes(panes) => json!({"panes": panes}),
        KillScope::Tagged(terminals) => json!({"panes": terminals}),
        KillScope::Window(window) => json!({"window": window}),
        KillScope::Session(session) => json!({"session": session}),
    };
    to_value(&Fields(vec![
        ("schema_version", json!(1)),
        ("target", json!(args.target)),
        ("killed", json!(killed)),
    ]))
}

#[derive(Deserialize)]
struct RenameArgs {
    session: String,
    new_name: String,
}

fn rename(call: &Call) -> Result<Document, Failure> {
    let args: RenameArgs = call.parse()?;
    phux_client::verbs::rename::check_new_name(&args.new_name)?;
    let mut client = connect(&call.context)?;
    rename_session(&mut client, &args.session, &args.new_name).map_err(|e| {
        let refused = matches!(e, ClientError::Server { .. });
        let failure = Failure::from(e);
        if refused {
            failure.with_exit_code(phux_core::exit_code::USAGE)
        } else {
            failure
        }
    })?;
    to_value(&Fields(vec![
        ("schema_version", json!(1)),
        ("session", json!(args.new_name)),
        ("from", json!(args.session)),
    ]))
}

#[derive(Deserialize)]
struct DetachArgs {
    session: Option<String>,
}

fn detach(call: &Call) -> Result<Document, Failure> {
    let args: DetachArgs = call.parse()?;
    let what = args.session.as_deref().unwrap_or("every session");
    require_confirm(call, &format!("detach the clients of {what}"))?;
    let mut client = connect(&call.context)?;
    let ok: DetachOk = client.request(ClientMessage::DetachClients(DetachClients {
        id: 0,
        session: args.session.clone(),
    }))?;
    to_value(&Fields(vec![
        ("schema_version", json!(1)),
        ("detached", json!(ok.detached)),
        ("session", json!(args.session)),
    ]))
}

#[derive(Deserialize)]
struct TagArgs {
    action: String,
    target: Option<String>,
    #[serde(default)]
    tags: Vec<String>,
}

fn tag(call: &Call) -> Result<Document, Failure> {
    let args: TagArgs = call.parse()?;
    let action = match args.action.as_str() {
        "add" => TagAction::Add,
        "rm" => TagAction::Remove,
        _ => TagAction::List,
    };
    if action != TagAction::List && (args.target.is_none() || args.tags.is_empty()) {
        return Err(invalid_argument(format!(
            "phux_tag {} needs a target and at least one tag",
            args.action
        )));
    }
    let names = args
        .tags
        .iter()
        .map(|t| normalize_tag(t))
        .collect::<Result<Vec<_>, _>>()?;
    let selector = args.target.as_deref().map(target::parse).transpose()?;
    let mut client = connect(&call.context)?;
    let panes = match selector {
        Some(selector) => target::resolve_target(&mut client, &selector)?
            .panes()
            .to_vec(),
        None => client.state()?.panes().map(|p| p.id).collect(),
    };
    to_value(&tags(&mut client, action, panes, names)?)
}
