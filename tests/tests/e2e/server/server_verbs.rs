//! The control verbs against a real server with real shells: create, list, address, shape and
//! drive panes, each `--json` document and each failure's code and exit status.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_tests::{json, screen, stderr, wait_for_text, wait_until, TestServer};
use std::time::Duration;

fn error_line(output: &std::process::Output) -> serde_json::Value {
    let text = stderr(output);
    let last = text.lines().last().unwrap_or_default();
    serde_json::from_str(last)
        .unwrap_or_else(|e| panic!("last stderr line is not JSON ({e}): {text}"))
}

#[test]
fn new_ls_status_and_the_pane_environment() {
    let server = TestServer::start();
    let doc = server.json(&[
        "new",
        "-s",
        "work",
        "--json",
        "-e",
        "GREETING=a=b",
        "--",
        "bash",
        "--norc",
        "--noprofile",
    ]);
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["session"], "work");
    let pane = format!("@{}", doc["terminal_id"]);
    let ls = server.json(&["ls", "--json"]);
    assert_eq!(ls["schema_version"], 3);
    assert_eq!(ls["sessions"][0]["name"], "work");
    assert_eq!(ls["terminals"][0], pane.as_str());
    assert_eq!(ls["unreachable"], serde_json::json!([]));
    server.send_keys(
        &pane,
        &[
            "echo T=$TERM P=$PHUX_PANE G=$GREETING S=${PHUX_SOCKET:+set}",
            "Enter",
        ],
    );
    wait_for_text(
        &server.socket,
        &pane,
        &format!("T=xterm-256color P={pane} G=a=b S=set"),
    );
    let status = server.json(&["status", "--json"]);
    assert_eq!(status["running"], true);
    assert_eq!(status["sessions"][0]["name"], "work");
}

