//! A JSON-RPC client of `phux mcp` for tests and benchmarks: writes one message per line on
//! the adapter's stdin and reads its stdout lines on a thread, so a test can wait for a reply
//! with a deadline, or check that none comes.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::{phux_bin, TestServer};

/// A running `phux mcp`, killed when dropped.
pub struct McpProcess {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: u64,
    /// Replies read while looking for another one, kept for whoever asks for them.
    held: Vec<Value>,
}

impl McpProcess {
    /// Starts `phux mcp --socket SOCKET`.
    pub fn start(socket: &Path) -> McpProcess {
        McpProcess::start_command(Command::new(phux_bin()), socket)
    }

    /// Starts `phux mcp --socket SOCKET` listing `tools` (`None`: the default set) and
    /// completes the handshake at `revision`.
    pub fn with_tools(socket: &Path, tools: Option<&str>, revision: &str) -> (McpProcess, Value) {
        let mut mcp = McpProcess::start_args(Command::new(phux_bin()), socket, tools);
        let result = mcp.handshake(revision);
        (mcp, result)
    }

    /// Starts `phux mcp` for `server`: its socket, and the config file it reads (so the
    /// plugins a test registers there are the adapter's too).
    pub fn for_server(server: &TestServer, revision: &str) -> (McpProcess, Value) {
        let mut command = Command::new(phux_bin());
        command.env("PHUX_CONFIG", server.config_path());
        let mut mcp = McpProcess::start_command(command, &server.socket);
        let result = mcp.handshake(revision);
        (mcp, result)
    }

    /// Starts `command` (a `phux` with the environment a test gives it) as `phux mcp --tools
    /// all --socket SOCKET` and completes the handshake at `revision`.
    pub fn with_command(command: Command, socket: &Path, revision: &str) -> (McpProcess, Value) {
        let mut mcp = McpProcess::start_command(command, socket);
        let result = mcp.handshake(revision);
        (mcp, result)
    }

    fn start_command(command: Command, socket: &Path) -> McpProcess {
        // Every group: the tests call tools beyond the default core set.
        McpProcess::start_args(command, socket, Some("all"))
    }

    fn start_args(mut command: Command, socket: &Path, tools: Option<&str>) -> McpProcess {
        command.arg("mcp");
        if let Some(tools) = tools {
            command.arg("--tools").arg(tools);
        }
        command.env_remove("PHUX_MCP_TOOLS");
        // Results too large to return are kept under the state directory: the test's own.
        if !command.get_envs().any(|(key, _)| key == "XDG_STATE_HOME") {
            if let Some(dir) = socket.parent() {
                command.env("XDG_STATE_HOME", dir.join("state"));
            }
        }
        let mut child = command
            .arg("--socket")
            .arg(socket)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start phux mcp");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        McpProcess {
            child,
            stdin,
            lines,
            next_id: 0,
            held: Vec::new(),
        }
    }

    /// Starts it and completes the handshake at `revision`; returns the `initialize` result.
    pub fn initialized(socket: &Path, revision: &str) -> (McpProcess, Value) {
        let mut mcp = McpProcess::start(socket);
        let result = mcp.handshake(revision);
        (mcp, result)
    }

    /// `initialize` at `revision`, then `notifications/initialized`; the `initialize` result.
    fn handshake(&mut self, revision: &str) -> Value {
        let result = self.request(
            "initialize",
            json!({
                "protocolVersion": revision,
                "capabilities": {},
                "clientInfo": {"name": "phux-tests", "version": "0"},
            }),
        );
        self.notify("notifications/initialized", json!({}));
        result
    }

    /// Writes one raw line.
    pub fn write_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to phux mcp");
        stdin.flush().expect("flush");
    }

    /// Closes stdin: the client is done.
    pub fn close(&mut self) {
        self.stdin.take();
    }

    /// Sends a request and returns its id without waiting.
    pub fn send(&mut self, method: &str, params: Value) -> u64 {
        self.next_id += 1;
        let id = self.next_id;
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.write_line(&message.to_string());
        id
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        let message = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.write_line(&message.to_string());
    }

    /// The next message the adapter writes, within `limit`.
    pub fn next_message(&self, limit: Duration) -> Option<Value> {
        match self.lines.recv_timeout(limit) {
            Ok(line) => Some(serde_json::from_str(&line).unwrap_or_else(|e| {
                panic!("phux mcp wrote a line that is not JSON ({e}): {line}")
            })),
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The reply to request `id`, within `limit`; replies to other requests read meanwhile are
    /// held for their own `reply` call.
    pub fn reply(&mut self, id: u64, limit: Duration) -> Value {
        if let Some(at) = self.held.iter().position(|m| m["id"] == json!(id)) {
            return self.held.remove(at);
        }
        let start = Instant::now();
        loop {
            let left = limit.saturating_sub(start.elapsed());
            let message = self
                .next_message(left)
                .unwrap_or_else(|| panic!("no reply to request {id} within {limit:?}"));
            if message["id"] == json!(id) {
                return message;
            }
            self.held.push(message);
        }
    }

    /// A request's full reply (result or error), within 30 s.
    pub fn exchange(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params);
        self.reply(id, Duration::from_secs(30))
    }

    /// A request's result; fails the test on a JSON-RPC error.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let reply = self.exchange(method, params);
        assert!(reply.get("error").is_none(), "{method} failed: {reply}");
        reply["result"].clone()
    }

    /// `tools/call NAME ARGUMENTS`: the result (content, isError, structuredContent).
    pub fn call(&mut self, name: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": name, "arguments": arguments}))
    }

    /// The document of a successful call (parsed from its text block); fails the test on an
    /// `isError` result.
    pub fn ok(&mut self, name: &str, arguments: Value) -> Value {
        let result = self.call(name, arguments);
        assert_eq!(result["isError"], json!(false), "{name}: {result}");
        text_document(&result)
    }

    /// The error document of a call that must fail.
    pub fn err(&mut self, name: &str, arguments: Value) -> Value {
        let result = self.call(name, arguments);
        assert_eq!(
            result["isError"],
            json!(true),
            "{name} should fail: {result}"
        );
        text_document(&result)
    }
}

/// The JSON document in a tool result's one text block.
pub fn text_document(result: &Value) -> Value {
    let content = result["content"].as_array().expect("content array");
    assert_eq!(content.len(), 1, "one content block: {result}");
    assert_eq!(content[0]["type"], "text");
    serde_json::from_str(content[0]["text"].as_str().expect("text")).expect("pretty JSON text")
}

impl Drop for McpProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The official MCP Python SDK's client script, committed beside the tests.
pub fn sdk_client_script() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mcp/sdk_client.py")
}

/// A Python with the official MCP SDK (PyPI `mcp`) installed: a venv kept under the build
/// directory (`target/.../mcp-sdk-venv`), made on first use, so later runs start at once.
/// `Err` says why there is none (no venv module, pip cannot reach the registry): the caller
/// skips and prints it.
pub fn sdk_python() -> Result<std::path::PathBuf, String> {
    crate::python_venv::venv_with("mcp", "mcp-sdk-venv")
}

/// The newest protocol revision `phux mcp` speaks.
pub const NEWEST: &str = "2025-11-25";

/// The server's count of connected clients, read with `phux status --json`.
pub fn clients(server: &TestServer) -> u64 {
    server.json(&["status", "--json"])["clients"]
        .as_u64()
        .unwrap_or_default()
}
