//! Tools that read: `phux_ls`, `phux_status`, `phux_snapshot`, `phux_wait`, `phux_watch`.

use phux_client::failure::Failure;
use phux_client::values::{connect, exclusive, resolve_single_pane};
use phux_client::verbs::{wait, watch};
use phux_client::{listing, screen, target};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::schema::{boolean, integer, number, object, string};
use crate::tools::{seconds, to_value, Call, Document, Tool};

pub fn tools() -> Vec<Tool> {
    vec![
        Tool {
            name: "phux_ls",
            description: "List the sessions (SessionListJson v3: sessions, terminals, unreachable satellites; like `phux ls --json`) and, in `panes`, every pane of this server with its session, window, title, size and lease: [{target, session, window, window_name, title, cols, rows, lease}]. A `target` is what other tools take.",
            schema: || object(&[], vec![]),
            call: ls,
        },
        Tool {
            name: "phux_status",
            description: "Whether a server runs at the socket and what it holds (StatusJson; `running: false` when none, which is not an error). Like `phux status --json`.",
            schema: || object(&[], vec![]),
            call: status,
        },
        Tool {
            name: "phux_snapshot",
            description: "Read a pane's screen as ScreenState v3 (lines, cursor, title, mark). Never attaches or resizes. Like `phux snapshot --json`.",
            schema: snapshot_schema,
            call: snapshot,
        },
        Tool {
            name: "phux_wait",
            description: "Wait until text appears on a pane (`until` substring or `regex`) or its screen settles (`idle_ms`). Returns {outcome: met|timed_out, met, matched, match, ...final ScreenState}; a timeout is an outcome, not an error. Like `phux wait --json`.",
            schema: wait_schema,
            call: wait_tool,
        },
        Tool {
            name: "phux_watch",
            description: "Collect a bounded batch of pane events (command_started, command_finished, bell, title_changed, pane_closed, asked, agent_state, lease, ...): up to max_events, until one named in `until`, or timeout_secs. Returns {schema_version, events[], count, ended, cursor}; pass `cursor` as `after` to the next call and every event since is replayed first, so none falls between two calls (the server remembers an hour, 16384 events).",
            schema: watch_schema,
            call: watch_tool,
        },
    ]
}

fn ls(call: &Call) -> Result<Document, Failure> {
    let mut client = connect(&call.context)?;
    let state = client.fleet()?;
    let listed = serde_json::to_value(listing::session_list(&state)).unwrap_or_default();
    // The listing's own keys first, then the rows a host needs to choose a pane.
    let mut fields: Vec<(&'static str, Value)> = match listed {
        Value::Object(map) => [
            "schema_version",
            "sessions",
            "terminals",
            "unreachable",
            "exited",
            "leases",
        ]
        .into_iter()
        .filter_map(|key| map.get(key).map(|v| (key, v.clone())))
        .collect(),
        _ => Vec::new(),
    };
    let rows: Vec<Value> = state
        .sessions
        .iter()
        .flat_map(|session| {
            session.windows.iter().flat_map(move |window| {
                window.panes.iter().map(move |pane| {
                    json!({
                        "target": pane.id.to_string(),
                        "session": session.name,
                        "window": window.index,
                        "window_name": window.name,
                        "title": pane.title,
                        "cols": pane.cols,
                        "rows": pane.rows,
                        "lease": pane.lease,
                    })
                })
            })
        })
        .collect();
    fields.push(("panes", Value::Array(rows)));
    to_value(&super::Fields(fields))
}

fn status(call: &Call) -> Result<Document, Failure> {
    to_value(&listing::status(&call.context.socket)?)
}

fn target_property() -> (&'static str, Value) {
    (
        "target",
        string("The pane: @N, session:window.pane, #tag, name, or . [default: the active pane]"),
    )
}

fn snapshot_schema() -> Value {
    object(
        &[],
        vec![
            target_property(),
            (
                "scrollback",
                json!({
                    "type": ["boolean", "integer"],
                    "minimum": 0,
                    "maximum": u32::MAX,
                    "description": "History to include: false/absent = none, true or 0 = all retained rows, N = the last N rows",
                }),
            ),
            (
                "cells",
                boolean("Include the sparse styled and OSC 133 marked cells"),
            ),
            (
                "tail",
                json!({
                    "type": ["boolean", "integer"],
                    "minimum": 0,
                    "maximum": 10_000,
                    "description": "Keep the last N rows of history+viewport (true: 80; 0: all, capped at 10000); the viewport is never cut",
                }),
            ),
            (
                "unwrap",
                boolean("Join soft-wrapped rows into logical lines (not with cells)"),
            ),
        ],
    )
}

/// `true` / N / absent, as the verb's optional-valued flag: bare, `=N`, or not given.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Count {
    Flag(bool),
    Rows(u32),
}

fn flag_value(count: Option<Count>) -> Option<Option<String>> {
    match count? {
        Count::Flag(false) => None,
        Count::Flag(true) => Some(None),
        Count::Rows(n) => Some(Some(n.to_string())),
    }
}

#[derive(Deserialize)]
struct SnapshotArgs {
    target: Option<String>,
    scrollback: Option<Count>,
    #[serde(default)]
    cells: bool,
    tail: Option<Count>,
    #[serde(default)]
    unwrap: bool,
}

