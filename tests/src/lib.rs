//! The testkit: the real `phux` binary run as a user would, with a private environment and a
//! deadline on every wait, so a hung test fails instead of hanging CI.

#![forbid(unsafe_code)]
#![allow(clippy::expect_used, clippy::unwrap_used)] // the testkit fails loudly by design

pub mod browser;
pub mod fleet;
pub mod listening;
pub mod mcp;
pub mod outer_screen;
pub mod owner_ls;
pub mod play;
pub mod plugins;
pub mod python_venv;
pub mod spelling;
pub mod sshd;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The `phux` binary of this build: `$PHUX_BIN`, else `target/<profile>/phux` beside the test
/// executable (`scripts/test` builds it first).
pub fn phux_bin() -> PathBuf {
    if let Some(path) = std::env::var_os("PHUX_BIN") {
        return PathBuf::from(path);
    }
    let exe = std::env::current_exe().expect("test executable path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>");
    let bin = profile_dir.join("phux");
    assert!(
        bin.exists(),
        "{} is missing: run `cargo build -p phux-cli` (scripts/test does)",
        bin.display()
    );
    bin
}

/// A test cannot run because `what` is missing from this machine. Under CI (`CI` set, as
/// `.ci/run` sets it after installing every tool the tests use) that fails the test: a test
/// that skips there and passes would prove nothing. Elsewhere it says so on stderr, and the
/// caller skips.
pub fn missing(what: &str) {
    if std::env::var_os("CI").is_some_and(|v| !v.is_empty()) {
        panic!("{what} is missing, and under CI every test must run (.ci/run installs it)");
    }
    eprintln!("skipping: {what} is missing (.ci/run installs it; under CI this fails)");
}

/// Held by the few end-to-end tests that must not overlap one another (each says why where it
/// takes it). All of them share one test process and run concurrently, so a test that floods
/// the machine or measures how fast something answers takes this first: two such tests then
/// never run at once. Every other test runs beside them as before.
pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A `phux` invocation with the caller's environment plus overrides.
pub fn phux(args: &[&str]) -> Command {
    let mut command = Command::new(phux_bin());
    command.args(args).stdin(Stdio::null());
    command
}

/// Runs a command to completion, failing the test if it takes longer than `limit`. Its stdout
/// and stderr are drained while it runs, so a large document cannot fill the pipe and stall it.
pub fn run_with_deadline(command: &mut Command, limit: Duration) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn phux");
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("{command:?} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    Output {
        status,
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
    }
}

/// Runs with the default 60 s deadline (an engine download can take a few seconds).
pub fn run(command: &mut Command) -> Output {
    run_with_deadline(command, Duration::from_secs(60))
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

pub fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}): {}", stdout(output)))
}

/// The shell test panes run by default (Debian's dash): it reads no start-up files.
pub const PANE_SHELL: &str = "/bin/sh";

/// A real `phux server` on a private socket, stopped (with its panes) when dropped.
pub struct TestServer {
    pub dir: tempfile::TempDir,
    pub socket: PathBuf,
    child: std::process::Child,
}

impl TestServer {
    /// Starts a server with no seed session and waits (up to 10 s) until it answers.
    pub fn start() -> TestServer {
        Self::start_with(&[])
    }

    /// Like `start`, with extra `phux server` flags.
    pub fn start_with(extra: &[&str]) -> TestServer {
        Self::start_with_config_env(None, extra, &[])
    }

    /// Like `start_with`, the server reading `config` as its config file (written to
    /// `config.toml` in the server's directory). Without one, that path does not exist: a
    /// user's own config never reaches a test.
    pub fn start_with_config(config: Option<&str>, extra: &[&str]) -> TestServer {
        Self::start_with_config_env(config, extra, &[])
    }

    /// Like `start_with`, with extra environment entries for the server process.
    pub fn start_with_env(extra: &[&str], env: &[(&str, &std::ffi::OsStr)]) -> TestServer {
        Self::start_with_config_env(None, extra, env)
    }

