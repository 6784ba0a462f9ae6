//! Tools that act on a pane: `phux_send_keys`, `phux_paste`, `phux_run`, `phux_ask`,
//! `phux_signal`, `phux_resize`.

use phux_client::failure::Failure;
use phux_client::pane::{self, Ask};
use phux_client::target;
use phux_client::values::{connect, resolve_pane};
use phux_client::verbs::run::{self, RunOptions};
use phux_client::verbs::send_keys::{self, ThenWait};
use phux_core::documents::{GridSize, RunResult};
use phux_core::error_code::ErrorCode;
use phux_core::limits::check_grid;
use phux_core::wire::SignalName;
use serde::Deserialize;
use serde_json::json;

use crate::schema::{boolean, choice, confirm, integer, number, object, string, strings};
use crate::tools::{require_confirm, to_value, Call, Document, Fields, Tool};

pub fn tools() -> Vec<Tool> {
    vec![
        Tool {
            name: "phux_send_keys",
            description: "Type keys into a pane: tmux key names (Enter, Escape, C-c, M-x, F1..F12, Up, BSpace, ...) or text, typed key by key. `literal` types every item as text. Keys that submit several lines are typed line by line, each once the pane answered the one before, and `mark` is from just before the last line. Returns {schema_version, pane, mark} (mark: for phux_wait's `after`). With `wait_until`, `wait_regex` or `wait_idle_ms` it then waits in the same call, as phux_wait with `after: mark` would, and returns phux_wait's document with the delivery under `sent`.",
            schema: || {
                object(
                    &["target", "keys"],
                    vec![
                        ("target", string("The pane")),
                        ("keys", strings("Key names or text, in order")),
                        ("literal", boolean("Type every item as text, with no key-name lookup")),
                        ("wait_until", string("Then wait until a line of the output after the keys contains this text")),
                        ("wait_regex", string("Then wait until a line of the output after the keys matches this regex")),
                        ("wait_idle_ms", integer("Then wait until the pane wrote after the keys and stayed quiet this long (a full-screen program done redrawing)", 1, 3_600_000)),
                        ("timeout_secs", number("With a wait_*: give up after this many seconds (outcome timed_out) [default: 30]", 0.0, 86_400.0)),
                    ],
                )
            },
            call: send_keys,
        },
        Tool {
            name: "phux_paste",
            description: "Paste text into a pane as one paste (bracketed when the pane asked for it), without submitting it: follow with phux_send_keys [\"Enter\"]. Returns {schema_version, pane, mark}.",
            schema: || {
                object(
                    &["target", "text"],
                    vec![("target", string("The pane")), ("text", string("The text"))],
                )
            },
            call: paste,
        },
        Tool {
            name: "phux_run",
            description: "Run a shell command in a pane's shell (sh, dash, bash, zsh, fish) and return its RunResult {command, exit_code, output, duration_ms, truncated, mark}. A non-zero exit_code is a result, not an error; giving up at timeout_secs is an error (run_timed_out, exit_code 125: the command may still be running). One run per pane at a time: a second is refused (target_busy). A multi-line command runs as one unit (exit_code is the last line's). `output` is what the program printed, long lines whole; for a large output pass `tail` (its last N lines) or `output_file` (all of it written there).",
            schema: || {
                object(
                    &["target", "command"],
                    vec![
                        ("target", string("The pane, at a shell prompt")),
                        ("command", string("The command line")),
                        ("timeout_secs", integer("Give up after this many seconds [default: 600]", 1, 3600)),
                        ("tail", integer("Return only the last N lines of the output (truncated: true when cut)", 1, 100_000)),
                        ("output_file", string("Write the whole output to this file (absolute, or relative to the MCP server's directory); `output` then holds only the `tail` lines, if given")),
                        ("background", boolean("Answer at once with a job id instead of the result; collect it with phux_job (the command is typed before the answer, so nothing it does is missed)")),
                    ],
                )
            },
            call: run_tool,
        },
        Tool {
            name: "phux_ask",
            description: "Report that the agent in a pane asks its user a question (an `asked` event for watchers). Returns {schema_version, event, terminal, id, question, suggestions, elapsed_seconds}.",
            schema: || {
                object(
                    &["target", "question"],
                    vec![
                        ("target", string("The pane")),
                        ("question", string("The question")),
                        ("id", string("The ask's id [default: empty]")),
                        ("suggestions", strings("Suggested answers")),
                        ("elapsed_seconds", integer("How long the agent has been waiting", 0, u64::MAX)),
                    ],
                )
            },
            call: ask,
        },
        Tool {
            name: "phux_signal",
            description: "Send a signal to the foreground process group of the panes a target names: interrupt (INT), freeze (STOP), resume (CONT), terminate (TERM), kill (KILL). interrupt, terminate and kill need confirm: true. Returns {schema_version, signal, panes}.",
            schema: || {
                object(
                    &["target", "signal"],
                    vec![
                        ("target", string("The pane(s): @N, #tag, session:window.pane, ...")),
                        ("signal", choice("The signal", &["interrupt", "freeze", "resume", "terminate", "kill"])),
                        ("confirm", confirm("interrupt, terminate and kill stop what the pane runs")),
                    ],
                )
            },
            call: signal,
        },
        Tool {
            name: "phux_resize",
            description: "Resize a pane's grid to cols x rows (it never attaches). Returns {schema_version, terminal_id, requested, applied, held}; held is false when the server kept another size.",
            schema: || {
                object(
                    &["target", "cols", "rows"],
                    vec![
                        ("target", string("The pane")),
                        ("cols", integer("Columns", 1, u64::from(u16::MAX))),
                        ("rows", integer("Rows", 1, u64::from(u16::MAX))),
                    ],
                )
            },
            call: resize,
        },
    ]
}

