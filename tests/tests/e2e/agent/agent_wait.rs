//! `phux wait` against a real server and a real bash: text that straddles a soft wrap, regexes,
//! already-true conditions, a wait started before the output arrives, `--output-only` with
//! OSC 133 marks, settling (`--idle`), and the timeout (124, with the document still printed).

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_tests::{error_line, json, stderr, TestServer};

/// A 20-column bash pane that has printed `xxxxxxxxxxxxxxxNEEDLEHAY`, which wraps after
/// `NEEDL`. The command line typed for it never contains `NEEDLEHAY`.
fn wrapped_needle() -> (TestServer, String) {
    let server = TestServer::start();
    let pane = server.marked_bash("wrap");
    assert!(server.run(&["resize", &pane, "20x10"]).status.success());
    server.send_keys(
        &pane,
        &[
            "printf 'x%.0s' 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5; printf '%s%s\\n' NEEDLE HAY",
            "Enter",
        ],
    );
    server.wait_for_text(&pane, "EHAY");
    (server, pane)
}

#[test]
fn until_matches_text_that_straddles_a_soft_wrap() {
    let (server, pane) = wrapped_needle();
    let lines = server.lines(&pane);
    assert!(
        lines.iter().all(|l| !l.contains("NEEDLEHAY")),
        "the text must straddle the wrap for this test to mean anything: {lines:?}"
    );
    let output = server.run(&["wait", "--until", "NEEDLEHAY", "--timeout", "5", &pane]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let regex = server.run(&[
        "wait",
        "--regex",
        "x{15}NEED[L]E\\w+$",
        "--timeout",
        "5",
        &pane,
    ]);
    assert_eq!(regex.status.code(), Some(0), "{}", stderr(&regex));
}

#[test]
fn a_wait_started_before_the_output_sees_it() {
    let server = TestServer::start();
    let pane = server.marked_bash("late");
    // Under way before the output: its request connection and its subscription are open.
    let waiter = server.spawn_connected(
        &[
            "wait",
            "--until",
            "LATE-ARRIVAL",
            "--timeout",
            "10",
            "--json",
            &pane,
        ],
        2,
    );
    server.send_keys(
        &pane,
        &["sleep 0.3; echo LATE-$((6*7))ARRIVAL | tr -d 0-9", "Enter"],
    );
    let output = waiter.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let doc = json(&output);
    assert_eq!(doc["schema_version"], 3);
    assert!(doc["lines"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l == "LATE-ARRIVAL"));
}

#[test]
fn a_timeout_exits_124_and_still_prints_the_screen() {
    let server = TestServer::start();
    let pane = server.marked_bash("timeout");
    let output = server.run(&[
        "wait",
        "--until",
        "NEVER-THERE",
        "--timeout",
        "0.3",
        "--json",
        &pane,
    ]);
    assert_eq!(output.status.code(), Some(124));
    let doc = json(&output);
    assert_eq!(doc["schema_version"], 3);
    assert_eq!(doc["lines"][0], "$");
    let prose = server.run(&["wait", "--regex", "NEVER", "--timeout", "0.2", &pane]);
    assert_eq!(prose.status.code(), Some(124));
    assert!(prose.stdout.is_empty());
    assert!(stderr(&prose).contains("timed out"), "{}", stderr(&prose));
}

#[test]
fn tail_widens_what_is_matched_and_printed() {
    let server = TestServer::start();
    let pane = server.marked_bash("tail");
    assert!(server.run(&["resize", &pane, "40x5"]).status.success());
    server.send_keys(
        &pane,
        &["echo EARLY-$((1))MARK; seq 1 20; echo DONE-$((2))", "Enter"],
    );
    server.wait_for_text(&pane, "DONE-2");
    let viewport_only = server.run(&["wait", "--until", "EARLY-1MARK", "--timeout", "0.2", &pane]);
    assert_eq!(
        viewport_only.status.code(),
        Some(124),
        "scrolled out of the viewport"
    );
    let output = server.run(&[
        "wait",
        "--until",
        "EARLY-1MARK",
        "--tail",
        "--timeout",
        "2",
        "--json",
        &pane,
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let doc = json(&output);
    assert!(doc["scrollback"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l == "EARLY-1MARK"));
}

#[test]
fn output_only_ignores_the_typed_command_line() {
    let server = TestServer::start();
    let pane = server.marked_bash("typed");
    server.send_keys(&pane, &["echo ONLY-TYPED"]);
    server.wait_for_text(&pane, "ONLY-TYPED");
    let seen = server.run(&["wait", "--until", "ONLY-TYPED", "--timeout", "2", &pane]);
    assert_eq!(seen.status.code(), Some(0), "the typed text is on screen");
    let ignored = server.run(&[
        "wait",
        "--output-only",
        "--until",
        "ONLY-TYPED",
        "--timeout",
        "0.3",
        &pane,
    ]);
    assert_eq!(
        ignored.status.code(),
        Some(124),
        "typed input is not output"
    );
    assert!(!stderr(&ignored).contains("OSC 133"), "this bash has marks");
    server.send_keys(&pane, &["Enter"]);
    let printed = server.run(&[
        "wait",
        "--output-only",
        "--until",
        "ONLY-TYPED",
        "--timeout",
        "5",
        &pane,
    ]);
    assert_eq!(printed.status.code(), Some(0), "{}", stderr(&printed));
}

#[test]
fn output_only_warns_when_the_shell_emits_no_marks() {
    let server = TestServer::start();
    let pane = server.plain_shell("plain", "sh");
    let output = server.run(&[
        "wait",
        "--output-only",
        "--until",
        "$",
        "--timeout",
        "2",
        &pane,
    ]);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stderr(&output).contains("no OSC 133 prompt marks"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn idle_returns_once_the_screen_settles() {
    let server = TestServer::start();
    let pane = server.marked_bash("idle");
    server.send_keys(
        &pane,
        &["for i in 1 2 3; do echo tick$i; sleep 0.1; done", "Enter"],
    );
    let output = server.run(&["wait", "--idle", "400", "--timeout", "10", "--json", &pane]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let doc = json(&output);
    assert!(
        doc["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l == "tick3"),
        "settled only after the last tick: {doc}"
    );
    // With no condition at all, wait waits for the screen to settle.
    let bare = server.run(&["wait", "--timeout", "10", &pane]);
    assert_eq!(bare.status.code(), Some(0));
}

#[test]
fn usage_errors_exit_2_with_the_json_contract() {
    let server = TestServer::start();
    let pane = server.plain_shell("usage", "sh");
    let both = server.run(&["wait", "--until", "a", "--regex", "b", "--json", &pane]);
    assert_eq!(both.status.code(), Some(2));
    assert_eq!(error_line(&both)["error"]["code"], "invalid_argument");
    let bad = server.run(&["wait", "--regex", "(unclosed", "--json", &pane]);
    assert_eq!(bad.status.code(), Some(2));
    let line = error_line(&bad);
    assert_eq!(line["error"]["code"], "invalid_argument");
    assert!(line["error"]["message"].as_str().unwrap().contains("regex"));
    let prose = server.run(&["wait", "--regex", "(", &pane]);
    assert_eq!(prose.status.code(), Some(2));
    assert!(stderr(&prose).starts_with("phux: invalid --regex"));
}

#[test]
// The pane existed when the wait began: its exit is `pane_exited`, not `no_such_target`.
fn the_pane_closing_mid_wait_is_pane_exited() {
    let server = TestServer::start();
    // The server stops with its last pane; this one keeps it up.
    server.plain_shell("keeper", "sh");
    let pane = server.new_session("closing", &["sh", "-c", "read _; exit 42"]);
    // Under way: its request connection and its subscription are both open.
    let waiter = server.spawn_connected(
        &[
            "wait",
            "--until",
            "NEVER",
            "--timeout",
            "10",
            "--json",
            &pane,
        ],
        2,
    );
    server.send_keys(&pane, &["Enter"]);
    let output = waiter.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let line = error_line(&output);
    assert_eq!(line["error"]["code"], "pane_exited");
    assert_eq!(
        line["error"]["message"],
        format!("{pane} exited with 42 while waiting"),
        "the program's status is named"
    );
}