    /// A server with `config` as its config file and `env` added to its environment (after
    /// `PHUX_CONFIG`, so an entry of `env` may name another config file).
    pub fn start_with_config_env(
        config: Option<&str>,
        extra: &[&str],
        env: &[(&str, &std::ffi::OsStr)],
    ) -> TestServer {
        let dir = tempfile::Builder::new()
            .prefix("phux-test-")
            .tempdir()
            .expect("tempdir");
        if let Some(text) = config {
            std::fs::write(dir.path().join("config.toml"), text).expect("write config.toml");
        }
        // The server refuses a socket directory other users can enter.
        std::fs::set_permissions(
            dir.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o700),
        )
        .expect("chmod 700");
        let socket = dir.path().join("phux.sock");
        let log = std::fs::File::create(dir.path().join("server.log")).expect("log file");
        let child = Command::new(phux_bin())
            .args(["server", "--no-seed", "--socket"])
            .arg(&socket)
            .args(extra)
            // A shell without start-up files: a user's rc (pyenv's rehash lock, say) must not
            // make panes slow to start while many tests start them at once.
            .env("SHELL", PANE_SHELL)
            .env("PHUX_CONFIG", dir.path().join("config.toml"))
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start phux server");
        let server = TestServer { dir, socket, child };
        let log_path = server.dir.path().join("server.log");
        let start = Instant::now();
        while !(server.socket.exists()
            && run_with_deadline(&mut server.phux(&["status"]), Duration::from_secs(10))
                .status
                .success())
        {
            if start.elapsed() > Duration::from_secs(10) {
                let log = std::fs::read_to_string(&log_path).unwrap_or_default();
                panic!("the server did not answer within 10 s; its log:\n{log}");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        server
    }

    /// A `phux` invocation against this server.
    pub fn phux(&self, args: &[&str]) -> Command {
        let mut command = phux(args);
        command
            .env("PHUX_SOCKET", &self.socket)
            .env("PHUX_CONFIG", self.config_path())
            .env("SHELL", PANE_SHELL);
        command
    }

    /// The config file this server and its `phux` invocations read.
    pub fn config_path(&self) -> PathBuf {
        self.dir.path().join("config.toml")
    }

    /// Runs `phux ARGS` against this server (15 s deadline) and returns its output.
    pub fn run(&self, args: &[&str]) -> Output {
        run_with_deadline(&mut self.phux(args), Duration::from_secs(15))
    }

    /// Runs and parses stdout as one JSON document, failing the test if the verb failed.
    pub fn json(&self, args: &[&str]) -> serde_json::Value {
        let output = self.run(args);
        assert!(
            output.status.success(),
            "phux {args:?} failed: {}",
            stderr(&output)
        );
        json(&output)
    }

    /// Like [`json`](Self::json), with a deadline long enough for a loaded machine (90 s): for
    /// verbs that wait (`wait`, `run`).
    pub fn json_slow(&self, args: &[&str]) -> serde_json::Value {
        let output = run_with_deadline(&mut self.phux(args), Duration::from_secs(90));
        assert!(
            output.status.success(),
            "phux {args:?}: {:?} {}",
            output.status,
            stderr(&output)
        );
        json(&output)
    }

    /// Creates a session running `command` (bash when empty) and returns its pane, `@N`.
    pub fn new_session(&self, name: &str, command: &[&str]) -> String {
        let mut args = vec!["new", "-s", name, "--json"];
        if !command.is_empty() {
            args.push("--");
            args.extend_from_slice(command);
        }
        let doc = self.json(&args);
        format!("@{}", doc["terminal_id"])
    }

    /// The pane's viewport lines.
    pub fn lines(&self, pane: &str) -> Vec<String> {
        let doc = self.json(&["snapshot", "--json", pane]);
        doc["lines"]
            .as_array()
            .map(|l| {
                l.iter()
                    .map(|v| v.as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// A session whose program prints `tick-N` every 10 ms until the file `stop` exists, then
    /// `done-N` and sleeps: for tests that every line is kept once, in order (see [`ticks`]).
    /// Returns the pane, `@N`, once it has printed `tick-5`.
    pub fn ticker(&self, name: &str, stop: &std::path::Path) -> String {
        let script = format!(
            "i=0; while [ ! -e {} ]; do i=$((i+1)); echo tick-$i; sleep 0.01; done; echo done-$i; sleep 600",
            stop.display()
        );
        let pane = self.new_session(name, &["sh", "-c", &script]);
        self.wait_for_text(&pane, "tick-5");
        pane
    }

    /// Every line of the pane's history and screen, wrapped lines joined.
    pub fn all_lines(&self, pane: &str) -> Vec<String> {
        let doc = self.json(&["snapshot", "--json", "--scrollback", "--unwrap", pane]);
        doc["scrollback"]
            .as_array()
            .into_iter()
            .flatten()
            .chain(doc["lines"].as_array().into_iter().flatten())
            .filter_map(|l| l.as_str().map(str::to_owned))
            .collect()
    }

    /// Creates a session running an interactive bash without the machine's rc files, whose
    /// prompt is `$ ` wrapped in OSC 133 marks (A prompt, B input, C output, D;$? finished),
    /// and waits for its first prompt. Returns the pane, `@N`.
    pub fn marked_bash(&self, name: &str) -> String {
        let rc = self.dir.path().join("marked-bashrc");
        std::fs::write(&rc, MARKED_BASHRC).expect("write bashrc");
        let rc = rc.display().to_string();
        let pane = self.new_session(name, &["bash", "--noprofile", "--rcfile", &rc, "-i"]);
        self.wait_for_text(&pane, "$");
        pane
    }

    /// Writes each `(name, script)` as an executable in this server's `bin/` directory (made on
    /// first use) and returns the directory.
    pub fn install_programs(&self, programs: &[(&str, &str)]) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let bin = self.dir.path().join("bin");
        std::fs::create_dir_all(&bin).expect("create bin/");
        for (name, script) in programs {
            let path = bin.join(name);
            std::fs::write(&path, script).expect("write the program");
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                .expect("make the program executable");
        }
        bin
    }

    /// A session running `bash --norc` with a plain `$ ` prompt, its `PATH` starting with the
    /// directory holding `programs` (see [`install_programs`](Self::install_programs)) and
    /// `env` (`KEY=VALUE`) added; waits for the prompt.
    pub fn bash_with_programs(
        &self,
        name: &str,
        programs: &[(&str, &str)],
        env: &[&str],
    ) -> String {
        let bin = self.install_programs(programs);
        let path = format!(
            "PATH={}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut command = vec!["env", path.as_str()];
        command.extend_from_slice(env);
        command.extend_from_slice(&["PS1=$ ", "bash", "--norc", "--noprofile", "-i"]);
        let pane = self.new_session(name, &command);
        self.wait_for_text(&pane, "$");
        pane
    }

    /// Creates a session running `shell` (`sh`, `dash`, `zsh`, `bash`) with a plain `$ ` prompt
    /// and no rc files, and waits for the prompt.
    pub fn plain_shell(&self, name: &str, shell: &str) -> String {
        let command: Vec<&str> = match shell {
            "bash" => vec!["env", "PS1=$ ", "bash", "--norc", "--noprofile", "-i"],
            "zsh" => vec!["env", "PS1=$ ", "zsh", "-f", "-i"],
            other => vec!["env", "PS1=$ ", other, "-i"],
        };
        let pane = self.new_session(name, &command);
        self.wait_for_text(&pane, "$");
        pane
    }

    /// `phux send-keys PANE KEYS...`, which must succeed.
    pub fn send_keys(&self, pane: &str, keys: &[&str]) {
        let mut args = vec!["send-keys", pane];
        args.extend_from_slice(keys);
        let output = self.run(&args);
        assert!(
            output.status.success(),
            "send-keys {keys:?}: {}",
            stderr(&output)
        );
    }

    /// How many client connections the server holds (`status --json`), this one included.
    pub fn clients(&self) -> u64 {
        self.json(&["status", "--json"])["clients"]
            .as_u64()
            .expect("status --json counts its clients")
    }

    /// Waits (up to 10 s) until this look is the server's only client: the connections of
    /// commands run before it are closed on the server's side too, so a count taken next is
    /// not inflated by one the server has not yet seen go.
    pub fn wait_until_alone(&self) {
        wait_until(
            "the server holds no client connection but this look's",
            Duration::from_secs(10),
            || self.clients() == 1,
        );
    }

    /// Starts `phux ARGS` in the background (stdout and stderr piped) and returns once it
    /// holds its `connections` to the server (a `wait` holds two: its requests and its
    /// subscription; a `watch` one), counted from one, this look's own, once the connections
    /// of the commands run before are gone on the server's side too: one still counted would
    /// leave later, and the command's would never add up. If it ends first, fails with what
    /// it printed instead of a timeout.
    pub fn spawn_connected(&self, args: &[&str], connections: u64) -> std::process::Child {
        self.wait_until_alone();
        let mut command = self
            .phux(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start phux in the background");
        wait_until(
            &format!("phux {args:?} holds {connections} connections"),
            Duration::from_secs(10),
            || {
                if let Ok(Some(status)) = command.try_wait() {
                    let mut said = String::new();
                    if let Some(mut err) = command.stderr.take() {
                        let _ = std::io::Read::read_to_string(&mut err, &mut said);
                    }
                    panic!("phux {args:?} ended ({status}) before connecting: {said}");
                }
                self.clients() > connections // this look's own, and the command's
            },
        );
        command
    }

    /// Waits (up to 10 s, by reading the screen) until the pane shows `text`.
    pub fn wait_for_text(&self, pane: &str, text: &str) {
        wait_for_text(&self.socket, pane, text);
    }

    pub fn server_pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills the server process with SIGKILL, as a crash would, and reaps it: no goodbye to
    /// any client.
    pub fn crash(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Waits (up to `limit`) for the server process to end; true when it did.
    pub fn wait_exit(&mut self, limit: Duration) -> bool {
        let start = Instant::now();
        while start.elapsed() < limit {
            if self.child.try_wait().ok().flatten().is_some() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        // `kill --server` returns once the server has ended, which may take the 5 s it gives
        // plugin hooks still running; it gives up itself after 15 s.
        let _ = run_with_deadline(
            &mut self.phux(&["kill", "--server"]),
            Duration::from_secs(20),
        );
        if !self.wait_exit(Duration::from_secs(3)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        // Every server of the suite: its log is read by people, in words, not in Rust.
        if !std::thread::panicking() {
            let log =
                std::fs::read_to_string(self.dir.path().join("server.log")).unwrap_or_default();
            let found = spelling::rust_spellings(&log);
            assert!(
                found.is_empty(),
                "the server's log holds Rust spellings:\n{}",
                found.join("\n")
            );
        }
    }
}

/// An rc file for bash: a `$ ` prompt with OSC 133 marks, and nothing else.
pub const MARKED_BASHRC: &str = r#"PS1='\[\e]133;A\a\]$ \[\e]133;B\a\]'
PS0='\e]133;C\a'
PROMPT_COMMAND='printf "\e]133;D;%s\a" $?'
"#;

/// The golden file `tests/golden/REL`: compares `actual` with it, or rewrites it when
/// `PHUX_BLESS=1`.
#[track_caller]
pub fn golden(rel: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("golden")
        .join(rel);
    phux_golden::check(&path, actual);
}

/// The output events of `cast`, in order: what the recorded program printed, event by event
/// (a read can split a word between two).
pub fn cast_outputs(cast: &phux_recorder::Cast) -> Vec<&str> {
    (cast.events.iter())
        .filter_map(|e| match &e.kind {
            phux_recorder::EventKind::Output(text) => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// The viewport rows of a screen document (`snapshot --json`, `wait --json`).
pub fn screen_lines(doc: &serde_json::Value) -> Vec<String> {
    doc["lines"]
        .as_array()
        .expect("a screen document has lines")
        .iter()
        .map(|l| l.as_str().unwrap_or_default().to_owned())
        .collect()
}

/// The one JSON error line a `--json` failure leaves as the last line of stderr, after checking
/// that stdout is empty and that the line's `exit_code` is the process status.
pub fn error_line(output: &Output) -> serde_json::Value {
    assert!(
        output.stdout.is_empty(),
        "a failure leaves stdout empty, got {:?}",
        stdout(output)
    );
    let text = stderr(output);
    let last = text.lines().last().unwrap_or_default();
    let line: serde_json::Value = serde_json::from_str(last)
        .unwrap_or_else(|e| panic!("last stderr line is not JSON ({e}): {text}"));
    assert_eq!(line["schema_version"], 1, "{line}");
    assert_eq!(
        line["exit_code"].as_i64(),
        output.status.code().map(i64::from),
        "{line}"
    );
    assert!(
        line["remedy"]
            .as_str()
            .is_some_and(|r| !r.trim().is_empty()),
        "{line}"
    );
    // §5.3: the vocabulary is closed; a code that core/src/error_code.rs does not declare is a
    // defect wherever it was emitted.
    let code = line["error"]["code"].as_str().unwrap_or_default();
    assert!(
        code.parse::<phux_core::error_code::ErrorCode>().is_ok(),
        "error code {code:?} is not in core/src/error_code.rs: {line}"
    );
    line
}

/// Polls `predicate` every 10 ms until it holds, failing the test with `description` after
/// `limit`.
pub fn wait_until(description: &str, limit: Duration, mut predicate: impl FnMut() -> bool) {
    let start = Instant::now();
    while !predicate() {
        assert!(
            start.elapsed() < limit,
            "timed out after {limit:?} waiting until {description}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Asserts that `happened` stays false for the whole of `window`, looking every 10 ms and once
/// more at its end: for a test whose point is that something does *not* happen (a refused
/// command never runs, a pane holds, a paste is not submitted). No event says that nothing
/// happened, so this wait is bounded and named instead; `window` is how long the test watches.
#[track_caller]
pub fn assert_quiet_for(what: &str, window: Duration, mut happened: impl FnMut() -> bool) {
    let start = Instant::now();
    loop {
        let last = start.elapsed() >= window;
        assert!(!happened(), "{what}, within {window:?}");
        if last {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The wire id of `pane` (`@N`, as `new --json` names it).
pub fn pane_id(pane: &str) -> phux_core::ids::PaneId {
    phux_core::ids::PaneId(pane.trim_start_matches('@').parse().expect("pane id @N"))
}

/// The screen of `pane` (`@N`) read over the wire, without depending on any verb.
pub fn screen(socket: &std::path::Path, pane: &str) -> phux_core::documents::ScreenState {
    let mut client = phux_cli::client::Client::connect(socket).expect("connect");
    client
        .request(phux_core::wire::ClientMessage::GetScreen(
            phux_core::wire::GetScreen {
                id: 0,
                pane: pane_id(pane),
                scrollback: None,
                cells: false,
            },
        ))
        .expect("get_screen")
}

/// Each pane's program PID (by pane, `@N`), as its keeper (`phux __keeper @N SOCKET`) holds
/// it, for the server at `socket`.
pub fn kept_programs(socket: &std::path::Path) -> std::collections::BTreeMap<String, u32> {
    let socket = socket.display().to_string();
    let mut found = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        let args: Vec<String> = cmdline
            .split(|b| *b == 0)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        let Some(at) = args.iter().position(|a| a == "__keeper") else {
            continue;
        };
        if args.get(at + 2) != Some(&socket) {
            continue;
        }
        let children =
            std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap_or_default();
        if let Some(child) = children.split_whitespace().next() {
            found.insert(args[at + 1].clone(), child.parse().unwrap());
        }
    }
    found
}

/// Waits until some viewport line of `pane` contains `text`, failing after 10 s.
pub fn wait_for_text(socket: &std::path::Path, pane: &str, text: &str) {
    wait_until(
        &format!("{pane} shows {text:?}"),
        Duration::from_secs(10),
        || screen(socket, pane).lines.iter().any(|l| l.contains(text)),
    );
}

/// Resident memory of a process, in bytes.
pub fn rss_of(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|kb| kb.parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// Every thread of process `pid`, by id (a `pid_t`) and name (empty once it is gone).
pub fn threads_of(pid: u32) -> Vec<(i32, String)> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .flatten()
        .filter_map(|task| {
            let tid = task.file_name().to_str()?.parse().ok()?;
            let name = std::fs::read_to_string(task.path().join("comm")).ok()?;
            Some((tid, name.trim().to_owned()))
        })
        .collect()
}

/// A connection to a test server for reading pane state over the wire (until `phux snapshot`
/// exists, and for tight polling loops where spawning a process per look would be too slow).
pub struct WireClient {
    client: phux_cli::client::Client,
}

impl WireClient {
    pub fn connect(server: &TestServer) -> WireClient {
        let client = phux_cli::client::Client::connect(&server.socket).expect("connect");
        WireClient { client }
    }

    /// The pane's viewport with its styled cells (`get_screen`, cells on).
    pub fn screen(&mut self, pane: phux_core::ids::PaneId) -> phux_core::documents::ScreenState {
        self.client
            .request(phux_core::wire::ClientMessage::GetScreen(
                phux_core::wire::GetScreen {
                    id: 0,
                    pane,
                    scrollback: None,
                    cells: true,
                },
            ))
            .expect("get_screen")
    }

    /// Every pane the server holds, with its size.
    pub fn panes(&mut self) -> Vec<phux_core::state_view::PaneView> {
        let state = self.client.state().expect("get_state");
        state
            .sessions
            .into_iter()
            .flat_map(|s| s.windows)
            .flat_map(|w| w.panes)
            .collect()
    }
}

/// What a [`TestServer::ticker`] printed in `lines`: its `tick-N` numbers in the order they
/// appear, and the `N` of its `done-N` line.
pub fn ticks<S: AsRef<str>>(lines: &[S]) -> (Vec<u64>, u64) {
    let numbers = lines
        .iter()
        .filter_map(|l| l.as_ref().strip_prefix("tick-")?.trim().parse().ok())
        .collect();
    let last = lines
        .iter()
        .find_map(|l| l.as_ref().strip_prefix("done-")?.trim().parse().ok())
        .expect("the ticker's done- line");
    (numbers, last)
}
