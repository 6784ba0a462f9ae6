//! `wait` that means "from now on" (issue 19): `--new` matches only output that arrives after
//! the wait began, `--after MARK` only output after a mark `send-keys` / `paste` / `run` /
//! `snapshot --json` reported, so an earlier prompt or the echo of the typed line never ends
//! the wait. Also the additive keys of `wait --json` (`met`, `matched`, `match`, `tail_lines`)
//! and of `send-keys --json`, pinned as golden documents.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::time::Duration;

use phux_tests::{golden, json, run_with_deadline, stderr, stdout, TestServer};
use serde_json::Value;

/// The line the agent typed, plus a print whose output ("done") is not in its echo: the screen
/// shows `done` only once the sleep has ended.
const SLEEP_LINE: &str = "import time; time.sleep(2); print('do' + 'ne')";

fn python(server: &TestServer) -> String {
    let pane = server.new_session("py", &["python3", "-q"]);
    server.wait_for_text(&pane, ">>>");
    pane
}

/// The wait ended on the prompt drawn after the sleep: `done` is on its final screen, the
/// match is a bare `>>>` below it.
fn assert_ended_after_the_sleep(doc: &Value) {
    let rows = phux_tests::screen_lines(doc);
    let done = rows.iter().position(|l| l == "done");
    assert!(
        done.is_some(),
        "the wait returned before the sleep ended: {rows:?}"
    );
    assert_eq!(doc["met"], true);
    assert_eq!(doc["matched"], true);
    // The text the pattern (`>>>`) saw: the prompt, with its blank once Python drew it.
    assert_eq!(
        doc["match"]["text"].as_str().map(str::trim_end),
        Some(">>>"),
        "{doc}"
    );
    let row = doc["match"]["row"].as_u64().unwrap() as usize;
    assert!(
        row > done.unwrap(),
        "the matched prompt is below `done`: {rows:?}"
    );
    assert_eq!(rows[row], ">>>");
}

#[test]
fn wait_new_does_not_match_the_prompt_already_on_screen() {
    let server = TestServer::start();
    let pane = python(&server);
    server.send_keys(&pane, &[SLEEP_LINE, "Enter"]);
    let doc = server.json_slow(&[
        "wait",
        "--json",
        "--new",
        "--until",
        ">>>",
        "--timeout",
        "60",
        &pane,
    ]);
    assert_ended_after_the_sleep(&doc);
}

#[test]
fn wait_after_the_mark_of_send_keys_cannot_race() {
    let server = TestServer::start();
    let pane = python(&server);
    let sent = server.json_slow(&["send-keys", "--json", &pane, SLEEP_LINE, "Enter"]);
    let mark = sent["mark"]
        .as_u64()
        .expect("send-keys --json reports a mark");
    let doc = server.json_slow(&[
        "wait",
        "--json",
        "--after",
        &mark.to_string(),
        "--until",
        ">>>",
        "--timeout",
        "60",
        &pane,
    ]);
    assert_ended_after_the_sleep(&doc);
    // Started late (the prompt is already drawn), the same wait still matches at once: the
    // mark, not the moment the wait began, says what is new.
    let again = server.json_slow(&[
        "wait",
        "--json",
        "--after",
        &mark.to_string(),
        "--until",
        ">>>",
        "--timeout",
        "10",
        &pane,
    ]);
    assert_eq!(
        again["match"]["text"].as_str().map(str::trim_end),
        Some(">>>")
    );
    // After the mark of a snapshot taken now, nothing new has come: the wait times out.
    let snap = server.json_slow(&["snapshot", "--json", &pane]);
    let now = snap["mark"]
        .as_u64()
        .expect("snapshot --json reports a mark");
    assert!(now > mark);
    let output = server.run(&[
        "wait",
        "--json",
        "--after",
        &now.to_string(),
        "--until",
        ">>>",
        "--timeout",
        "1",
        &pane,
    ]);
    assert_eq!(output.status.code(), Some(124), "{}", stderr(&output));
    let timed_out = json(&output);
    assert_eq!(
        (&timed_out["met"], &timed_out["matched"]),
        (&Value::Bool(false), &Value::Bool(false))
    );
    assert!(timed_out.get("match").is_none());
}

