//! A `#tag` selector that matches several panes: the verbs that act on one pane refuse it with
//! `selector_not_single` (exit 2, the panes named), never a silent pick; `tag`, `signal` and
//! `kill` act on every pane it names.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::time::Duration;

use phux_tests::{error_line, stderr, wait_until, TestServer};

/// Two sessions whose panes both carry the tag `jobs`; returns their `@N`.
fn two_jobs(server: &TestServer, command: &[&str]) -> (String, String) {
    let a = server.new_session("job-a", command);
    let b = server.new_session("job-b", command);
    for pane in [&a, &b] {
        let output = server.run(&["tag", "add", pane, "jobs"]);
        assert!(output.status.success(), "tag add: {}", stderr(&output));
    }
    (a, b)
}

#[test]
fn a_tag_naming_two_panes_is_selector_not_single_for_one_pane_verbs() {
    let server = TestServer::start();
    let (a, b) = two_jobs(&server, &["env", "PS1=$ ", "sh", "-i"]);
    server.wait_for_text(&a, "$");
    server.wait_for_text(&b, "$");
    let verbs: [&[&str]; 4] = [
        &["snapshot", "--json", "#jobs"],
        &["send-keys", "--json", "#jobs", "echo typed", "Enter"],
        &["run", "--json", "#jobs", "true"],
        &["wait", "--json", "--until", "x", "--timeout", "1", "#jobs"],
    ];
    for args in verbs {
        let output = server.run(args);
        assert!(output.stdout.is_empty(), "{args:?}: stdout not empty");
        let line = error_line(&output);
        assert_eq!(line["error"]["code"], "selector_not_single", "{args:?}");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let message = line["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&a) && message.contains(&b),
            "{args:?}: the message names both panes: {message}"
        );
    }
    // Nothing was typed into either pane.
    for pane in [&a, &b] {
        assert!(
            !server.lines(pane).iter().any(|l| l.contains("typed")),
            "{pane} received keys"
        );
    }
    // A tag naming one pane still works for them.
    let output = server.run(&["tag", "rm", &b, "jobs"]);
    assert!(output.status.success(), "tag rm: {}", stderr(&output));
    let doc = server.json(&["snapshot", "--json", "#jobs"]);
    assert!(doc["lines"].is_array());
}

#[test]
fn tag_signal_and_kill_act_on_every_pane_a_tag_names() {
    let server = TestServer::start();
    // An untagged pane keeps the server up once every tagged pane is gone (a server whose last
    // pane ends stops, and the reads below would then say no_server).
    server.new_session("keeper", &["sleep", "1000"]);
    let (a, b) = two_jobs(&server, &["sleep", "1000"]);
    let output = server.run(&["tag", "add", "#jobs", "both"]);
    assert!(
        output.status.success(),
        "tag add #jobs: {}",
        stderr(&output)
    );
    let doc = server.json(&["tag", "ls", "--json", "#both"]);
    let text = doc.to_string();
    assert!(text.contains(&a[1..]) && text.contains(&b[1..]), "{text}");

    let output = server.run(&["signal", "#jobs", "terminate"]);
    assert!(output.status.success(), "signal: {}", stderr(&output));
    wait_until(
        "both sleeps end on SIGTERM",
        Duration::from_secs(15),
        || {
            // Their sessions are gone (the panes are listed under `exited` a while).
            let text = server.json(&["ls", "--json"])["sessions"].to_string();
            !text.contains("job-a") && !text.contains("job-b")
        },
    );

    let (c, d) = two_jobs(&server, &["sleep", "1000"]);
    let output = server.run(&["kill", "#jobs"]);
    assert!(output.status.success(), "kill: {}", stderr(&output));
    for pane in [&c, &d] {
        let output = server.run(&["snapshot", "--json", pane]);
        assert_eq!(error_line(&output)["error"]["code"], "no_such_target");
    }
}