fn snapshot(call: &Call) -> Result<Document, Failure> {
    let args: SnapshotArgs = call.parse()?;
    if args.unwrap && args.cells {
        return Err(exclusive("unwrap", "cells"));
    }
    let plan = phux_client::verbs::snapshot::plan(
        flag_value(args.scrollback),
        flag_value(args.tail),
        Some(args.target.unwrap_or_else(|| ".".into())),
    )?;
    let selector = target::parse(&plan.target)?;
    let mut client = connect(&call.context)?;
    let pane = resolve_single_pane(&mut client, &selector)?;
    let mut state = screen::get_screen(&mut client, pane, plan.scrollback, args.cells)?;
    if let Some(n) = plan.tail {
        state = state.tail(n);
    }
    if args.unwrap {
        state = state.unwrap();
    }
    to_value(&state)
}

fn wait_schema() -> Value {
    object(
        &[],
        vec![
            target_property(),
            ("until", string("Met when a line contains this text. Lines are matched as the terminal shows them: soft-wrapped rows joined, right-trimmed, except that the cursor's line keeps its blanks up to the cursor (so `>>> ` matches a waiting Python prompt)")),
            ("regex", string("Met when a line matches this regular expression (not with until)")),
            ("idle_ms", integer("Met when the screen has not changed for this many milliseconds (alone: 500)", 1, 3_600_000)),
            ("timeout_secs", number("Give up after this many seconds: outcome timed_out [default: 30]", 0.0, 3600.0)),
            (
                "tail",
                json!({
                    "type": ["boolean", "integer"],
                    "minimum": 0,
                    "maximum": 10_000,
                    "description": "Match (and return) the last N rows of history+viewport (true: 80; 0: all, capped at 10000)",
                }),
            ),
            ("new", boolean("Match until/regex only in output that arrives after the wait began")),
            ("after", integer("Match until/regex only in the program's output after this mark (from phux_send_keys, phux_paste, phux_run or phux_snapshot): what was typed and its echo never count, and the line matched is one on the screen as it stands", 0, u64::MAX)),
            ("output_only", boolean("Ignore rows holding typed input (needs a shell with OSC 133 marks)")),
        ],
    )
}

/// How long a `phux_wait` waits when the call names no timeout: a tool call must end.
const WAIT_DEFAULT_SECS: f64 = 30.0;

#[derive(Deserialize)]
struct WaitArgs {
    target: Option<String>,
    until: Option<String>,
    regex: Option<String>,
    idle_ms: Option<u64>,
    timeout_secs: Option<f64>,
    tail: Option<Count>,
    #[serde(default)]
    new: bool,
    after: Option<u64>,
    #[serde(default)]
    output_only: bool,
}

fn wait_tool(call: &Call) -> Result<Document, Failure> {
    let args: WaitArgs = call.parse()?;
    let verb_args = wait::WaitOptions {
        until: args.until,
        regex: args.regex,
        idle: args.idle_ms,
        tail: flag_value(args.tail),
        new: args.new,
        after: args.after,
        output_only: args.output_only,
        timeout: Some(seconds(args.timeout_secs.unwrap_or(WAIT_DEFAULT_SECS))),
        target: args.target,
    };
    let waited = wait::wait_for(verb_args, &call.context, Some(call.stop.clone()))?;
    wait_document(&waited, call)
}

/// What `phux_wait` (and `phux_send_keys` with a wait) returns for a wait that ended.
pub(crate) fn wait_document(waited: &wait::Waited, call: &Call) -> Result<Document, Failure> {
    to_value(&WaitOutcome {
        outcome: match (waited.met, call.stop.is_pressed()) {
            (true, _) => "met",
            // Stopped by a cancellation, not by its timeout: said so.
            (false, true) => "cancelled",
            (false, false) => "timed_out",
        },
        wait: waited.document(),
    })
}

/// `phux_wait`'s result: the outcome first, then what `wait --json` prints.
#[derive(serde::Serialize)]
struct WaitOutcome<'a> {
    outcome: &'static str,
    #[serde(flatten)]
    wait: phux_client::verbs::wait_json::WaitJson<'a>,
}

fn watch_schema() -> Value {
    object(
        &[],
        vec![
            ("target", string("The pane to watch [default: every pane]")),
            (
                "until",
                json!({
                    "type": "array",
                    "items": {"type": "string", "enum": event_names()},
                    "maxItems": crate::schema::MAX_ARRAY_ITEMS,
                    "description": "Stop at the first event with one of these names",
                }),
            ),
            (
                "max_events",
                integer("Stop after this many events [default: 16]", 1, 1000),
            ),
            (
                "timeout_secs",
                number("Stop after this many seconds [default: 10]", 0.0, 3600.0),
            ),
            (
                "after",
                integer("Resume after this cursor (an earlier phux_watch's `cursor`): the events since are replayed first", 0, u64::MAX),
            ),
        ],
    )
}

/// Every event name a watch can report (and stop at).
fn event_names() -> Vec<&'static str> {
    phux_core::documents::watch_event::WatchEventName::ALL
        .iter()
        .map(|n| n.as_str())
        .collect()
}

#[derive(Deserialize)]
struct WatchArgs {
    target: Option<String>,
    #[serde(default)]
    until: Vec<String>,
    max_events: Option<usize>,
    timeout_secs: Option<f64>,
    after: Option<u64>,
}

fn watch_tool(call: &Call) -> Result<Document, Failure> {
    let args: WatchArgs = call.parse()?;
    let spec = watch::BatchSpec {
        target: args.target,
        until: args.until,
        max_events: args.max_events.unwrap_or(16),
        timeout: seconds(args.timeout_secs.unwrap_or(10.0)),
        after: args.after,
    };
    to_value(&watch::batch(spec, &call.context, &call.stop)?)
}