#[derive(Deserialize)]
struct SendKeysArgs {
    target: String,
    keys: Vec<String>,
    #[serde(default)]
    literal: bool,
    wait_until: Option<String>,
    wait_regex: Option<String>,
    wait_idle_ms: Option<u64>,
    timeout_secs: Option<f64>,
}

fn send_keys(call: &Call) -> Result<Document, Failure> {
    let args: SendKeysArgs = call.parse()?;
    let then = ThenWait {
        until: args.wait_until,
        regex: args.wait_regex,
        idle_ms: args.wait_idle_ms,
        timeout: args.timeout_secs.map(crate::tools::seconds),
    };
    let waits = then.asked()?;
    let sent = send_keys::deliver(&call.context, &args.target, args.keys, args.literal)?;
    if !waits {
        return to_value(&sent);
    }
    let options = then.options(&args.target, sent.mark);
    let waited =
        phux_client::verbs::wait::wait_for(options, &call.context, Some(call.stop.clone()))?;
    let mut value = super::read::wait_document(&waited, call)?.value;
    if let Some(fields) = value.as_object_mut() {
        fields.insert(
            "sent".into(),
            serde_json::to_value(&sent).unwrap_or_default(),
        );
    }
    to_value(&value)
}

#[derive(Deserialize)]
struct PasteArgs {
    target: String,
    text: String,
}

fn paste(call: &Call) -> Result<Document, Failure> {
    let args: PasteArgs = call.parse()?;
    to_value(&phux_client::verbs::paste::deliver(
        &call.context,
        &args.target,
        args.text,
    )?)
}

#[derive(Deserialize)]
struct RunArgs {
    target: String,
    command: String,
    timeout_secs: Option<u64>,
    tail: Option<usize>,
    output_file: Option<std::path::PathBuf>,
    #[serde(default)]
    background: bool,
}

fn run_tool(call: &Call) -> Result<Document, Failure> {
    let args: RunArgs = call.parse()?;
    let verb_args = RunOptions {
        timeout: std::time::Duration::from_secs(args.timeout_secs.unwrap_or(600)),
        tail: args.tail,
        output: args.output_file,
        target: args.target,
        command: vec![args.command],
    };
    if args.background {
        return super::jobs::start(verb_args, &call.context);
    }
    let result = run::run_in_pane(verb_args, &call.context, Some(&call.stop))?;
    to_value(&fit_run_result(result)?)
}

/// How much of a spilled run's output stays in `output`: its last lines up to this size.
const KEPT_OUTPUT_BYTES: usize = 64 * 1024;

