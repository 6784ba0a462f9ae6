//! One contract on every path: with `--json`, a failure found by the argument parser, a `run`
//! that gives up or whose pane exits, and a server that dies under `run`, `wait` and `watch`
//! each leave stdout empty and exactly one JSON line on stderr, pinned here byte for byte.
//! Also what the success documents gained: `RunResult.schema_version`, and `watch`'s `t`,
//! `ts` and `resized`.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::process::{Output, Stdio};
use std::time::{Duration, SystemTime};

use phux_tests::{error_line, phux, run, stderr, wait_until, TestServer};

/// Asserts that stderr is exactly `expected` (one line; `<socket>` stands for the socket).
fn assert_only_line(output: &Output, socket: &std::path::Path, expected: &str) {
    error_line(output);
    let expected = expected.replace("<socket>", &socket.display().to_string());
    assert_eq!(stderr(output), format!("{expected}\n"));
}

/// A socket path nothing listens on (usage errors never get as far as connecting).
fn nowhere() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("phux.sock");
    (dir, socket)
}

fn offline(socket: &std::path::Path, args: &[&str]) -> Output {
    run(phux(args).env("PHUX_SOCKET", socket))
}

#[test]
fn usage_errors_under_json_are_one_invalid_argument_line() {
    let (_dir, socket) = nowhere();
    let cases: [(&[&str], &str); 5] = [
        (
            &["new", "--json"],
            r#"{"schema_version":1,"error":{"code":"invalid_argument","message":"the following required arguments were not provided: --session <NAME>"},"remedy":"usage: phux new --session <NAME> --json [NAME] [-- <CMD>...]; see `phux --help` or `phux VERB --help`","exit_code":2}"#,
        ),
        (
            &["resize", "@1", "0x10", "--json"],
            r#"{"schema_version":1,"error":{"code":"invalid_argument","message":"invalid value '0x10' for '<COLSxROWS>': expected COLSxROWS with each at least 1 (e.g. 120x40), got \"0x10\""},"remedy":"see `phux --help` or `phux VERB --help`","exit_code":2}"#,
        ),
        (
            &["new", "-s", "x", "-e", "NOEQ", "--json"],
            r#"{"schema_version":1,"error":{"code":"invalid_argument","message":"invalid value 'NOEQ' for '--env <KEY=VALUE>': expected KEY=VALUE, got \"NOEQ\""},"remedy":"see `phux --help` or `phux VERB --help`","exit_code":2}"#,
        ),
        (
            &["snapshot", "--bogus", "--json", "@1"],
            r#"{"schema_version":1,"error":{"code":"invalid_argument","message":"unexpected argument '--bogus' found"},"remedy":"usage: phux snapshot [OPTIONS] [TARGET]; see `phux --help` or `phux VERB --help`","exit_code":2}"#,
        ),
        (
            &["--json", "bogus"],
            r#"{"schema_version":1,"error":{"code":"invalid_argument","message":"unrecognized subcommand 'bogus'"},"remedy":"usage: phux [OPTIONS] <COMMAND>; see `phux --help` or `phux VERB --help`","exit_code":2}"#,
        ),
    ];
    for (args, expected) in cases {
        let output = offline(&socket, args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_only_line(&output, &socket, expected);
    }
}

#[test]
fn without_json_usage_errors_and_help_stay_clap_s_own() {
    let (_dir, socket) = nowhere();
    let prose = offline(&socket, &["resize", "@1", "0x10"]);
    assert_eq!(prose.status.code(), Some(2));
    assert!(
        stderr(&prose).starts_with("error: invalid value '0x10'"),
        "{}",
        stderr(&prose)
    );
    // Help is not a failure, whatever else the command line says.
    let help = offline(&socket, &["new", "--help", "--json"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(phux_tests::stdout(&help).starts_with("Create a session"));
}

#[test]
fn json_before_the_verb_is_the_verb_s_json() {
    let (_dir, socket) = nowhere();
    let output = offline(&socket, &["--json", "ls"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(error_line(&output)["error"]["code"], "no_server");
}

#[test]
fn new_with_both_name_forms_under_json_is_invalid_argument() {
    let (_dir, socket) = nowhere();
    let output = offline(&socket, &["new", "a", "-s", "b", "--json"]);
    assert_eq!(output.status.code(), Some(2));
    assert_only_line(
        &output,
        &socket,
        r#"{"schema_version":1,"error":{"code":"invalid_argument","message":"NAME and -s/--session both name the session; pass only one"},"remedy":"usage: phux [OPTIONS] <COMMAND>; see `phux --help` or `phux VERB --help`","exit_code":2}"#,
    );
}

#[test]
fn a_run_that_gives_up_is_run_timed_out_125() {
    let server = TestServer::start();
    let pane = server.marked_bash("slow");
    let output = server.run(&["run", "--json", "--timeout", "0.5", &pane, "sleep 30"]);
    assert_eq!(output.status.code(), Some(125));
    let expected = format!(
        r#"{{"schema_version":1,"error":{{"code":"run_timed_out","message":"run gave up after --timeout 0.5s: \"sleep 30\" has not finished in {pane}"}},"remedy":"it may still be running: see `phux snapshot {pane}`, stop it with `phux signal {pane} interrupt`","exit_code":125}}"#
    );
    assert_only_line(&output, &server.socket, &expected);
}

#[test]
fn a_pane_whose_shell_exits_mid_run_is_pane_exited_with_its_status() {
    let server = TestServer::start();
    server.plain_shell("keeper", "sh"); // the server stops with its last pane
    let pane = server.marked_bash("exits");
    let output = server.run(&["run", "--json", &pane, "exit 7"]);
    assert_eq!(output.status.code(), Some(7));
    let expected = format!(
        r#"{{"schema_version":1,"error":{{"code":"pane_exited","message":"{pane} exited with 7"}},"remedy":"read its last screen with `phux snapshot {pane}`","exit_code":7}}"#
    );
    assert_only_line(&output, &server.socket, &expected);
}

/// Starts `phux ARGS` against `server` in the background, waits until `ready` holds, crashes
/// the server and returns what the verb printed.
fn crash_under(server: &mut TestServer, args: &[&str], ready: impl FnMut() -> bool) -> Output {
    // Counted from one: a set-up connection still counted would make `ready` true too soon.
    server.wait_until_alone();
    let child = server
        .phux(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_until("the verb is under way", Duration::from_secs(15), ready);
    server.crash();
    let waiter = std::thread::spawn(move || child.wait_with_output().unwrap());
    wait_until("the verb ends", Duration::from_secs(15), || {
        waiter.is_finished()
    });
    waiter.join().unwrap()
}

/// Whether `n` clients besides the `status` asking are connected.
fn clients_besides_me(socket: &std::path::Path, n: u64) -> bool {
    let output = run(phux(&["status", "--json"]).env("PHUX_SOCKET", socket));
    serde_json::from_slice::<serde_json::Value>(&output.stdout)
        .ok()
        .and_then(|doc| doc["clients"].as_u64())
        .is_some_and(|clients| clients > n)
}

const DISCONNECTED: &str = r#"{"schema_version":1,"error":{"code":"server_disconnected","message":"the server at <socket> closed the connection mid-request"},"remedy":"the server went away; check `phux status`, then retry","exit_code":EXIT}"#;

#[test]
fn the_server_dying_mid_run_is_server_disconnected() {
    // Its panes die with it here (no keepers); with keepers the command goes on in its pane.
    let mut server =
        TestServer::start_with_env(&[], &[("PHUX_KEEPERS", std::ffi::OsStr::new("0"))]);
    let pane = server.marked_bash("crash");
    let socket = server.socket.clone();
    let output = crash_under(&mut server, &["run", "--json", &pane, "sleep 30"], || {
        phux_tests::screen(&socket, &pane)
            .lines
            .iter()
            .any(|l| l.contains("sleep 30"))
    });
    assert_eq!(output.status.code(), Some(125), "{}", stderr(&output));
    assert_only_line(&output, &socket, &DISCONNECTED.replace("EXIT", "125"));
}

#[test]
fn the_server_dying_mid_wait_is_server_disconnected() {
    // Its panes die with it here (no keepers); with keepers the wait goes on with the server
    // that takes the pane over.
    let mut server =
        TestServer::start_with_env(&[], &[("PHUX_KEEPERS", std::ffi::OsStr::new("0"))]);
    let pane = server.plain_shell("crash", "sh");
    let socket = server.socket.clone();
    // Its request connection and its subscription.
    let output = crash_under(
        &mut server,
        &["wait", "--json", "--until", "never-shown", &pane],
        || clients_besides_me(&socket, 2),
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_only_line(&output, &socket, &DISCONNECTED.replace("EXIT", "1"));
}

// Issue 18 item 12: `watch` without `--until` used to exit 0 in silence when the server died.
// Its panes die with it here (no keepers): with keepers the watch goes on with the server that
// takes them over (`server::crash_recovery`).
#[test]
fn watch_without_until_exits_1_when_the_server_dies() {
    let mut server =
        TestServer::start_with_env(&[], &[("PHUX_KEEPERS", std::ffi::OsStr::new("0"))]);
    let pane = server.plain_shell("crash", "sh");
    let socket = server.socket.clone();
    let output = crash_under(&mut server, &["watch", "--json", &pane], || {
        clients_besides_me(&socket, 1)
    });
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_only_line(
        &output,
        &socket,
        r#"{"schema_version":1,"error":{"code":"server_disconnected","message":"the server at <socket> went away while watching"},"remedy":"check `phux status`, then watch again","exit_code":1}"#,
    );
}

#[test]
fn the_run_result_carries_schema_version_1() {
    let server = TestServer::start();
    let pane = server.marked_bash("doc");
    let doc = server.json(&["run", "--json", &pane, "echo hi"]);
    assert_eq!(doc["schema_version"], 1, "{doc}");
    assert_eq!(doc["output"], "hi");
}

#[test]
fn watch_lines_carry_t_and_ts_and_a_resize_is_an_event() {
    let server = TestServer::start();
    let pane = server.plain_shell("sized", "sh");
    let before = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64();
    let mut watcher = server
        .phux(&[
            "watch",
            "--json",
            "--until",
            "resized",
            "--timeout",
            "15",
            &pane,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The subscription is in place once a resize is seen; resize until it is.
    let mut sizes = [(90, 20), (100, 30)].into_iter().cycle();
    let mut done = None;
    wait_until("watch sees the resize", Duration::from_secs(15), || {
        let (cols, rows) = sizes.next().unwrap();
        let resized = server.run(&["resize", &pane, &format!("{cols}x{rows}")]);
        assert!(resized.status.success(), "{}", stderr(&resized));
        std::thread::sleep(Duration::from_millis(100));
        done = watcher.try_wait().unwrap();
        done.is_some()
    });
    let output = watcher.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).unwrap();
    let line: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(line["event"], "resized", "{line}");
    assert_eq!(line["terminal"], pane.as_str());
    assert!(
        [90, 100].contains(&line["cols"].as_u64().unwrap()),
        "{line}"
    );
    assert!([20, 30].contains(&line["rows"].as_u64().unwrap()), "{line}");
    let t = line["t"].as_f64().unwrap();
    let ts = line["ts"].as_f64().unwrap();
    assert!((0.0..15.0).contains(&t), "{line}");
    assert!(ts >= before - 1.0 && ts < before + 30.0, "{line}");
}

#[test]
fn a_resize_to_the_same_size_is_not_an_event() {
    let server = TestServer::start();
    let pane = server.plain_shell("same", "sh");
    let resized = server.run(&["resize", &pane, "70x20"]);
    assert!(resized.status.success(), "{}", stderr(&resized));
    // Subscribed: its one connection is open.
    let watcher = server.spawn_connected(
        &[
            "watch",
            "--json",
            "--until",
            "resized",
            "--timeout",
            "2",
            &pane,
        ],
        1,
    );
    let again = server.run(&["resize", &pane, "70x20"]);
    assert!(again.status.success(), "{}", stderr(&again));
    let output = watcher.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(124), "{}", stderr(&output));
    assert!(!String::from_utf8_lossy(&output.stdout).contains("resized"));
}

#[test]
fn a_pane_that_exits_before_watch_s_until_is_pane_exited() {
    let server = TestServer::start();
    server.plain_shell("keeper", "sh"); // the server stops with its last pane
    let pane = server.new_session("closing", &["sh", "-c", "read _; exit 5"]);
    let watcher = server.spawn_connected(&["watch", "--json", "--until", "bell", &pane], 1);
    server.send_keys(&pane, &["Enter"]);
    let output = watcher.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let expected = format!(
        r#"{{"schema_version":1,"error":{{"code":"pane_exited","message":"{pane} exited before any of: bell"}},"remedy":"list what exists with `phux ls --json`","exit_code":1}}"#
    );
    assert_eq!(stderr(&output), format!("{expected}\n"));
}
