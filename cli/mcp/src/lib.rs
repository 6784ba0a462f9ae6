//! `phux mcp`: a Model Context Protocol server on stdio, a thin adapter over the same client
//! library the verbs use. Newline-delimited JSON-RPC 2.0: the reader (the caller's thread)
//! answers `initialize`, `ping` and `tools/list` itself and starts a worker thread per
//! `tools/call`, so `notifications/cancelled` can stop a `phux_wait` in flight. A tool's
//! failure is a result with `isError: true` carrying the JSON error document; a malformed
//! message gets the standard JSON-RPC error and the server keeps serving. Tools call
//! `phux_client`'s operations with options built from their JSON arguments: no command line is
//! rebuilt or parsed here.

#![forbid(unsafe_code)]

pub mod instance;
pub mod protocol;
pub mod schema;
pub mod spill;
pub mod tools;

use phux_core::bounded_read::{self, Line, MAX_MESSAGE_LINE_BYTES};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{json, Value};

use phux_client::failure::Failure;
use phux_client::stop::Stop;
use phux_core::error_code::ErrorCode;
use protocol::{Incoming, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR};

/// What hosts are told about the server in `initialize`.
const INSTRUCTIONS: &str = "phux drives terminal panes: read them (phux_snapshot), type into them \
(phux_send_keys, phux_paste), run shell commands (phux_run) and wait for text or quiet \
(phux_wait). Panes are addressed as @N (from phux_ls, phux_new or phux_spawn), \
session:window.pane, #tag or a session name. Tool failures come back as isError results \
carrying {schema_version, error{code, message}, remedy, exit_code}: branch on error.code.";

/// Shared by the reader and the workers.
struct Server {
    output: Mutex<Box<dyn Write + Send>>,
    socket: PathBuf,
    /// The revision `initialize` settled on (the newest until then).
    revision: Mutex<&'static str>,
    /// The calls in flight, by request id (as JSON text), with the button that stops each.
    in_flight: Mutex<HashMap<String, Stop>>,
    /// The tool groups this session lists and answers.
    tools: tools::catalog::ToolSet,
    /// The server instance the pane ids of results belong to.
    instances: instance::Instances,
    /// Whether nobody reads `output` any more (the client is gone, not just done writing).
    reader_gone: Box<dyn Fn() -> bool + Send + Sync>,
}

