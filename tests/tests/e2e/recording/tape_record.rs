//! `phux tape record` end to end: a person types into a real bash through a real `phux attach`
//! in a PTY, and through `send-keys` and `paste`, while the recorder runs; the tape it writes is
//! played with `phux tape`, and the screen it ends on equals the recorded pane's, every row.
//! Also: its ends (`--duration`, the pane exiting), its refusals (a missing target, a missing
//! directory, a path already there, not a `.tape`), and a remote credential refused the tap.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_tests::listening::Listening;
use phux_tests::outer_screen::AttachedTui;
use phux_tests::{error_line, run_with_deadline, stderr, wait_until, TestServer};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The shell `phux tape` starts for a tape (bash without start-up files, a `> ` prompt), so the
/// recorded pane and the replay draw the same prompt.
const TAPE_SHELL: &[&str] = &[
    "env",
    "PS1=> ",
    "HISTFILE=/dev/null",
    "bash",
    "--noprofile",
    "--norc",
];

/// A recorder started in the background, and its stderr's lines as they come.
struct Recorder {
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl Recorder {
    /// Starts `phux tape record ARGS` and returns once it says it records.
    fn start(server: &TestServer, args: &[&str]) -> Recorder {
        let mut child = server
            .phux(&[&["tape", "record"], args].concat())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the recorder");
        let (tx, lines) = mpsc::channel();
        let err = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let first = lines
            .recv_timeout(Duration::from_secs(15))
            .expect("the recorder says it records");
        assert!(
            first.contains("phux: recording what is typed into"),
            "{first}"
        );
        Recorder { child, lines }
    }

    /// Ctrl-C, then what it printed on stderr and its exit status.
    fn stop(self) -> (String, Option<i32>) {
        let pid = rustix::process::Pid::from_raw(self.child.id() as i32).unwrap();
        rustix::process::kill_process(pid, rustix::process::Signal::INT).unwrap();
        self.finish()
    }

    /// Waits (up to 30 s) for it to end on its own.
    fn finish(mut self) -> (String, Option<i32>) {
        let mut status = None;
        wait_until("the recorder ends", Duration::from_secs(30), || {
            status = self.child.try_wait().unwrap();
            status.is_some()
        });
        // Every line, to the end of its stderr (the reader may still be handing the last on).
        let mut said = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(15)) {
            said.push(line);
        }
        (said.join("\n"), status.and_then(|s| s.code()))
    }
}

/// The pane's viewport, every row (right-trimmed, as `snapshot` gives them).
fn rows(server: &TestServer, pane: &str) -> Vec<String> {
    server.lines(pane)
}

/// Waits until the pane's screen shows `text` on a row of its own after the prompt lines.
fn wait_for_row(server: &TestServer, pane: &str, row: &str) {
    wait_until(
        &format!("{pane} shows the row {row:?}"),
        Duration::from_secs(15),
        || rows(server, pane).iter().any(|r| r == row),
    );
}

