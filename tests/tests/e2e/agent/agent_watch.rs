//! `phux watch` and `phux ask` against a real server: command_finished with the exit code of
//! OSC 133 D from a real bash, `--until`, `--timeout` (124), the end of the stream (1 before an
//! `--until` match), every pane without TARGET, and asks raised by `phux ask` and by a title.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use phux_tests::{error_line, stderr, stdout, TestServer};
use serde_json::Value;

/// A running `phux watch` whose stdout lines arrive on a channel.
struct Watcher {
    child: Child,
    lines: Receiver<String>,
}

impl Watcher {
    /// Starts `phux watch ARGS` and returns once it is subscribed: it pokes `pane` with asks
    /// until the first one shows up in the stream.
    fn start(server: &TestServer, args: &[&str], pane: &str) -> Watcher {
        let mut child = server
            .phux(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, lines) = channel();
        let out = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let watcher = Watcher { child, lines };
        let start = Instant::now();
        loop {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "watch never subscribed"
            );
            let poke = server.run(&["ask", pane, "ready?", "--id", "poke"]);
            assert!(poke.status.success(), "{}", stderr(&poke));
            // Events of the pane's own (an idle settling) may come first.
            if watcher
                .lines
                .recv_timeout(Duration::from_millis(100))
                .is_ok_and(|line| line.contains("poke"))
            {
                break;
            }
        }
        while watcher
            .lines
            .recv_timeout(Duration::from_millis(50))
            .is_ok()
        {}
        watcher
    }

    /// The next line that parses as an event named `name` (10 s at most).
    fn next_event(&self, name: &str) -> Value {
        let start = Instant::now();
        loop {
            let left = Duration::from_secs(10).saturating_sub(start.elapsed());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no {name} event"));
            let event: Value = serde_json::from_str(&line).unwrap();
            assert!(
                event.get("schema_version").is_none(),
                "NDJSON lines are unversioned"
            );
            if event["event"] == name {
                return event;
            }
        }
    }

    fn finish(mut self) -> Option<i32> {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            if start.elapsed() > Duration::from_secs(10) {
                let _ = self.child.kill();
                panic!("watch did not stop");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

#[test]
fn command_finished_carries_the_exit_code_of_each_command() {
    let server = TestServer::start();
    let pane = server.marked_bash("marks");
    let watcher = Watcher::start(&server, &["watch", "--json", &pane], &pane);
    for (command, code) in [("false", 1), ("(exit 42)", 42), ("true", 0)] {
        server.send_keys(&pane, &[command, "Enter"]);
        let started = watcher.next_event("command_started");
        assert_eq!(started["terminal"], pane.as_str());
        let finished = watcher.next_event("command_finished");
        assert_eq!(finished["exit_code"], code, "{command}");
        assert_eq!(finished["terminal"], pane.as_str());
    }
    let mut child = watcher.child;
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn until_stops_at_the_first_matching_event() {
    let server = TestServer::start();
    let pane = server.marked_bash("until");
    let watcher = Watcher::start(
        &server,
        &[
            "watch",
            "--json",
            "--until",
            "bell",
            "--until",
            "command_finished",
            &pane,
        ],
        &pane,
    );
    server.send_keys(&pane, &["(exit 3)", "Enter"]);
    assert_eq!(watcher.next_event("command_finished")["exit_code"], 3);
    assert_eq!(watcher.finish(), Some(0));
}

#[test]
fn a_timeout_exits_124() {
    let server = TestServer::start();
    let pane = server.plain_shell("quiet", "sh");
    let output = server.run(&[
        "watch",
        "--json",
        "--until",
        "bell",
        "--timeout",
        "0.3",
        &pane,
    ]);
    assert_eq!(output.status.code(), Some(124), "{}", stderr(&output));
    // The typed line says why it ended, as `wait`'s does (it was silent).
    let line: serde_json::Value = serde_json::from_str(stderr(&output).trim()).unwrap();
    assert_eq!(line["error"]["code"], "wait_timed_out", "{line}");
    assert_eq!(line["exit_code"], 124, "{line}");
    assert!(
        line["error"]["message"].as_str().unwrap().contains("bell"),
        "{line}"
    );
}

/// Ctrl-C (and SIGTERM, SIGHUP: how a supervisor or a closed terminal stops it) ends a watch
/// as a finished stream, with 0, not as a process killed by the signal.
#[test]
fn a_signal_ends_the_stream_with_0() {
    let server = TestServer::start();
    let pane = server.plain_shell("interrupted", "sh");
    for signal in ["INT", "TERM", "HUP"] {
        let watcher = Watcher::start(&server, &["watch", "--json", &pane], &pane);
        let sent = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &watcher.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        assert_eq!(watcher.finish(), Some(0), "SIG{signal}");
    }
}

/// A reader that stops reading (`phux watch | head -1`) ends the watch at the next event
/// instead of leaving it writing into a closed pipe forever.
#[test]
fn a_closed_pipe_ends_the_stream_with_0() {
    let server = TestServer::start();
    let pane = server.plain_shell("headed", "sh");
    let mut watcher = Watcher::start(&server, &["watch", "--json", &pane], &pane);
    let lines = std::mem::replace(&mut watcher.lines, channel().1);
    drop(lines);
    // The reading thread ends at its next line; events keep coming until the watch sees the
    // pipe closed.
    let start = Instant::now();
    let status = loop {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "watch kept writing into a closed pipe"
        );
        let poke = server.run(&["ask", &pane, "still there?", "--id", "poke"]);
        assert!(poke.status.success(), "{}", stderr(&poke));
        if let Some(status) = watcher.child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(0));
}

#[test]
fn the_pane_closing_before_an_until_match_exits_1() {
    let server = TestServer::start();
    server.plain_shell("keeper", "sh");
    let pane = server.new_session("closing", &["sh", "-c", "read _; exit 5"]);
    let watcher = Watcher::start(
        &server,
        &["watch", "--json", "--until", "bell", &pane],
        &pane,
    );
    server.send_keys(&pane, &["Enter"]);
    let closed = watcher.next_event("pane_closed");
    assert_eq!(closed["exit_status"], 5);
    assert_eq!(watcher.finish(), Some(1));
}

#[test]
fn without_target_every_pane_is_watched_in_prose() {
    let server = TestServer::start();
    let first = server.plain_shell("first", "sh");
    let watcher = Watcher::start(&server, &["watch"], &first);
    let second = server.plain_shell("second", "sh");
    server.send_keys(&second, &["printf '\\a'", "Enter"]);
    let start = Instant::now();
    loop {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no bell from {second}"
        );
        let line = watcher.lines.recv_timeout(Duration::from_secs(10)).unwrap();
        if line == format!("{second} bell") {
            break;
        }
    }
    let mut child = watcher.child;
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn asks_are_reported_by_ask_and_by_a_title() {
    let server = TestServer::start();
    let pane = server.marked_bash("asks");
    let watcher = Watcher::start(&server, &["watch", "--json", &pane], &pane);
    let output = server.run(&[
        "ask",
        &pane,
        "Approve deploy",
        "--id",
        "deploy",
        "--suggest",
        "Yes",
        "--suggest",
        "No",
        "--elapsed-seconds",
        "12",
        "--json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        format!(
            "{{\"schema_version\":1,\"event\":\"asked\",\"terminal\":\"{pane}\",\"id\":\"deploy\",\
             \"question\":\"Approve deploy\",\"suggestions\":[\"Yes\",\"No\"],\"elapsed_seconds\":12}}\n"
        )
    );
    let asked = watcher.next_event("asked");
    assert_eq!(asked["id"], "deploy");
    assert_eq!(asked["suggestions"], serde_json::json!(["Yes", "No"]));
    assert_eq!(asked["elapsed_seconds"], 12);

    let title = "printf '\\033]2;phux-ask[db]:Drop table??s=Keep|Drop\\007'";
    server.send_keys(&pane, &[title, "Enter"]);
    let asked = watcher.next_event("asked");
    assert_eq!(asked["id"], "db");
    assert_eq!(asked["question"], "Drop table");
    assert_eq!(asked["suggestions"], serde_json::json!(["Keep", "Drop"]));
    let mut child = watcher.child;
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn an_unknown_event_name_is_refused_before_connecting() {
    let dir = tempfile::tempdir().unwrap();
    let mut command = phux_tests::phux(&["watch", "--json", "--until", "explosion"]);
    command.env("PHUX_SOCKET", dir.path().join("none.sock"));
    let output = phux_tests::run(&mut command);
    assert_eq!(output.status.code(), Some(2));
    let line = error_line(&output);
    assert_eq!(line["error"]["code"], "unknown_event_name");
    assert!(line["remedy"]
        .as_str()
        .unwrap()
        .contains("command_finished"));
}

/// A bash pane of `session` beside its first one, at its `$ ` prompt. Returns `@N`.
fn second_bash(server: &TestServer, session: &str) -> String {
    let spawned = server.json(&[
        "spawn",
        "--target",
        session,
        "--json",
        "--",
        "env",
        "PS1=$ ",
        "bash",
        "--norc",
        "--noprofile",
        "-i",
    ]);
    let pane = format!("@{}", spawned["terminal_id"]);
    server.wait_for_text(&pane, "$");
    pane
}

/// Every line the watch printed until it exited, as JSON, with its exit code.
fn drain(watcher: Watcher) -> (Vec<Value>, Option<i32>) {
    let mut events = Vec::new();
    while let Ok(line) = watcher.lines.recv_timeout(Duration::from_secs(15)) {
        events.push(serde_json::from_str(&line).unwrap());
    }
    (events, watcher.finish())
}

/// The `exit_status` of each `pane_closed` line, by pane.
fn closed_statuses(events: &[Value]) -> Vec<(String, Value)> {
    let mut closed: Vec<(String, Value)> = events
        .iter()
        .filter(|e| e["event"] == "pane_closed")
        .map(|e| {
            (
                e["terminal"].as_str().unwrap().to_owned(),
                e["exit_status"].clone(),
            )
        })
        .collect();
    closed.sort_by(|a, b| a.0.cmp(&b.0));
    closed
}

/// `watch SESSION` used to follow only the session's focused pane: an agent running two jobs
/// in one session never heard of the other one ending. Now it covers both, and `--until
/// pane_closed --all` ends once both jobs are over, with each one's exit status.
#[test]
fn watch_all_over_a_session_sees_both_jobs_end_with_their_status() {
    let server = TestServer::start();
    let keeper = server.plain_shell("keeper", "sh");
    let first = server.plain_shell("jobs", "bash");
    let second = second_bash(&server, "jobs");
    let args = ["watch", "--json", "--until", "pane_closed", "--all", "jobs"];
    let watcher = Watcher::start(&server, &args, &first);
    // Both panes are watched, and a pane of another session is not.
    for pane in [&keeper, &second] {
        let poke = server.run(&["ask", pane, "here?", "--id", "second-poke"]);
        assert!(poke.status.success(), "{}", stderr(&poke));
    }
    let asked = watcher.next_event("asked");
    assert_eq!(asked["terminal"], second.as_str(), "{asked}");
    server.send_keys(&first, &["sleep 1; exit 3", "Enter"]);
    server.send_keys(&second, &["sleep 1; exit 4", "Enter"]);
    let (events, code) = drain(watcher);
    assert_eq!(code, Some(0), "{events:?}");
    let mut expected = vec![
        (first.clone(), Value::from(3)),
        (second.clone(), Value::from(4)),
    ];
    expected.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(closed_statuses(&events), expected);
    assert!(
        events.iter().all(|e| e["terminal"] != keeper.as_str()),
        "{events:?}"
    );
}

/// Several TARGETs in one watch; `--all` does not stop at the first pane's event, and a pane
/// that closes without the awaited event ends the watch with 1 (`pane_exited`) naming it.
#[test]
fn several_targets_in_one_watch_and_a_pane_that_cannot_satisfy_all() {
    let server = TestServer::start();
    server.plain_shell("keeper", "sh");
    let a = server.marked_bash("a");
    let b = server.marked_bash("b");
    let args = [
        "watch",
        "--json",
        "--until",
        "command_finished",
        "--all",
        &a,
        &b,
    ];
    let watcher = Watcher::start(&server, &args, &a);
    server.send_keys(&a, &["(exit 7)", "Enter"]);
    let finished = watcher.next_event("command_finished");
    assert_eq!(finished["terminal"], a.as_str());
    assert_eq!(finished["exit_code"], 7);
    server.send_keys(&b, &["exit 9", "Enter"]);
    let closed = watcher.next_event("pane_closed");
    assert_eq!(closed["terminal"], b.as_str());
    assert_eq!(closed["exit_status"], 9);
    let child = watcher.child;
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let line = error_line(&output);
    assert_eq!(line["error"]["code"], "pane_exited", "{line}");
    assert!(line["error"]["message"]
        .as_str()
        .unwrap()
        .contains(b.as_str()));
}

#[test]
fn all_without_until_is_a_usage_error() {
    let server = TestServer::start();
    let output = server.run(&["watch", "--json", "--all", "."]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
}
