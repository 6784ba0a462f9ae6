//! Panes that report their end: a pane whose program exits stays readable (its last screen,
//! its exit status or signal, when it ended), is listed under `exited` by `ls --json` and
//! `status --json`, refuses writes with `pane_exited` naming its status, and `run` ends with the
//! status of a shell that exits under it. A server whose last live pane ends still stops.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::time::Duration;

use phux_tests::{error_line, golden, stderr, stdout, wait_until, TestServer};
use serde_json::Value;

/// The `exited` entry for `pane` in `ls --json`, once the pane's end is known.
fn exited_entry(server: &TestServer, pane: &str) -> Value {
    let id: u64 = pane.trim_start_matches('@').parse().unwrap();
    let mut found = Value::Null;
    wait_until(
        "the pane is listed as exited",
        Duration::from_secs(10),
        || {
            let ls = server.json(&["ls", "--json"]);
            found = ls["exited"]
                .as_array()
                .and_then(|list| list.iter().find(|e| e["id"] == id).cloned())
                .unwrap_or(Value::Null);
            !found.is_null()
        },
    );
    found
}

/// `ls --json` with the one field that varies from run to run zeroed.
fn zero_ended_at(printed: &str) -> String {
    let (head, tail) = printed.split_once("\"ended_at\":").unwrap();
    let rest = tail.trim_start_matches(|c: char| c.is_ascii_digit());
    format!("{head}\"ended_at\":0{rest}")
}

