//! The `phux_agent_*` tools, one per `phux agent` sub-verb an agent host drives: list, show,
//! explain, set, clear, wait, send_keys, prompt, answer, start.

use std::str::FromStr;

use phux_client::agent_wait::AgentWaitSession;
use phux_client::agents::{self, Declaration};
use phux_client::failure::Failure;
use phux_client::target;
use phux_client::values::{connect, resolve_agent_pane};
use phux_client::verbs::agent::{answer, explain, prompt, send_keys, start};
use phux_core::agents::{AgentState, Attention};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::schema::{boolean, choice, integer, number, object, string, strings};
use crate::tools::{invalid_argument, seconds, to_value, Call, Document, Fields, Tool};

const STATES: [&str; 5] = ["unknown", "idle", "working", "blocked", "done"];

fn pane_property(description: &'static str) -> (&'static str, Value) {
    ("target", string(description))
}

pub fn tools() -> Vec<Tool> {
    vec![
        Tool {
            name: "phux_agent_list",
            description: "Every pane hosting an agent, with its state (AgentStateJson v1: agents[{terminal, agent, state, confidence, attention, sources, explanation, ...}]).",
            schema: || object(&[], vec![]),
            call: list,
        },
        Tool {
            name: "phux_agent_show",
            description: "The agent state of the panes a target names (AgentStateJson v1).",
            schema: || object(&[], vec![pane_property("The pane(s) [default: the active pane]")]),
            call: show,
        },
        Tool {
            name: "phux_agent_explain",
            description: "Why an agent is in its state: live, for a pane (AgentStateJson with every source), or offline for a captured screen file with a detection manifest (AgentExplainJson).",
            schema: || {
                object(
                    &[],
                    vec![
                        pane_property("The pane [default: the active pane; not with file]"),
                        ("file", string("A captured screen to explain instead (a snapshot JSON document or plain text)")),
                        ("kind", string("The detection manifest to use with file (claude, codex, ...)")),
                        ("title", string("The pane title to evaluate the capture with")),
                        ("format", choice("How to read the file [default: auto]", &["auto", "json", "text"])),
                    ],
                )
            },
            call: explain_tool,
        },
        Tool {
            name: "phux_agent_set",
            description: "Declare (or update) the agent a pane hosts: its name, kind, state and attention. Returns {schema_version, terminal, record}.",
            schema: || {
                object(
                    &["name"],
                    vec![
                        pane_property("The pane [default: the active pane]"),
                        ("name", string("The agent's name")),
                        ("kind", string("Its kind (claude, codex, ...)")),
                        ("state", choice("Its state", &STATES)),
                        ("attention", choice("How much a person should look", &["none", "low", "normal", "high"])),
                        ("session", string("The agent's own session id")),
                    ],
                )
            },
            call: set,
        },
        Tool {
            name: "phux_agent_clear",
            description: "Remove a pane's agent record. Returns {schema_version, terminal, cleared}.",
            schema: || object(&[], vec![pane_property("The pane [default: the active pane]")]),
            call: clear,
        },
        Tool {
            name: "phux_agent_wait",
            description: "Wait for a pane's agent to move into a state (default: idle, blocked or done). Returns AgentWaitJson; satisfied: false on timeout (not an error).",
            schema: || {
                object(
                    &[],
                    vec![
                        pane_property("The pane [default: the active pane]"),
                        ("until", json!({"type": "array", "items": {"type": "string", "enum": STATES}, "maxItems": 5, "description": "The states to wait for [default: idle, blocked, done]"})),
                        ("timeout_secs", number("Give up after this many seconds [default: 30]", 0.0, 3600.0)),
                    ],
                )
            },
            call: wait,
        },
        Tool {
            name: "phux_agent_send_keys",
            description: "Type keys into a pane after checking which agent it hosts (expect_agent / expect_kind refuse with agent_mismatch). Returns AgentSendKeysJson.",
            schema: || {
                object(
                    &["target", "keys"],
                    vec![
                        pane_property("The pane"),
                        ("keys", strings("Key names or text, in order")),
                        ("expect_agent", string("Refuse unless the agent has this name")),
                        ("expect_kind", string("Refuse unless the agent is of this kind")),
                    ],
                )
            },
            call: agent_send_keys,
        },
        Tool {
            name: "phux_agent_prompt",
            description: "Submit a one-line prompt to a pane's agent, and with wait: true wait for its next state. Returns AgentPromptJson (transition_observed: false when the wait timed out).",
            schema: || {
                object(
                    &["target", "text"],
                    vec![
                        pane_property("The pane"),
                        ("text", string("The prompt (one line)")),
                        ("expect_agent", string("Refuse unless the agent has this name")),
                        ("expect_kind", string("Refuse unless the agent is of this kind")),
                        ("wait", boolean("Wait for the agent's next state")),
                        ("until", json!({"type": "array", "items": {"type": "string", "enum": STATES}, "maxItems": 5, "description": "With wait: the states to wait for"})),
                        ("timeout_secs", number("With wait: give up after this many seconds [default: 30]", 0.0, 3600.0)),
                    ],
                )
            },
            call: prompt_tool,
        },
        Tool {
            name: "phux_agent_answer",
            description: "Answer the question a pane's agent asks (see phux_ask / phux_agent_show): by suggestion number (choice) or text. Returns AgentAnswerJson.",
            schema: || {
                object(
                    &["target", "id"],
                    vec![
                        pane_property("The pane"),
                        ("id", string("The ask's id")),
                        ("choice", integer("The suggestion, from 1", 1, 64)),
                        ("text", string("The answer's text (not with choice)")),
                        ("allow_unlisted", boolean("Allow a text that is none of the suggestions")),
                    ],
                )
            },
            call: answer_tool,
        },
        Tool {
            name: "phux_agent_start",
            description: "Start an agent of a kind in a pane sitting at a shell prompt, declare it under a name, and (unless no_wait) wait until it is recognised. Returns AgentStartJson.",
            schema: || {
                object(
                    &["name", "kind", "target"],
                    vec![
                        ("name", string("The agent's name: a lowercase letter, then up to 31 of a-z 0-9 _ -")),
                        ("kind", string("Its kind (claude, codex, ...)")),
                        pane_property("The pane, at a shell prompt"),
                        ("args", strings("Extra arguments for the agent's program")),
                        ("timeout_secs", number("How long to wait for it [default: 30]", 0.0, 3600.0)),
                        ("no_wait", boolean("Return once the launch line is typed")),
                        ("integration", string("Launch through this plugin integration, when several enabled ones claim the kind")),
                    ],
                )
            },
            call: start_tool,
        },
    ]
}