/// A RunResult as a tool may return it. The command has run: an output too large to return
/// is written whole to a private file (`output_file`), and `output` keeps its last lines
/// (`truncated: true`), so the exit code and the output both reach the caller, and nothing
/// is ever to be run again to see them.
pub fn fit_run_result(mut result: RunResult) -> Result<RunResult, Failure> {
    let size = serde_json::to_string(&result).map_or(0, |t| t.len());
    if size <= super::MAX_OUTPUT_BYTES {
        return Ok(result);
    }
    let mut whole = result.output.clone();
    whole.push('\n');
    let path = crate::spill::write("phux_run", "txt", &whole).map_err(|e| {
        Failure::new(
            ErrorCode::OutputTooLarge,
            format!(
                "{:?} finished with exit_code {}, but its output is {} bytes, over what a tool \
                 may return, and it could not be kept in {}: {e}",
                result.command,
                result.exit_code,
                result.output.len(),
                crate::spill::directory().display()
            ),
            "the command has run: do not run it again; next time pass `output_file` (the whole output written where you say) or `tail`",
        )
    })?;
    result.output = last_lines(&result.output, KEPT_OUTPUT_BYTES).to_owned();
    result.truncated = true;
    result.output_file = Some(path.display().to_string());
    Ok(result)
}

/// The last whole lines of `text` that fit in `most` bytes.
fn last_lines(text: &str, most: usize) -> &str {
    if text.len() <= most {
        return text;
    }
    let mut start = text.len() - most;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    match text[start..].find('\n') {
        Some(newline) => &text[start + newline + 1..],
        None => &text[start..],
    }
}

#[derive(Deserialize)]
struct AskArgs {
    target: String,
    question: String,
    #[serde(default)]
    id: String,
    #[serde(default)]
    suggestions: Vec<String>,
    elapsed_seconds: Option<u64>,
}

fn ask(call: &Call) -> Result<Document, Failure> {
    let args: AskArgs = call.parse()?;
    let selector = target::parse(&args.target)?;
    let mut client = connect(&call.context)?;
    let pane = resolve_pane(&mut client, &selector)?;
    let document = pane::ask(
        &mut client,
        pane,
        Ask {
            id: args.id,
            question: args.question,
            suggestions: args.suggestions,
            elapsed_seconds: args.elapsed_seconds,
        },
    )?;
    to_value(&document)
}

#[derive(Deserialize)]
struct SignalArgs {
    target: String,
    signal: String,
}

fn signal(call: &Call) -> Result<Document, Failure> {
    let args: SignalArgs = call.parse()?;
    let signal = match args.signal.as_str() {
        "interrupt" => SignalName::Interrupt,
        "freeze" => SignalName::Freeze,
        "resume" => SignalName::Resume,
        "terminate" => SignalName::Terminate,
        _ => SignalName::Kill,
    };
    if matches!(
        signal,
        SignalName::Interrupt | SignalName::Terminate | SignalName::Kill
    ) {
        require_confirm(call, &format!("signal {} {}", args.target, args.signal))?;
    }
    let selector = target::parse(&args.target)?;
    let mut client = connect(&call.context)?;
    let panes = match selector {
        phux_core::selector::Selector::Terminal(pane) => vec![pane],
        _ => target::resolve_target(&mut client, &selector)?
            .panes()
            .to_vec(),
    };
    for pane in &panes {
        pane::signal(&mut client, *pane, signal)?;
    }
    to_value(&Fields(vec![
        ("schema_version", json!(1)),
        ("signal", json!(args.signal)),
        ("panes", json!(panes)),
    ]))
}

#[derive(Deserialize)]
struct ResizeArgs {
    target: String,
    cols: u16,
    rows: u16,
}

fn resize(call: &Call) -> Result<Document, Failure> {
    let args: ResizeArgs = call.parse()?;
    check_grid(args.cols, args.rows)?;
    let selector = target::parse(&args.target)?;
    let mut client = connect(&call.context)?;
    let pane = resolve_pane(&mut client, &selector)?;
    let document = pane::resize(
        &mut client,
        pane,
        GridSize {
            cols: args.cols,
            rows: args.rows,
        },
    )?;
    to_value(&document)
}
