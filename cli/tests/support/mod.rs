//! Shared by the binary-level tests: running the real `phux` with a deadline, and a fake
//! server on a temporary socket that records every request and answers from a handler.

#![allow(dead_code)] // each test file uses part of it
#![allow(clippy::expect_used, clippy::unwrap_used)] // test support fails loudly by design

use std::io::Write;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use phux_core::wire::{FrameReader, FrameWriter};
use serde_json::{json, Value};

pub const DEADLINE: Duration = Duration::from_secs(15);

/// Runs `phux --socket SOCKET ARGS...` with `stdin` fed in, failing after [`DEADLINE`].
pub fn phux(socket: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_phux"))
        .arg("--socket")
        .arg(socket)
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn phux");
    if let (Some(text), Some(mut pipe)) = (stdin, child.stdin.take()) {
        pipe.write_all(text.as_bytes()).expect("write stdin");
    }
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            panic!("phux {args:?} did not finish within {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.wait_with_output().expect("output")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The last stderr line as JSON (the error document).
pub fn error_doc(output: &Output) -> Value {
    let text = stderr(output);
    let last = text.lines().last().unwrap_or_default().to_owned();
    serde_json::from_str(&last)
        .unwrap_or_else(|e| panic!("last stderr line is not JSON ({e}): {text}"))
}

/// What the fake server answers a request with: `Ok(payload)` or `Err((code, message))`.
pub type Answer = Result<Value, (&'static str, String)>;

/// A fake server: accepts connections until dropped, answers `hello` with a welcome of
/// protocol 1.0 (or `major` when set), and every request through the handler.
pub struct FakeServer {
    pub dir: tempfile::TempDir,
    pub socket: PathBuf,
    requests: Arc<Mutex<Vec<Value>>>,
    _thread: JoinHandle<()>,
}

impl FakeServer {
    pub fn start(handler: fn(&Value) -> Answer) -> FakeServer {
        FakeServer::start_with_major(1, handler)
    }

    pub fn start_with_major(major: u32, handler: fn(&Value) -> Answer) -> FakeServer {
        let dir = tempfile::tempdir().expect("tempdir");
        // The client refuses a socket in a directory other users can enter.
        std::fs::set_permissions(
            dir.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o700),
        )
        .expect("chmod 700");
        let socket = dir.path().join("fake.sock");
        let listener = UnixListener::bind(&socket).expect("bind");
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&requests);
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                serve(stream, major, handler, &seen);
            }
        });
        FakeServer {
            dir,
            socket,
            requests,
            _thread: thread,
        }
    }

    /// Every request received so far (without its id), in order.
    pub fn requests(&self) -> Vec<Value> {
        self.requests.lock().expect("lock").clone()
    }

    /// The requests' `type`s, in order.
    pub fn request_types(&self) -> Vec<String> {
        self.requests()
            .iter()
            .map(|r| r["type"].as_str().unwrap_or_default().to_owned())
            .collect()
    }

    /// The last request of type `kind`.
    pub fn last(&self, kind: &str) -> Value {
        self.requests()
            .into_iter()
            .rev()
            .find(|r| r["type"] == kind)
            .unwrap_or_else(|| panic!("no {kind} request; got {:?}", self.request_types()))
    }
}

fn serve(stream: UnixStream, major: u32, handler: fn(&Value) -> Answer, seen: &Mutex<Vec<Value>>) {
    let _ = stream.set_read_timeout(Some(DEADLINE));
    let mut reader = FrameReader::new(&stream);
    let mut writer = FrameWriter::new(&stream);
    let Ok(hello) = reader.read_message::<Value>() else {
        return;
    };
    assert_eq!(hello["type"], "hello");
    let welcome = json!({"type": "welcome", "protocol": {"major": major, "minor": 0},
        "server_version": "fake", "pid": 4242});
    if writer.send(&welcome).is_err() {
        return;
    }
    while let Ok(mut request) = reader.read_message::<Value>() {
        let id = request["id"].clone();
        if let Some(map) = request.as_object_mut() {
            map.remove("id");
        }
        let answer = handler(&request);
        seen.lock().expect("lock").push(request);
        // An event first, as a subscribed server might send: clients must skip it.
        let _ = writer.send(&json!({"type": "event", "event": {"event": "idle"}, "t_ns": 1}));
        let response = match answer {
            Ok(ok) => json!({"type": "response", "id": id, "ok": ok}),
            Err((code, message)) => json!({"type": "response", "id": id,
                "error": {"code": code, "message": message, "remedy": "fake remedy"}}),
        };
        if writer.send(&response).is_err() {
            return;
        }
    }
}

/// A state of two sessions: `work` (window 0 `edit`: @1 tagged ci, @2; window 1 `logs`: @3
/// tagged ci) and `play` (window 0: @4); @2 is focused.
pub fn state() -> Value {
    let pane = |id: u32, tags: &[&str]| json!({"id": id, "tags": tags, "cols": 80, "rows": 24});
    json!({
        "sessions": [
            {"id": 1, "name": "work", "attached_clients": 1, "windows": [
                {"id": 10, "index": 0, "name": "edit", "panes": [pane(1, &["ci"]), pane(2, &[])]},
                {"id": 11, "index": 1, "name": "logs", "panes": [pane(3, &["ci"])]}
            ]},
            {"id": 2, "name": "play", "attached_clients": 0, "windows": [
                {"id": 20, "index": 0, "name": "main", "panes": [pane(4, &[])]}
            ]}
        ],
        "focus_order": [2],
        "unreachable": []
    })
}