fn list(call: &Call) -> Result<Document, Failure> {
    let mut client = connect(&call.context)?;
    to_value(&agents::list(&mut client)?)
}

#[derive(Deserialize)]
struct TargetArgs {
    target: Option<String>,
}

impl TargetArgs {
    fn target(&self) -> &str {
        self.target.as_deref().unwrap_or(".")
    }
}

fn show(call: &Call) -> Result<Document, Failure> {
    let args: TargetArgs = call.parse()?;
    let selector = target::parse(args.target())?;
    let mut client = connect(&call.context)?;
    let panes = target::resolve_target(&mut client, &selector)?
        .panes()
        .to_vec();
    to_value(&agents::show(&mut client, panes)?)
}

#[derive(Deserialize)]
struct ExplainArgs {
    target: Option<String>,
    file: Option<String>,
    kind: Option<String>,
    title: Option<String>,
    format: Option<String>,
}

fn explain_tool(call: &Call) -> Result<Document, Failure> {
    let args: ExplainArgs = call.parse()?;
    let Some(file) = args.file else {
        return show(call);
    };
    if file == "-" || args.target.is_some() {
        return Err(invalid_argument(
            "phux_agent_explain: file names a captured screen on disk (stdin is the MCP channel), and takes no target",
        ));
    }
    let verb_args = explain::ExplainOptions {
        format: match args.format.as_deref() {
            Some("json") => explain::CaptureFormat::Json,
            Some("text") => explain::CaptureFormat::Text,
            _ => explain::CaptureFormat::Auto,
        },
        kind: args.kind,
        title: args.title,
    };
    to_value(&explain::offline_document(&verb_args, &file)?)
}

#[derive(Deserialize)]
struct SetArgs {
    target: Option<String>,
    name: String,
    kind: Option<String>,
    state: Option<String>,
    attention: Option<String>,
    session: Option<String>,
}

fn set(call: &Call) -> Result<Document, Failure> {
    let args: SetArgs = call.parse()?;
    let state = args.state.as_deref().map(parse::<AgentState>).transpose()?;
    let attention = args
        .attention
        .as_deref()
        .map(parse::<Attention>)
        .transpose()?;
    let selector = target::parse(args.target.as_deref().unwrap_or("."))?;
    let mut client = connect(&call.context)?;
    let pane = resolve_agent_pane(&mut client, &selector, "phux_agent_set")?;
    let record = agents::set(
        &mut client,
        pane,
        Declaration {
            name: args.name,
            kind: args.kind,
            state,
            attention,
            session: args.session,
        },
    )?;
    to_value(&Fields(vec![
        ("schema_version", json!(1)),
        ("terminal", json!(pane)),
        ("record", json!(record)),
    ]))
}

