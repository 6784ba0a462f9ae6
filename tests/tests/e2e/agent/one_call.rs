//! One call where an agent needed two (issue 54): `send-keys --wait-until/--wait-idle` types
//! and waits, `wait --after MARK --idle MS` waits for a full-screen program to finish drawing,
//! a batch of several lines is marked before its last line, `snapshot --plain` prints the text
//! alone, and `match` names the rows and the text the pattern saw.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::time::Duration;

use phux_tests::{error_line, run_with_deadline, screen_lines, stdout, TestServer};
use serde_json::Value;

fn json_of(output: &std::process::Output) -> Value {
    serde_json::from_str(stdout(output).trim())
        .unwrap_or_else(|e| panic!("stdout is one JSON document ({e}): {}", stdout(output)))
}

/// The Python REPL case of the issue: `Enter 'f(10)' Enter` then waiting for `>>> ` must see
/// the prompt drawn after `f(10)`'s result, never the one the first Enter drew.
#[test]
fn send_keys_then_wait_in_one_call_sees_only_the_last_lines_answer() {
    let server = TestServer::start();
    let repl = server.new_session("repl", &["python3", "-q"]);
    server.wait_for_text(&repl, ">>>");
    server.send_keys(
        &repl,
        &[
            "import time",
            "Enter",
            "def f(n): time.sleep(0.3); return n * 111",
            "Enter",
            "Enter",
        ],
    );
    server.send_keys(&repl, &["print('READY' * 2)", "Enter"]);
    server.wait_for_text(&repl, "READYREADY");
    let output = run_with_deadline(
        &mut server.phux(&[
            "send-keys",
            "--json",
            "--wait-until",
            ">>> ",
            "--timeout",
            "30",
            &repl,
            "Enter",
            "f(10)",
            "Enter",
        ]),
        Duration::from_secs(60),
    );
    assert!(output.status.success(), "{}", phux_tests::stderr(&output));
    let doc = json_of(&output);
    assert_eq!(doc["met"], true, "{doc}");
    assert_eq!(doc["sent"]["delivery"], "ok", "{doc}");
    let lines = screen_lines(&doc);
    assert!(
        lines.iter().any(|l| l == "1110"),
        "the wait ended before f(10) answered: {lines:?}"
    );
    assert_eq!(
        doc["match"]["text"], ">>> ",
        "the text the pattern saw: {doc}"
    );
    let row = doc["match"]["first_row"].as_u64().unwrap() as usize;
    assert_eq!(doc["match"]["last_row"], doc["match"]["first_row"]);
    assert_eq!(lines[row], ">>>", "{doc}");
    assert!(
        lines[..row].iter().any(|l| l == "1110"),
        "the prompt matched is the one after the result: {lines:?}"
    );
}

/// A full-screen program: after a key, wait until it drew and settled, in one call and as
/// `wait --after MARK --idle`; with nothing drawn since the mark the wait does not end.
#[test]
fn wait_after_a_mark_with_idle_waits_for_the_redraw_to_settle() {
    let server = TestServer::start();
    let pane = server.marked_bash("pager");
    let file = server.dir.path().join("rows.txt");
    let rows: String = (0..500).map(|i| format!("PAGE-ROW-{i}\n")).collect();
    std::fs::write(&file, rows).unwrap();
    server.send_keys(&pane, &[&format!("less {}", file.display()), "Enter"]);
    server.wait_for_text(&pane, "PAGE-ROW-3");
    let doc = server.json_slow(&["send-keys", "--json", "--wait-idle", "200", &pane, "Space"]);
    assert_eq!(doc["met"], true, "{doc}");
    assert!(
        screen_lines(&doc)
            .iter()
            .any(|l| l.starts_with("PAGE-ROW-30")),
        "the next page is drawn: {doc}"
    );
    // Nothing typed since this mark: the quiet alone does not end the wait.
    let mark = server.json(&["snapshot", "--json", &pane])["mark"]
        .as_u64()
        .unwrap()
        .to_string();
    let output = server.run(&[
        "wait",
        "--json",
        "--after",
        &mark,
        "--idle",
        "100",
        "--timeout",
        "1",
        &pane,
    ]);
    assert_eq!(
        output.status.code(),
        Some(124),
        "{}",
        phux_tests::stderr(&output)
    );
    assert_eq!(json_of(&output)["met"], false);
    let last: Value =
        serde_json::from_str(phux_tests::stderr(&output).lines().last().unwrap()).unwrap();
    assert_eq!(last["error"]["code"], "wait_timed_out");
    let sent = server.json(&["send-keys", "--json", &pane, "Space"]);
    let mark = sent["mark"].as_u64().unwrap().to_string();
    let doc = server.json_slow(&[
        "wait",
        "--json",
        "--after",
        &mark,
        "--idle",
        "200",
        "--timeout",
        "30",
        &pane,
    ]);
    assert_eq!(doc["met"], true, "{doc}");
}

/// `--timeout` alone, without a `--wait-*`, is refused before anything is typed.
#[test]
fn send_keys_timeout_without_a_wait_is_refused() {
    let server = TestServer::start();
    let pane = server.plain_shell("p", "sh");
    let output = server.run(&[
        "send-keys",
        "--json",
        "--timeout",
        "3",
        &pane,
        "echo TYPED",
        "Enter",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(error_line(&output)["error"]["code"], "invalid_argument");
}

/// `snapshot --plain`: the text alone, soft wraps joined, no frame; a wrapped match names the
/// row it starts on and the row it ends on.
#[test]
fn snapshot_plain_is_the_text_and_a_wrapped_match_names_both_rows() {
    let server = TestServer::start();
    let pane = server.plain_shell("p", "sh");
    server.json(&["resize", "--json", &pane, "40x10"]);
    let long = format!("http://example.test/{}", "x".repeat(50));
    // The line is made by the shell, so the echo of the command never holds it.
    server.send_keys(
        &pane,
        &[
            "clear; printf 'http://example.test/%s\\n' $(printf 'x%.0s' $(seq 50))",
            "Enter",
        ],
    );
    server.wait_for_text(&pane, "xxxxxxxx");
    let output = server.run(&["snapshot", "--plain", &pane]);
    assert!(output.status.success(), "{}", phux_tests::stderr(&output));
    let text = stdout(&output);
    assert!(
        !text.contains('│') && !text.contains('┌'),
        "no frame:\n{text}"
    );
    assert!(
        text.lines().any(|l| l == long),
        "the wrapped line is joined:\n{text}"
    );
    let doc = server.json_slow(&[
        "wait",
        "--json",
        "--regex",
        "^http",
        "--timeout",
        "10",
        &pane,
    ]);
    let first = doc["match"]["first_row"].as_u64().unwrap() as usize;
    let last = doc["match"]["last_row"].as_u64().unwrap() as usize;
    assert_eq!(last, first + 1, "{doc}");
    assert!(screen_lines(&doc)[first].starts_with("http"), "{doc}");
    assert_eq!(doc["match"]["row"], doc["match"]["first_row"]);
}