#[test]
fn new_with_a_taken_name_fails_with_exit_1_and_json_requires_a_name() {
    let server = TestServer::start();
    server.new_session("dup", &[]);
    let output = server.run(&["new", "-s", "dup", "--json"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    assert_eq!(error_line(&output)["exit_code"], 1);
    assert_eq!(server.run(&["new", "--json"]).status.code(), Some(2));
}

#[test]
fn spawn_places_a_pane_in_the_session_and_kill_removes_it() {
    let server = TestServer::start();
    let first = server.new_session("s", &[]);
    let doc = server.json(&[
        "spawn", "--target", "s", "--split", "vertical", "--ratio", "0.3", "--json",
    ]);
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["satellite"], serde_json::Value::Null);
    let second = format!("@{}", doc["terminal_id"]);
    let ls = server.json(&["ls", "--json"]);
    assert_eq!(ls["terminals"], serde_json::json!([first, second]));
    assert!(server.run(&["kill", &second]).status.success());
    let ls = server.json(&["ls", "--json"]);
    assert_eq!(ls["terminals"], serde_json::json!([first]));
    let output = server.run(&["spawn", "--ratio", "1.5"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
}

#[test]
fn missing_and_malformed_targets_have_their_codes() {
    let server = TestServer::start();
    server.new_session("s", &[]);
    let missing = server.run(&["resize", "--json", "@99", "80x24"]);
    assert_eq!(missing.status.code(), Some(1));
    assert_eq!(error_line(&missing)["error"]["code"], "no_such_target");
    let malformed = server.run(&["tag", "ls", "--json", "@x"]);
    assert_eq!(malformed.status.code(), Some(2));
    assert_eq!(error_line(&malformed)["error"]["code"], "invalid_selector");
}

#[test]
fn resize_reports_the_size_read_back_and_the_program_sees_it() {
    let server = TestServer::start();
    let pane = server.new_session("s", &["bash", "--norc"]);
    let doc = server.json(&["resize", "--json", &pane, "100x30"]);
    assert_eq!(doc["applied"], serde_json::json!({"cols": 100, "rows": 30}));
    assert_eq!(doc["held"], true);
    let text = server.run(&["resize", &pane, "90x20"]);
    assert_eq!(String::from_utf8_lossy(&text.stdout).trim(), "90x20");
    server.send_keys(&pane, &["stty size", "Enter"]);
    wait_for_text(&server.socket, &pane, "20 90");
    assert_eq!(
        server.run(&["resize", &pane, "0x20"]).status.code(),
        Some(2)
    );
}

#[test]
fn signal_interrupt_reaches_the_foreground_program() {
    let server = TestServer::start();
    let pane = server.new_session("s", &["bash", "--norc"]);
    // A duration no other test uses, so the process is ours to find. The shell hands it the
    // terminal a moment after it starts: wait until it is the terminal's foreground group.
    server.send_keys(&pane, &["sleep 100.25", "Enter"]);
    wait_until(
        "sleep is the foreground program",
        Duration::from_secs(10),
        || {
            let found = std::process::Command::new("pgrep")
                .args(["-f", "^sleep 100.25$"])
                .output()
                .ok();
            let pid = found
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
                .unwrap_or_default();
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // Fields after the command name: state ppid pgrp session tty_nr tpgid ...
            let fields: Vec<&str> = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect();
            fields.len() > 5 && fields[2] == fields[5]
        },
    );
    assert!(server.run(&["signal", &pane, "interrupt"]).status.success());
    server.send_keys(&pane, &["echo after-$?", "Enter"]);
    let start = std::time::Instant::now();
    while !screen(&server.socket, &pane)
        .lines
        .iter()
        .any(|l| l.contains("after-130"))
    {
        let sleeping = std::process::Command::new("pgrep")
            .args(["-fa", "sleep 100.25"])
            .output()
            .ok();
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no after-130; screen: {:?}; sleep processes: {:?}",
            screen(&server.socket, &pane).lines,
            sleeping.map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn tags_are_read_back_and_select_panes() {
    let server = TestServer::start();
    let pane = server.new_session("s", &[]);
    let doc = server.json(&["tag", "add", "--json", &pane, "#build", "ci"]);
    assert_eq!(
        doc["terminals"],
        serde_json::json!([{"terminal": pane, "tags": ["build", "ci"]}])
    );
    let doc = server.json(&["tag", "rm", "--json", &pane, "ci"]);
    assert_eq!(doc["terminals"][0]["tags"], serde_json::json!(["build"]));
    let doc = server.json(&["tag", "ls", "--json", "#build"]);
    assert_eq!(doc["terminals"][0]["terminal"], pane.as_str());
}

/// Only `paste` brackets (send-keys types: see tests/send_keys.rs), and a paste never submits.
#[test]
fn paste_is_bracketed_when_asked_and_never_submits() {
    let server = TestServer::start();
    let pane = server.new_session("s", &["bash", "--norc"]);
    // A program that shows exactly what it receives, with bracketed paste turned on.
    server.send_keys(
        &pane,
        &["printf '\\e[?2004h'; stty -echo -icanon; cat -v", "Enter"],
    );
    // Until `stty` has run, the terminal would echo the paste itself; nothing the screen shows
    // says it ran (it prints nothing), so a bounded wait.
    std::thread::sleep(Duration::from_millis(300));
    server.run(&["paste", &pane, "hi"]);
    wait_for_text(&server.socket, &pane, "^[[200~hi^[[201~");
    let pane2 = server.new_session("p", &["bash", "--norc"]);
    server.run(&["paste", &pane2, "echo pasted"]);
    wait_for_text(&server.socket, &pane2, "echo pasted");
    phux_tests::assert_quiet_for(
        "paste must not submit: the pasted command ran",
        Duration::from_millis(200),
        || {
            screen(&server.socket, &pane2)
                .lines
                .iter()
                .any(|l| l == "pasted")
        },
    );
}

#[test]
fn rename_and_its_refusals() {
    let server = TestServer::start();
    server.new_session("a", &[]);
    server.new_session("b", &[]);
    assert!(server.run(&["rename", "a", "c"]).status.success());
    assert_eq!(server.run(&["rename", "nope", "d"]).status.code(), Some(2));
    assert_eq!(server.run(&["rename", "c", "b"]).status.code(), Some(2));
    let ls = server.json(&["ls", "--json"]);
    let names: Vec<&str> = ls["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["b", "c"]);
}

#[test]
fn move_pane_across_sessions_keeps_the_process_scrollback_and_id() {
    let server = TestServer::start();
    let a = server.new_session("a", &["bash", "--norc"]);
    let b = server.new_session("b", &[]);
    server.send_keys(&a, &["echo kept-$$", "Enter"]);
    // The pid and then the next prompt: the shell is idle, so the screen read next is final
    // (read between the two, the prompt appeared during the move and the screens differed).
    wait_until(
        "pid shown and the prompt back",
        Duration::from_secs(10),
        || {
            let lines = screen(&server.socket, &a).lines;
            let shown = lines.iter().position(|l| l.starts_with("kept-"));
            shown.is_some_and(|at| lines.get(at + 1).is_some_and(|l| !l.trim().is_empty()))
        },
    );
    let before: Vec<String> = screen(&server.socket, &a).lines;
    let doc = server.json(&["move-pane", "--json", &a, &b]);
    assert_eq!(doc["operation"], "move-pane");
    assert_eq!(doc["cross_session"], true);
    assert_eq!(
        doc["source_terminal_id"].to_string(),
        a.trim_start_matches('@')
    );
    assert_eq!(
        screen(&server.socket, &a).lines,
        before,
        "same process and screen after the move"
    );
    let ls = server.json(&["ls", "--json"]);
    assert_eq!(
        ls["sessions"].as_array().unwrap().len(),
        1,
        "session a emptied and went away"
    );
    let swap = server.json(&["swap-pane", "--json", &a, &b]);
    assert_eq!(swap["operation"], "swap-pane");
    let same = server.run(&["swap-pane", "--json", &a, &a]);
    assert_eq!(same.status.code(), Some(2));
    assert_eq!(error_line(&same)["error"]["code"], "same_pane");
}

#[test]
fn insert_pane_of_a_placed_pane_and_cross_session_are_refused() {
    let server = TestServer::start();
    let a = server.new_session("a", &[]);
    let spawned = server.json(&["spawn", "--target", "a", "--json"]);
    let second = format!("@{}", spawned["terminal_id"]);
    // Every phux pane has a place; insert-pane does not move it (move-pane does).
    let placed = server.run(&["insert-pane", "--json", &a, &second]);
    assert_eq!(placed.status.code(), Some(2));
    assert_eq!(
        error_line(&placed)["error"]["code"],
        "pane_already_in_layout"
    );
    let other = server.new_session("b", &[]);
    let refused = server.run(&["insert-pane", "--json", &a, &other]);
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(error_line(&refused)["error"]["code"], "cross_session");
}

#[test]
fn kill_window_session_and_server() {
    let server = TestServer::start();
    server.new_session("a", &[]);
    server.new_session("b", &[]);
    assert!(server.run(&["kill", "a:0"]).status.success());
    assert!(server.run(&["kill", "b"]).status.success());
    let output = server.run(&["ls", "--json"]);
    // The server ends with its last pane.
    assert!(output.status.code() == Some(1) || json(&output)["sessions"] == serde_json::json!([]));
}

// Regression: a server started from a script inherits SIGINT ignored, and so did every pane's
// program, which `phux signal interrupt` (and Ctrl-C) could then never stop.
#[test]
fn panes_get_default_signals_even_from_a_server_that_ignores_sigint() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(
        dir.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    let socket = dir.path().join("phux.sock");
    let script = format!(
        "trap '' INT QUIT; exec '{}' server --no-seed --socket '{}'",
        phux_tests::phux_bin().display(),
        socket.display()
    );
    let mut server = std::process::Command::new("bash")
        .args(["-c", &script])
        .spawn()
        .unwrap();
    let phux = |args: &[&str]| phux_tests::run(phux_tests::phux(args).env("PHUX_SOCKET", &socket));
    wait_until("the server answers", Duration::from_secs(10), || {
        socket.exists() && phux(&["status"]).status.success()
    });
    let doc = json(&phux(&[
        "new",
        "-s",
        "s",
        "--json",
        "--",
        "sh",
        "-c",
        "grep SigIgn /proc/self/status; exec sleep 600",
    ]));
    let pane = format!("@{}", doc["terminal_id"]);
    wait_for_text(&socket, &pane, "SigIgn");
    let line = screen(&socket, &pane)
        .lines
        .into_iter()
        .find(|l| l.contains("SigIgn"))
        .unwrap();
    let _ = phux(&["kill", "--server"]);
    let _ = server.wait();
    let mask = u64::from_str_radix(line.trim_start_matches("SigIgn:").trim(), 16).unwrap();
    let (sigint, sigquit) = (1 << 1, 1 << 2);
    assert_eq!(
        mask & (sigint | sigquit),
        0,
        "the pane's program ignores SIGINT or SIGQUIT: {line}"
    );
}