fn parse<T: FromStr>(text: &str) -> Result<T, Failure>
where
    T::Err: std::fmt::Display,
{
    text.parse::<T>()
        .map_err(|e| invalid_argument(e.to_string()))
}

fn clear(call: &Call) -> Result<Document, Failure> {
    let args: TargetArgs = call.parse()?;
    let selector = target::parse(args.target())?;
    let mut client = connect(&call.context)?;
    let pane = resolve_agent_pane(&mut client, &selector, "phux_agent_clear")?;
    agents::clear(&mut client, pane)?;
    to_value(&Fields(vec![
        ("schema_version", json!(1)),
        ("terminal", json!(pane)),
        ("cleared", json!(true)),
    ]))
}

fn states(names: Vec<String>) -> Result<Vec<AgentState>, Failure> {
    names.iter().map(|n| parse::<AgentState>(n)).collect()
}

#[derive(Deserialize)]
struct WaitArgs {
    target: Option<String>,
    #[serde(default)]
    until: Vec<String>,
    timeout_secs: Option<f64>,
}

fn wait(call: &Call) -> Result<Document, Failure> {
    let args: WaitArgs = call.parse()?;
    let mut wanted = states(args.until)?;
    if wanted.is_empty() {
        wanted = vec![AgentState::Idle, AgentState::Blocked, AgentState::Done];
    }
    let selector = target::parse(args.target.as_deref().unwrap_or("."))?;
    let mut client = connect(&call.context)?;
    let pane = resolve_agent_pane(&mut client, &selector, "phux_agent_wait")?;
    let timeout = seconds(args.timeout_secs.unwrap_or(30.0));
    let document = AgentWaitSession::open(&mut client, &call.context.socket, pane, wanted)?
        .with_stop(call.stop.clone())
        .run(&mut client, Some(timeout))?;
    to_value(&document)
}

#[derive(Deserialize)]
struct SendKeysArgs {
    target: String,
    keys: Vec<String>,
    expect_agent: Option<String>,
    expect_kind: Option<String>,
}

fn agent_send_keys(call: &Call) -> Result<Document, Failure> {
    let args: SendKeysArgs = call.parse()?;
    let verb_args = send_keys::AgentSendKeysOptions {
        expect_agent: args.expect_agent,
        expect_kind: args.expect_kind,
        target: args.target,
        keys: args.keys,
    };
    to_value(&send_keys::document(verb_args, &call.context)?)
}

#[derive(Deserialize)]
struct PromptArgs {
    target: String,
    text: String,
    expect_agent: Option<String>,
    expect_kind: Option<String>,
    #[serde(default)]
    wait: bool,
    #[serde(default)]
    until: Vec<String>,
    timeout_secs: Option<f64>,
}

fn prompt_tool(call: &Call) -> Result<Document, Failure> {
    let args: PromptArgs = call.parse()?;
    let verb_args = prompt::PromptOptions {
        expect_agent: args.expect_agent,
        expect_kind: args.expect_kind,
        wait: args.wait,
        until: states(args.until)?,
        timeout: args
            .wait
            .then(|| seconds(args.timeout_secs.unwrap_or(30.0))),
        target: args.target,
        text: args.text,
    };
    to_value(&prompt::document(verb_args, &call.context)?)
}

#[derive(Deserialize)]
struct AnswerArgs {
    target: String,
    id: String,
    choice: Option<usize>,
    text: Option<String>,
    #[serde(default)]
    allow_unlisted: bool,
}

fn answer_tool(call: &Call) -> Result<Document, Failure> {
    let args: AnswerArgs = call.parse()?;
    if args.choice.is_some() && args.text.is_some() {
        return Err(invalid_argument(
            "phux_agent_answer: choice or text, not both",
        ));
    }
    let verb_args = answer::AnswerOptions {
        id: args.id,
        choice: args.choice,
        text: args.text,
        allow_unlisted: args.allow_unlisted,
        target: args.target,
    };
    to_value(&answer::document(verb_args, &call.context)?)
}

#[derive(Deserialize)]
struct StartArgs {
    name: String,
    kind: String,
    target: String,
    #[serde(default)]
    args: Vec<String>,
    timeout_secs: Option<f64>,
    #[serde(default)]
    no_wait: bool,
    integration: Option<String>,
}

fn start_tool(call: &Call) -> Result<Document, Failure> {
    let args: StartArgs = call.parse()?;
    let verb_args = start::AgentStartOptions {
        name: args.name,
        kind: args.kind,
        target: args.target,
        timeout: args.timeout_secs.map(seconds),
        no_wait: args.no_wait,
        integration: args.integration,
        args: args.args,
    };
    to_value(&start::document(verb_args, &call.context)?)
}