#[test]
fn an_exited_pane_stays_readable_and_refuses_writes_naming_its_status() {
    let server = TestServer::start();
    let keeper = server.plain_shell("keeper", "sh"); // the server stops with its last pane
    let pane = server.new_session("bye", &["sh", "-c", "echo bye; exit 42"]);
    let entry = exited_entry(&server, &pane);
    assert_eq!(entry["exit_code"], 42);
    assert_eq!(entry["signal"], Value::Null);
    assert_eq!(entry["session"], "bye");
    assert!(entry["ended_at"].as_u64() > Some(1_600_000_000), "{entry}");

    // Reads answer as for a live pane: the last screen is there.
    let snapshot = server.run(&["snapshot", &pane]);
    assert_eq!(snapshot.status.code(), Some(0), "{}", stderr(&snapshot));
    assert!(stdout(&snapshot).contains("bye"), "{}", stdout(&snapshot));
    let doc = server.json(&["snapshot", "--json", &pane]);
    assert_eq!(doc["lines"][0], "bye", "{doc}");
    // Its session is gone with it, but the session's name still reaches the kept pane (it was
    // once `no_such_target`), and a write through the name says how the pane ended.
    let by_name = server.json(&["snapshot", "--json", "bye"]);
    assert_eq!(by_name["lines"][0], "bye", "{by_name}");
    let write = server.run(&["send-keys", "--json", "bye", "x"]);
    assert_eq!(error_line(&write)["error"]["code"], "pane_exited");

    // The listing keeps the live panes as they were, and adds the exited one.
    let ls = server.run(&["ls", "--json"]);
    assert_eq!(ls.status.code(), Some(0));
    let printed = zero_ended_at(&stdout(&ls));
    assert!(printed.contains(&format!("\"terminals\":[\"{keeper}\"]")));
    golden(
        "e2e/ls_exited.json",
        &printed.replace(&format!("\"id\":{}", &pane[1..]), "\"id\":N"),
    );
    let status = server.json(&["status", "--json"]);
    let mut exited = status["exited"].clone();
    exited[0]["ended_at"] = 0.into();
    exited[0]["id"] = 0.into();
    golden("e2e/status_exited.json", &format!("{exited}\n"));

    // Writes are refused with a code of their own naming the status, not `no_such_target`.
    let refused = server.run(&["send-keys", "--json", &pane, "x"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(stdout(&refused).is_empty());
    golden(
        "e2e/send_keys_pane_exited.json",
        &stderr(&refused).replace(&pane, "@N"),
    );
    for args in [
        vec!["paste", &pane, "text"],
        vec!["resize", &pane, "100x30"],
        vec!["run", &pane, "true"],
    ] {
        let mut with_json = args.clone();
        with_json.insert(1, "--json");
        let output = server.run(&with_json);
        let line = error_line(&output);
        assert_eq!(line["error"]["code"], "pane_exited", "{args:?}: {line}");
        assert_eq!(
            line["error"]["message"],
            format!("{pane} exited with 42"),
            "{args:?}"
        );
    }
    // `signal` has no --json: its prose names the status.
    let signal = server.run(&["signal", &pane, "interrupt"]);
    assert_eq!(signal.status.code(), Some(1), "{}", stderr(&signal));
    assert!(stderr(&signal).contains(&format!("{pane} exited with 42")));
    // A pane that never existed is still a typo.
    let typo = server.run(&["send-keys", "--json", "@999", "x"]);
    assert_eq!(error_line(&typo)["error"]["code"], "no_such_target");
}

#[test]
fn wait_on_an_exited_pane_matches_its_last_screen_or_ends_at_once() {
    let server = TestServer::start();
    server.plain_shell("keeper", "sh");
    let pane = server.new_session("bye", &["sh", "-c", "echo bye; exit 3"]);
    exited_entry(&server, &pane);
    let met = server.run(&["wait", "--until", "bye", "--timeout", "10", &pane]);
    assert_eq!(met.status.code(), Some(0), "{}", stderr(&met));
    let never = server.run(&[
        "wait",
        "--until",
        "NEVER",
        "--timeout",
        "60",
        "--json",
        &pane,
    ]);
    assert_eq!(never.status.code(), Some(1), "{}", stderr(&never));
    let line = error_line(&never);
    assert_eq!(line["error"]["code"], "pane_exited");
    assert_eq!(line["error"]["message"], format!("{pane} exited with 3"));
}

#[test]
fn run_exit_4_in_a_bash_pane_exits_4() {
    let server = TestServer::start();
    server.plain_shell("keeper", "sh");
    let pane = server.marked_bash("fours");
    let output = server.run(&["run", &pane, "exit 4"]);
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    assert!(stderr(&output).contains(&format!("{pane} exited with 4")));
    assert_eq!(exited_entry(&server, &pane)["exit_code"], 4);
    // A plain bash without marks takes the other road to the same answer.
    let plain = server.plain_shell("plain", "bash");
    let output = server.run(&["run", "--json", &plain, "exit 5"]);
    assert_eq!(output.status.code(), Some(5), "{}", stderr(&output));
    assert_eq!(error_line(&output)["exit_code"], 5);
}

#[test]
fn run_exit_in_the_last_pane_reports_the_status_and_the_server_still_stops() {
    let mut server = TestServer::start();
    let pane = server.marked_bash("last");
    let output = server.run(&["run", &pane, "exit 6"]);
    assert_eq!(output.status.code(), Some(6), "{}", stderr(&output));
    assert!(
        server.wait_exit(Duration::from_secs(20)),
        "exited panes must not keep the server up"
    );
}

#[test]
fn a_pane_killed_by_a_signal_reports_the_signal() {
    let server = TestServer::start();
    server.plain_shell("keeper", "sh");
    let pane = server.new_session("victim", &["sleep", "600"]);
    let signal = server.run(&["signal", &pane, "kill"]);
    assert_eq!(signal.status.code(), Some(0), "{}", stderr(&signal));
    let entry = exited_entry(&server, &pane);
    assert_eq!(entry["signal"], 9, "{entry}");
    assert_eq!(entry["exit_code"], Value::Null, "{entry}");
    let refused = server.run(&["send-keys", "--json", &pane, "x"]);
    assert_eq!(
        error_line(&refused)["error"]["message"],
        format!("{pane} was killed by SIGKILL")
    );
}

#[test]
fn the_kept_exited_panes_are_bounded_by_keep_exited() {
    let server = TestServer::start_with(&["--keep-exited", "1"]);
    server.plain_shell("keeper", "sh");
    let first = server.new_session("one", &["sh", "-c", "echo one; exit 1"]);
    exited_entry(&server, &first);
    let second = server.new_session("two", &["sh", "-c", "echo two; exit 2"]);
    exited_entry(&server, &second);
    let ls = server.json(&["ls", "--json"]);
    assert_eq!(ls["exited"].as_array().map(Vec::len), Some(1), "{ls}");
    // The older one is forgotten: it is a plain `no_such_target` again.
    let output = server.run(&["snapshot", "--json", &first]);
    assert_eq!(error_line(&output)["error"]["code"], "no_such_target");

    let none = TestServer::start_with(&["--keep-exited", "0"]);
    none.plain_shell("keeper", "sh");
    let pane = none.new_session("gone", &["sh", "-c", "echo one; exit 1"]);
    wait_until("the pane ends", Duration::from_secs(10), || {
        let output = none.run(&["snapshot", "--json", &pane]);
        error_line(&output)["error"]["code"] == "no_such_target"
    });
    assert!(none.json(&["ls", "--json"]).get("exited").is_none());
}