#[test]
fn a_tape_recorded_from_attach_send_keys_and_paste_replays_to_the_same_screen() {
    let server = TestServer::start();
    let pane = server.new_session("typed", TAPE_SHELL);
    server.wait_for_text(&pane, ">");
    // A person's terminal: the attached client gives the pane its size (100 columns, the rows
    // below its status line), and its keystrokes reach the pane as the TUI sends them.
    let tui = AttachedTui::start(&server, &["attach", "typed"], 100, 30);
    tui.wait_for_text(">");
    wait_until(
        "the pane takes the client's size",
        Duration::from_secs(10),
        || server.json(&["snapshot", "--json", &pane])["cols"] == 100,
    );
    let tape = server.dir.path().join("typed.tape");
    let recorder = Recorder::start(&server, &["-o", tape.to_str().unwrap(), &pane]);

    // Typed through the attached client, a typo mended with two Backspaces.
    tui.type_bytes(b"echo one tw");
    tui.wait_for_text("echo one tw");
    tui.type_bytes(b"\x7f\x7f");
    tui.type_bytes(b"two\r");
    wait_for_row(&server, &pane, "one two");
    // send-keys: a command, then the line recalled, its end changed and run again.
    server.send_keys(&pane, &["printf '%s-%s\\n' a b", "Enter"]);
    wait_for_row(&server, &pane, "a-b");
    std::thread::sleep(Duration::from_millis(700)); // a pause the tape keeps as a Sleep
    server.send_keys(&pane, &["Up"]);
    server.send_keys(&pane, &["C-e"]);
    server.send_keys(&pane, &["BSpace", "c", "Enter"]);
    wait_for_row(&server, &pane, "a-c");
    // A paste whose text holds every kind of quote, submitted with Enter.
    let paste = server.run(&["paste", &pane, r#"echo "it's" `echo pasted`"#]);
    assert!(paste.status.success(), "{}", stderr(&paste));
    server.send_keys(&pane, &["Enter"]);
    wait_for_row(&server, &pane, "it's pasted");
    // Arrow keys and Alt through the client: Alt+b moves back a word, Left one more.
    tui.type_bytes(b"echo $((6*7)) x");
    tui.wait_for_text("echo $((6*7)) x");
    tui.type_bytes(b"\x1bb\x1b[D");
    tui.type_bytes(b"y\r");
    wait_for_row(&server, &pane, "42y x");
    std::thread::sleep(Duration::from_millis(300));
    let (said, code) = recorder.stop();
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("phux: wrote"), "{said}");
    let recorded = rows(&server, &pane);

    let text = std::fs::read_to_string(&tape).unwrap();
    println!("the recorded tape:\n{text}");
    for line in [
        "Output typed.gif",
        "Backspace 2",
        "Enter",
        "Up",
        "Ctrl+E",
        "Alt+b",
        "Left",
        "Type \"echo one tw\"",
    ] {
        assert!(text.lines().any(|l| l == line), "no line {line:?}:\n{text}");
    }
    assert!(text.contains("Set Width "), "{text}");
    assert!(text.lines().any(|l| l.starts_with("Sleep ")), "{text}");
    // The paste's text holds ", ' and `: it is typed in pieces each quote can hold.
    assert!(text.contains("Type `echo \"it's\" `"), "{text}");

    // Played back as a tape, in a fresh pane of the same grid.
    let final_txt = server.dir.path().join("final.txt");
    let mut play = server.phux(&[
        "tape",
        tape.to_str().unwrap(),
        "-o",
        final_txt.to_str().unwrap(),
        "--json",
    ]);
    let played = run_with_deadline(&mut play, Duration::from_secs(120));
    assert!(played.status.success(), "{}", stderr(&played));
    let doc: serde_json::Value = serde_json::from_slice(&played.stdout).unwrap();
    let size = server.json(&["snapshot", "--json", &pane]);
    assert_eq!(
        (&doc["cols"], &doc["rows"]),
        (&size["cols"], &size["rows"]),
        "the tape plays on the recorded pane's grid"
    );
    let mut replayed: Vec<String> = std::fs::read_to_string(&final_txt)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    // The text output leaves out the blank rows at the bottom; the snapshot has every row.
    replayed.resize(recorded.len(), String::new());
    assert_eq!(Some(recorded.len() as u64), size["rows"].as_u64());
    assert_eq!(
        replayed,
        recorded,
        "the replay's screen differs from the recorded pane's\nreplayed:\n{}\nrecorded:\n{}",
        replayed.join("\n"),
        recorded.join("\n")
    );
    drop(tui);
}

#[test]
fn the_recording_ends_at_its_duration_and_when_the_pane_exits() {
    let server = TestServer::start();
    let pane = server.new_session("timed", TAPE_SHELL);
    server.wait_for_text(&pane, ">");
    let tape = server.dir.path().join("timed.tape");
    let recorder = Recorder::start(
        &server,
        &[
            "-o",
            tape.to_str().unwrap(),
            "--duration",
            "3s",
            "--output-format",
            "txt",
            &pane,
        ],
    );
    server.send_keys(&pane, &["echo hi", "Enter"]);
    let (said, code) = recorder.finish();
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("its time was up"), "{said}");
    let text = std::fs::read_to_string(&tape).unwrap();
    assert!(text.contains("Output timed.txt\n"), "{text}");
    assert!(text.contains("Type \"echo hi\"\nEnter\n"), "{text}");

    // The pane's end ends the recording: the shell is told to exit.
    let tape = server.dir.path().join("exit.tape");
    let recorder = Recorder::start(&server, &["-o", tape.to_str().unwrap(), &pane]);
    server.send_keys(&pane, &["exit", "Enter"]);
    let (said, code) = recorder.finish();
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("the pane exited"), "{said}");
    let text = std::fs::read_to_string(&tape).unwrap();
    assert!(text.contains("Type \"exit\"\nEnter\n"), "{text}");
}