#[test]
fn paste_and_run_report_marks_that_wait_after_accepts() {
    let server = TestServer::start();
    let pane = server.marked_bash("marks");
    let pasted = server.json_slow(&["paste", "--json", &pane, "echo pas''ted"]);
    let mark = pasted["mark"].as_u64().unwrap();
    server.send_keys(&pane, &["Enter"]);
    let doc = server.json_slow(&[
        "wait",
        "--json",
        "--after",
        &mark.to_string(),
        "--until",
        "pasted",
        "--timeout",
        "60",
        &pane,
    ]);
    assert_eq!(doc["match"]["text"], "pasted");
    let ran = server.json_slow(&["run", "--json", &pane, "true"]);
    let after_run = ran["mark"].as_u64().expect("run --json reports a mark");
    assert!(after_run > mark);
    // Nothing printed "pasted" after the run: only old output holds it.
    let output = server.run(&[
        "wait",
        "--json",
        "--after",
        &after_run.to_string(),
        "--until",
        "pasted",
        "--timeout",
        "1",
        &pane,
    ]);
    assert_eq!(output.status.code(), Some(124), "{}", stderr(&output));
}

#[test]
fn new_and_after_need_a_text_condition_and_exclude_each_other() {
    let server = TestServer::start();
    let pane = server.plain_shell("flags", "sh");
    for args in [
        vec!["wait", "--json", "--new", "--timeout", "1", &pane],
        vec![
            "wait", "--json", "--new", "--after", "3", "--until", "x", &pane,
        ],
    ] {
        let output = server.run(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty());
        assert_eq!(
            phux_tests::error_line(&output)["error"]["code"],
            "invalid_argument"
        );
    }
}

/// A fixed program in a 40x6 pane: it says `ready` with echo off, then on Enter prints four
/// numbered lines.
const PROGRAM: &str = "stty -echo; printf ready; IFS= read -r _; \
    for i in 1 2 3 4; do printf 'row %s\\n' $i; done; exec sleep 600";

#[test]
fn the_send_keys_and_wait_documents_are_pinned() {
    let server = TestServer::start();
    let pane = server.new_session("fixed", &["sh", "-c", PROGRAM]);
    server.wait_for_text(&pane, "ready");
    let resized = server.run(&["resize", &pane, "40x6"]);
    assert!(resized.status.success());
    let sent = server.run(&["send-keys", "--json", &pane, "Enter"]);
    assert!(sent.status.success(), "{}", stderr(&sent));
    // The operation id is fresh each time: 32 hex digits, pinned as a placeholder.
    let document = json(&sent);
    let operation = document["operation_id"].as_str().unwrap_or_default();
    assert!(
        operation.len() == 32 && operation.bytes().all(|b| b.is_ascii_hexdigit()),
        "{document}"
    );
    let printed = stdout(&sent).replace(operation, "<operation_id>");
    golden("e2e/send_keys_mark.json", &printed);
    let mark = json(&sent)["mark"].to_string();
    let waited = run_with_deadline(
        &mut server.phux(&[
            "wait",
            "--json",
            "--after",
            &mark,
            "--until",
            "row 4",
            "--tail",
            "2",
            "--timeout",
            "60",
            &pane,
        ]),
        Duration::from_secs(90),
    );
    assert!(waited.status.success(), "{}", stderr(&waited));
    golden("e2e/wait_after_tail_2.json", &stdout(&waited));
    let doc = json(&waited);
    assert_eq!(doc["tail_lines"], serde_json::json!(["row 3", "row 4"]));
    // In prose, --tail N prints those rows.
    let prose = run_with_deadline(
        &mut server.phux(&[
            "wait",
            "--until",
            "row 4",
            "--tail",
            "2",
            "--timeout",
            "10",
            &pane,
        ]),
        Duration::from_secs(30),
    );
    assert!(prose.status.success(), "{}", stderr(&prose));
    assert_eq!(stdout(&prose), "row 3\nrow 4\n");
}