/// Serves MCP on `input` / `output` until `input` ends and the calls in flight have answered
/// (or nobody reads their answers: `reader_gone`). `socket` is the server socket every tool
/// uses; `set` the tool groups listed.
pub fn serve(
    input: impl BufRead,
    output: Box<dyn Write + Send>,
    socket: PathBuf,
    set: tools::catalog::ToolSet,
    reader_gone: Box<dyn Fn() -> bool + Send + Sync>,
) -> std::io::Result<()> {
    let server = Arc::new(Server {
        output: Mutex::new(output),
        socket,
        tools: set,
        revision: Mutex::new(protocol::NEWEST),
        in_flight: Mutex::new(HashMap::new()),
        instances: instance::Instances::default(),
        reader_gone,
    });
    let mut input = input;
    loop {
        // A line is held up to the limit and no further: an endless one was buffered whole.
        let line = match bounded_read::read_line(&mut input, MAX_MESSAGE_LINE_BYTES)? {
            Line::End => break,
            Line::TooLong { head, tail } => {
                // Answered under its own id when one can be read from its ends, so the client
                // waiting for it hears at once.
                let id = protocol::id_of_long_line(&head, &tail);
                let code = if id.is_null() {
                    PARSE_ERROR
                } else {
                    INVALID_REQUEST
                };
                server.send(&protocol::error(
                    &id,
                    code,
                    &format!(
                        "a message longer than {} was skipped unread",
                        bounded_read::human(MAX_MESSAGE_LINE_BYTES)
                    ),
                ));
                continue;
            }
            Line::Complete(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        };
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(&line) {
            Ok(Value::Array(batch)) => server.batch(batch),
            Ok(message) => {
                if let Some(reply) = server.handle(message, true) {
                    server.send(&reply);
                }
            }
            Err(e) => server.send(&protocol::error(
                &Value::Null,
                PARSE_ERROR,
                &format!("parse error: {e}"),
            )),
        }
    }
    server.finish();
    Ok(())
}

/// Tool calls running at once. Each holds a thread here and a connection to the server: 700
/// concurrent waits from one client took 605 threads and every place the server had, and then
/// `ls`, `status` and `kill --server` failed for everyone.
pub const MAX_CALLS_IN_FLIGHT: usize = 64;

/// How long the calls in flight may take to end once they were stopped because nobody reads.
const FINISH_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

/// How often the calls in flight and the reader are looked at once the input has ended.
const FINISH_POLL: std::time::Duration = std::time::Duration::from_millis(20);

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Whether the reader of this process's stdout is gone (a pipe or socket whose other end was
/// closed): then no answer can reach anyone.
pub fn stdout_reader_gone() -> bool {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    let stdout = std::io::stdout();
    let mut fds = [PollFd::new(&stdout, PollFlags::empty())];
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    match poll(&mut fds, Some(&now)) {
        Ok(_) => fds[0]
            .revents()
            .intersects(PollFlags::ERR | PollFlags::HUP | PollFlags::NVAL),
        Err(_) => false,
    }
}

impl Server {
    /// The input ended. A client may write its last request and close its end while it still
    /// reads (a pipeline does), so the calls in flight go on and are answered as they end, with
    /// what they really found. Once nobody reads (the client is gone), they are stopped — their
    /// answers could reach no one — and given [`FINISH_GRACE`] to let go (a recording writes what
    /// it has) before the process ends.
    fn finish(&self) {
        loop {
            if lock(&self.in_flight).is_empty() {
                return;
            }
            if (self.reader_gone)() {
                break;
            }
            std::thread::sleep(FINISH_POLL);
        }
        for stop in lock(&self.in_flight).values() {
            stop.press();
        }
        let give_up = std::time::Instant::now() + FINISH_GRACE;
        while !lock(&self.in_flight).is_empty() && std::time::Instant::now() < give_up {
            std::thread::sleep(FINISH_POLL);
        }
    }

    /// Writes one message as one line.
    fn send(&self, message: &Value) {
        let mut output = lock(&self.output);
        let _ = writeln!(output, "{message}");
        let _ = output.flush();
    }

    /// A JSON-RPC batch (2025-03-26 allows them): every member handled in order, tool calls
    /// inline; one array of the replies, none when all were notifications.
    fn batch(self: &Arc<Self>, batch: Vec<Value>) {
        if batch.is_empty() {
            self.send(&protocol::error(
                &Value::Null,
                INVALID_REQUEST,
                "an empty batch",
            ));
            return;
        }
        let replies: Vec<Value> = batch
            .into_iter()
            .filter_map(|m| self.handle(m, false))
            .collect();
        if !replies.is_empty() {
            self.send(&Value::Array(replies));
        }
    }

    /// Handles one message; returns the reply to send now, if any. With `spawn`, a tool call
    /// runs on its own thread and replies from there.
    fn handle(self: &Arc<Self>, message: Value, spawn: bool) -> Option<Value> {
        match protocol::classify(message) {
            Incoming::Request { id, method, params } => self.request(id, &method, params, spawn),
            Incoming::Notification { method, params } => {
                if method == "notifications/cancelled" {
                    self.cancel(&params);
                }
                None
            }
            Incoming::Response => None,
            Incoming::Invalid { id, code, message } => Some(protocol::error(&id, code, &message)),
        }
    }

    fn request(
        self: &Arc<Self>,
        id: Value,
        method: &str,
        params: Value,
        spawn: bool,
    ) -> Option<Value> {
        let result = match method {
            "initialize" => self.initialize(&params),
            "ping" => json!({}),
            "tools/list" => {
                json!({"tools": tools::listed(&self.tools).iter().map(tools::listing).collect::<Vec<_>>()})
            }
            "tools/call" => return self.call(id, params, spawn),
            _ => {
                return Some(protocol::error(
                    &id,
                    METHOD_NOT_FOUND,
                    &format!("method not found: {method}"),
                ))
            }
        };
        Some(protocol::result(&id, result))
    }

    fn initialize(&self, params: &Value) -> Value {
        let asked = params.get("protocolVersion").and_then(Value::as_str);
        let revision = protocol::negotiate(asked);
        *lock(&self.revision) = revision;
        json!({
            "protocolVersion": revision,
            "capabilities": {"tools": {"listChanged": false}},
            "serverInfo": {"name": "phux", "title": "phux", "version": env!("CARGO_PKG_VERSION")},
            "instructions": INSTRUCTIONS,
        })
    }

    /// `tools/call`: an unknown tool or malformed params are JSON-RPC errors; everything the
    /// tool itself reports is a result.
    fn call(self: &Arc<Self>, id: Value, params: Value, spawn: bool) -> Option<Value> {
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return Some(protocol::error(
                &id,
                INVALID_PARAMS,
                "tools/call needs params.name, a string",
            ));
        };
        let Some(tool) = tools::find(name) else {
            return Some(protocol::error(
                &id,
                INVALID_PARAMS,
                &format!("unknown tool: {name} (tools/list names them)"),
            ));
        };
        if !self.tools.lists(name) {
            let group = tools::catalog::meta(name).map_or("all", |m| m.group.name());
            return Some(protocol::error(
                &id,
                INVALID_PARAMS,
                &format!("{name} is not listed in this session: start the adapter with `phux mcp --tools core,{group}` (or `all`)"),
            ));
        }
        let arguments = params.get("arguments").cloned().unwrap_or(Value::Null);
        if !matches!(arguments, Value::Null | Value::Object(_)) {
            return Some(protocol::error(
                &id,
                INVALID_PARAMS,
                "tools/call params.arguments must be an object",
            ));
        }
        // Past here, every refusal is the tool's result with a typed code, not a JSON-RPC
        // error: a host shows it to the model, which can wait and call again.
        let stop = match Stop::new() {
            Ok(stop) => stop,
            Err(e) => {
                return Some(
                    self.answer(&id, Err(overloaded(&format!("cannot start the call: {e}")))),
                )
            }
        };
        if !spawn {
            return Some(self.run_tool(&id, &tool, arguments, stop));
        }
        let key = id.to_string();
        {
            let mut in_flight = lock(&self.in_flight);
            if in_flight.len() >= MAX_CALLS_IN_FLIGHT {
                drop(in_flight);
                return Some(self.answer(
                    &id,
                    Err(overloaded(&format!(
                        "{MAX_CALLS_IN_FLIGHT} calls are in flight already, the most this adapter runs at once; {name} was not started"
                    ))),
                ));
            }
            in_flight.insert(key.clone(), stop.clone());
        }
        let server = Arc::clone(self);
        let reply_id = id.clone();
        let worker_key = key.clone();
        let started = std::thread::Builder::new()
            .name(format!("mcp {name}"))
            .spawn(move || {
                let reply = server.run_tool(&id, &tool, arguments, stop);
                // A cancelled call is no longer in flight, and is never answered.
                if lock(&server.in_flight).remove(&worker_key).is_some() {
                    server.send(&reply);
                }
            });
        match started {
            Ok(_) => None,
            Err(e) => {
                lock(&self.in_flight).remove(&key);
                Some(self.answer(
                    &reply_id,
                    Err(overloaded(&format!("cannot start the call: {e}"))),
                ))
            }
        }
    }

    fn run_tool(&self, id: &Value, tool: &tools::Tool, arguments: Value, stop: Stop) -> Value {
        let outcome = tools::call(tool, arguments, &self.socket, stop, &self.instances);
        self.answer(id, outcome)
    }

    /// The `tools/call` result for a tool's outcome: its document, or the error document
    /// (remedy in tool terms) with `isError: true`.
    fn answer(&self, id: &Value, outcome: Result<tools::Document, Failure>) -> Value {
        let is_error = outcome.is_err();
        let document = outcome.or_else(|failure| {
            let mut document = failure.document();
            document.remedy = tools::remedy::for_tools(&document.remedy, &self.tools);
            tools::to_value(&document)
        });
        let document = document.unwrap_or_else(|_| tools::Document {
            text: "{}".into(),
            value: json!({}),
        });
        let mut result = json!({
            "content": [{"type": "text", "text": document.text}],
            "isError": is_error,
        });
        if protocol::has_structured_content(&lock(&self.revision)) {
            result["structuredContent"] = document.value;
        }
        protocol::result(id, result)
    }

    /// `notifications/cancelled`: stops the call and forgets it, so it is never answered.
    fn cancel(&self, params: &Value) {
        let Some(id) = params.get("requestId") else {
            return;
        };
        if let Some(stop) = lock(&self.in_flight).remove(&id.to_string()) {
            stop.press();
        }
    }
}

/// `too_many_calls`: the adapter cannot take another call now; nothing was done.
fn overloaded(message: &str) -> Failure {
    Failure::new(
        ErrorCode::TooManyCalls,
        message,
        "nothing was done: call again once one of the calls in flight has answered (or cancel one with notifications/cancelled)",
    )
}