#[test]
fn the_json_document_says_what_was_written() {
    let server = TestServer::start();
    let pane = server.new_session("doc", TAPE_SHELL);
    server.wait_for_text(&pane, ">");
    let tape = server.dir.path().join("doc.tape");
    let mut command = server.phux(&[
        "tape",
        "record",
        "-o",
        tape.to_str().unwrap(),
        "--duration",
        "2s",
        "--json",
        &pane,
    ]);
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Typed while the recorder may still be connecting: the document is checked, not the keys.
    server.send_keys(&pane, &["true", "Enter"]);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["path"], tape.to_str().unwrap());
    assert_eq!(doc["pane"], pane.as_str());
    assert_eq!(doc["ended"], "duration");
    assert_eq!(
        (doc["cols"].as_u64(), doc["rows"].as_u64()),
        (Some(80), Some(24))
    );
    assert!(doc["duration_ms"].as_u64().unwrap() >= 2000, "{doc}");
    let text = std::fs::read_to_string(&tape).unwrap();
    let commands = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .count();
    assert_eq!(
        doc["commands"].as_u64(),
        Some(commands as u64),
        "{doc}\n{text}"
    );
    for key in ["width_px", "height_px", "keys", "typing_speed_ms", "notes"] {
        assert!(doc.get(key).is_some(), "{key}: {doc}");
    }
}

#[test]
fn bad_inputs_are_refused_before_anything_is_recorded() {
    let server = TestServer::start();
    let pane = server.new_session("bad", TAPE_SHELL);
    let dir = server.dir.path();
    let refused = |args: &[&str]| {
        let output = server.run(&[&["tape", "record", "--json"], args].concat());
        error_line(&output)
    };
    let missing_dir = dir.join("no/such/dir/x.tape");
    let line = refused(&["-o", missing_dir.to_str().unwrap(), &pane]);
    assert_eq!(line["error"]["code"], "output_unwritable", "{line}");
    let line = refused(&["-o", dir.join("x.gif").to_str().unwrap(), &pane]);
    assert_eq!(line["error"]["code"], "unsupported_format", "{line}");
    let there = dir.join("there.tape");
    std::fs::write(&there, "Type \"mine\"\n").unwrap();
    let line = refused(&["-o", there.to_str().unwrap(), &pane]);
    assert_eq!(line["error"]["code"], "output_exists", "{line}");
    assert_eq!(std::fs::read_to_string(&there).unwrap(), "Type \"mine\"\n");
    let out = dir.join("y.tape");
    let line = refused(&["-o", out.to_str().unwrap(), "@99"]);
    assert_eq!(line["error"]["code"], "no_such_target", "{line}");
    let line = refused(&["-o", out.to_str().unwrap(), "--output-format", "bmp", &pane]);
    assert_eq!(line["error"]["code"], "invalid_argument", "{line}");
    assert!(!Path::new(&out).exists());
}

/// What a person types may be a secret: no remote credential may tap it, full or read-only.
#[test]
fn a_remote_credential_cannot_tap_what_is_typed() {
    let listening = Listening::start();
    let pane = listening.server.new_session("secret", &[]);
    let full = listening.pair(&[]);
    let read_only = listening.pair(&["--read-only"]);
    let id: u64 = pane.trim_start_matches('@').parse().unwrap();
    let seen = listening.probe(
        r#"
out = {}
for name in ["FULL", "RO"]:
    s = session(os.environ[name])
    send(s, 2, frame({"type": "tap_input", "id": 1, "pane": int(os.environ["PANE"])}))
    out[name] = wire_messages(s, 1)[0]
print(json.dumps(out))
"#,
        &[
            ("FULL", full["token"].as_str().unwrap()),
            ("RO", read_only["token"].as_str().unwrap()),
            ("PANE", &id.to_string()),
        ],
    );
    for name in ["FULL", "RO"] {
        assert_eq!(seen[name]["error"]["code"], "permission_denied", "{seen}");
    }
}
