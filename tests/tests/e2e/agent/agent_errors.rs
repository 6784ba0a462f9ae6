//! The JSON error contract of the agent verbs (snapshot, wait, run, watch, ask) on every
//! failure path: stdout empty, one JSON line last on stderr with the closed-vocabulary code,
//! a remedy, and the process status as `exit_code`.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_tests::{error_line, phux, run, TestServer};

/// Each verb with `--json`, aimed at TARGET.
fn verbs(target: &str) -> Vec<Vec<String>> {
    let words = |w: &[&str]| w.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    vec![
        words(&["snapshot", "--json", target]),
        words(&["wait", "--json", "--until", "x", "--timeout", "1", target]),
        words(&["run", "--json", target, "true"]),
        words(&["watch", "--json", "--timeout", "1", target]),
        words(&["ask", "--json", target, "question?"]),
    ]
}

fn code_of(output: &std::process::Output) -> (String, Option<i32>) {
    let line = error_line(output);
    (
        line["error"]["code"].as_str().unwrap().to_owned(),
        output.status.code(),
    )
}

#[test]
fn no_server_is_exit_1_with_no_server() {
    let dir = tempfile::tempdir().unwrap();
    for args in verbs("@1") {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut command = phux(&args);
        command.env("PHUX_SOCKET", dir.path().join("nothing.sock"));
        let output = run(&mut command);
        assert_eq!(code_of(&output), ("no_server".into(), Some(1)), "{args:?}");
    }
}

#[test]
fn a_missing_pane_is_exit_1_with_no_such_target() {
    let server = TestServer::start();
    server.plain_shell("only", "sh");
    for args in verbs("@99") {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = server.run(&args);
        assert_eq!(
            code_of(&output),
            ("no_such_target".into(), Some(1)),
            "{args:?}"
        );
    }
}

#[test]
fn a_malformed_selector_is_exit_2_with_invalid_selector() {
    let server = TestServer::start();
    server.plain_shell("only", "sh");
    for args in verbs("@x") {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = server.run(&args);
        assert_eq!(
            code_of(&output),
            ("invalid_selector".into(), Some(2)),
            "{args:?}"
        );
    }
}

#[test]
fn a_bad_regex_and_an_unknown_event_are_exit_2() {
    let server = TestServer::start();
    let pane = server.plain_shell("only", "sh");
    let bad_regex = server.run(&["wait", "--json", "--regex", "a(b", &pane]);
    assert_eq!(code_of(&bad_regex), ("invalid_argument".into(), Some(2)));
    let unknown = server.run(&["watch", "--json", "--until", "nope", &pane]);
    assert_eq!(code_of(&unknown), ("unknown_event_name".into(), Some(2)));
    let bad_count = server.run(&["snapshot", "--json", "--tail", "many", &pane]);
    assert_eq!(code_of(&bad_count), ("invalid_argument".into(), Some(2)));
}

#[test]
fn without_json_failures_stay_prose() {
    let server = TestServer::start();
    server.plain_shell("only", "sh");
    let output = server.run(&["snapshot", "@99"]);
    assert_eq!(output.status.code(), Some(1));
    let text = phux_tests::stderr(&output);
    assert!(text.starts_with("phux: "), "{text}");
    assert!(serde_json::from_str::<serde_json::Value>(text.lines().last().unwrap()).is_err());
}

/// The seed audit of issue 54: `agent set --kind` takes only the contract's kinds, `agent start`
/// on a pane that does not exist is `no_such_target`, and `--integration` naming none says what
/// to do instead of "choose one of: " and nothing.
#[test]
fn agent_kinds_missing_panes_and_unknown_integrations_are_refused_plainly() {
    let server = TestServer::start();
    let pane = server.plain_shell("p", "sh");
    let output = server.run(&["agent", "set", "--name", "x", "--kind", "fake", &pane]);
    assert_eq!(
        output.status.code(),
        Some(2),
        "{}",
        phux_tests::stderr(&output)
    );
    assert!(phux_tests::stderr(&output).contains("codex"));
    let listed = server.json(&["agent", "list", "--json"]);
    assert_eq!(listed["agents"], serde_json::json!([]), "{listed}");

    let output = server.run(&[
        "agent", "start", "--json", "bot", "--kind", "claude", "--target", "@99",
    ]);
    assert_eq!(code_of(&output).0, "no_such_target");

    let output = server.run(&[
        "agent",
        "start",
        "--json",
        "bot",
        "--kind",
        "claude",
        "--integration",
        "zz",
        "--target",
        &pane,
    ]);
    let line = error_line(&output);
    assert_eq!(line["error"]["code"], "ambiguous_integration", "{line}");
    let remedy = line["remedy"].as_str().unwrap();
    assert!(!remedy.trim_end().ends_with(':'), "an empty list: {remedy}");
}
