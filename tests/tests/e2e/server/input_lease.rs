//! Input leases (issue 38): `phux take` gives its holder exclusive input over a pane; every
//! other writer (send-keys, paste, run, the agent verbs) is refused with `input_lease_held`,
//! naming the holder, and nothing is written; `phux give` (or the TTL) ends it. `ls`,
//! `status`, `snapshot` and `watch` report it.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::process::Output;
use std::time::Duration;

use phux_tests::{error_line, json, run_with_deadline, stderr, wait_until, TestServer};
use serde_json::Value;

/// `phux ARGS` typed as `actor` (`PHUX_AS`), or as nobody in particular.
fn as_actor(server: &TestServer, actor: Option<&str>, args: &[&str]) -> Output {
    let mut command = server.phux(args);
    command.env_remove("PHUX_AS");
    if let Some(actor) = actor {
        command.env("PHUX_AS", actor);
    }
    run_with_deadline(&mut command, Duration::from_secs(60))
}

fn refused_as_held(output: &Output, holder: &str) {
    assert_eq!(output.status.code(), Some(2), "{}", stderr(output));
    let line = error_line(output);
    assert_eq!(line["error"]["code"], "input_lease_held", "{line}");
    assert!(
        line["error"]["message"].as_str().unwrap().contains(holder),
        "the refusal names the holder: {line}"
    );
}

#[test]
fn a_taken_pane_takes_input_from_its_holder_only() {
    let server = TestServer::start();
    let pane = server.marked_bash("held");
    let set = server.run(&["agent", "set", &pane, "--name", "bot", "--kind", "claude"]);
    assert!(set.status.success(), "{}", stderr(&set));

    let taken = as_actor(&server, None, &["take", "--json", "--as", "alice", &pane]);
    assert!(taken.status.success(), "{}", stderr(&taken));
    assert_eq!(json(&taken)["lease"]["holder"], "alice");

    // Everyone else is refused, and nothing reaches the pane.
    for args in [
        vec!["send-keys", "--json", &pane, "echo NOT-TYPED", "Enter"],
        vec!["paste", "--json", &pane, "echo NOT-PASTED"],
        vec!["run", "--json", &pane, "echo NOT-RUN"],
        vec!["agent", "prompt", "--json", &pane, "NOT-PROMPTED"],
    ] {
        refused_as_held(&as_actor(&server, None, &args), "alice");
        refused_as_held(&as_actor(&server, Some("bot"), &args), "alice");
    }
    let screen = server.lines(&pane).concat();
    assert!(!screen.contains("NOT-"), "{screen}");

    // The holder types.
    let typed = as_actor(
        &server,
        Some("alice"),
        &["send-keys", &pane, "echo BY-$((1+1))-ALICE", "Enter"],
    );
    assert!(typed.status.success(), "{}", stderr(&typed));
    server.wait_for_text(&pane, "BY-2-ALICE");

    // Every read says who holds it.
    let snapshot = server.json(&["snapshot", "--json", &pane]);
    assert_eq!(snapshot["lease"]["holder"], "alice", "{snapshot}");
    let status = server.json(&["status", "--json"]);
    assert!(
        status.to_string().contains("\"holder\":\"alice\""),
        "{status}"
    );
    let ls = server.json(&["ls", "--json"]);
    assert!(ls.to_string().contains("\"holder\":\"alice\""), "{ls}");

    // Another taker waits its turn, or seizes it.
    refused_as_held(
        &as_actor(&server, None, &["take", "--json", "--as", "bob", &pane]),
        "alice",
    );
    // A give by someone who does not hold it is refused (it warned and exited 0), and
    // changes nothing.
    let not_yours = as_actor(&server, None, &["give", "--json", "--as", "bob", &pane]);
    assert_eq!(not_yours.status.code(), Some(2), "{}", stderr(&not_yours));
    let line = error_line(&not_yours);
    assert_eq!(line["error"]["code"], "input_lease_held", "{line}");
    assert!(
        line["error"]["message"].as_str().unwrap().contains("alice"),
        "{line}"
    );
    let status = server.json(&["status", "--json"]);
    assert!(
        status.to_string().contains("\"holder\":\"alice\""),
        "{status}"
    );

    // Given back, the agent's prompt goes through.
    let given = as_actor(&server, None, &["give", "--json", "--as", "alice", &pane]);
    assert!(given.status.success(), "{}", stderr(&given));
    assert_eq!(json(&given)["lease"], Value::Null);
    let prompt = as_actor(
        &server,
        None,
        &["agent", "prompt", "--json", &pane, "echo PROMPTED"],
    );
    assert!(prompt.status.success(), "{}", stderr(&prompt));
    server.wait_for_text(&pane, "PROMPTED");

    // Watchers heard each change.
    let watch = as_actor(
        &server,
        None,
        &["watch", "--json", "--since", "5m", "--timeout", "1", &pane],
    );
    let actions: Vec<String> = String::from_utf8_lossy(&watch.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["event"] == "lease")
        .map(|e| e["action"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(actions, ["taken", "given"], "{}", stderr(&watch));
}

#[test]
fn seize_takes_over_and_a_ttl_gives_back_by_itself() {
    let server = TestServer::start();
    let pane = server.plain_shell("ttl", "sh");
    assert!(as_actor(&server, None, &["take", "--as", "alice", &pane])
        .status
        .success());
    let seized = as_actor(
        &server,
        None,
        &[
            "take", "--json", "--as", "bob", "--seize", "--ttl", "1s", &pane,
        ],
    );
    assert!(seized.status.success(), "{}", stderr(&seized));
    assert_eq!(json(&seized)["lease"]["holder"], "bob");
    wait_until(
        "the TTL gives the pane back",
        Duration::from_secs(20),
        || {
            as_actor(
                &server,
                None,
                &["send-keys", &pane, "echo FREE-AGAIN", "Enter"],
            )
            .status
            .success()
        },
    );
    server.wait_for_text(&pane, "FREE-AGAIN");
}

#[test]
fn bad_leases_are_refused_before_anything_changes() {
    let server = TestServer::start();
    let pane = server.plain_shell("bad", "sh");
    for (args, code) in [
        (
            vec!["take", "--json", "--ttl", "25h", &pane],
            "invalid_argument",
        ),
        (
            vec!["take", "--json", "--as", "evil\u{1b}]52;c;x\u{7}", &pane],
            "invalid_argument",
        ),
        (vec!["take", "--json", "devbox/@1"], "satellite_target"),
    ] {
        let output = as_actor(&server, None, &args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert_eq!(error_line(&output)["error"]["code"], code, "{args:?}");
    }
    // Nothing was taken.
    assert_eq!(
        server.json(&["snapshot", "--json", &pane])["lease"],
        Value::Null
    );
}

#[test]
fn a_person_takes_the_focused_pane_in_the_tui_and_it_ends_with_their_client() {
    use phux_tests::outer_screen::AttachedTui;
    let server = TestServer::start();
    let pane = server.new_session("work", &[]);
    let mut tui = AttachedTui::start(&server, &["attach", "work"], 100, 24);
    tui.wait_for_text("[work] 0:0*");
    tui.prefix(b"T");
    tui.wait_for_text("taken by");
    let holder = server.json(&["snapshot", "--json", &pane])["lease"]["holder"]
        .as_str()
        .unwrap()
        .to_owned();
    // An agent's keys are refused; the person's reach the pane.
    refused_as_held(
        &as_actor(
            &server,
            None,
            &["send-keys", "--json", &pane, "echo NOT-TYPED", "Enter"],
        ),
        &holder,
    );
    tui.type_bytes(b"echo BY-$((2+2))-PERSON\r");
    server.wait_for_text(&pane, "BY-4-PERSON");
    // Detaching ends the lease with the client's connection.
    tui.prefix(b"d");
    tui.wait_exit(Duration::from_secs(20));
    wait_until(
        "the lease ends with the client",
        Duration::from_secs(20),
        || server.json(&["snapshot", "--json", &pane])["lease"].is_null(),
    );
    let free = as_actor(&server, None, &["send-keys", &pane, "echo FREE", "Enter"]);
    assert!(free.status.success(), "{}", stderr(&free));
}

#[test]
fn agent_wait_does_not_call_a_taken_pane_the_agents_turn() {
    let server = TestServer::start();
    let pane = server.marked_bash("turn");
    let declare = |state: &str| {
        let out = server.run(&[
            "agent", "set", &pane, "--name", "bot", "--kind", "claude", "--state", state,
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
    };
    declare("working");
    assert!(as_actor(&server, None, &["take", "--as", "alice", &pane])
        .status
        .success());
    // The agent blocks while a person holds the pane: no turn for it while the lease lasts.
    // Its two connections (requests and the subscription) are open, and its baseline read
    // follows at once.
    let mut held = server.spawn_connected(
        &[
            "agent",
            "wait",
            "--json",
            "--until",
            "blocked",
            "--timeout",
            "3",
            &pane,
        ],
        2,
    );
    std::thread::sleep(Duration::from_millis(300));
    declare("blocked");
    let status = held.wait().unwrap();
    assert_eq!(
        status.code(),
        Some(124),
        "the wait returned while the pane was taken"
    );

    // Once given back, the blocked state is the agent's turn.
    declare("working");
    // Its two connections (requests and the subscription) are open, and its baseline read
    // follows at once.
    let waiting = server.spawn_connected(
        &[
            "agent",
            "wait",
            "--json",
            "--until",
            "blocked",
            "--timeout",
            "30",
            &pane,
        ],
        2,
    );
    std::thread::sleep(Duration::from_millis(300));
    declare("blocked");
    assert!(as_actor(&server, None, &["give", "--as", "alice", &pane])
        .status
        .success());
    let done = waiting.wait_with_output().unwrap();
    assert!(done.status.success(), "{}", stderr(&done));
    let doc: Value = serde_json::from_slice(&done.stdout).unwrap();
    assert_eq!(doc["satisfied"], true, "{doc}");
    assert_eq!(doc["edge"]["to"], "blocked", "{doc}");
}

#[test]
fn a_read_only_client_reads_but_every_write_is_permission_denied() {
    let server = TestServer::start();
    let pane = server.plain_shell("ro", "sh");
    let read_only = |args: &[&str]| {
        let mut command = server.phux(args);
        command.env("PHUX_READ_ONLY", "1");
        run_with_deadline(&mut command, Duration::from_secs(60))
    };
    assert!(read_only(&["snapshot", "--json", &pane]).status.success());
    assert!(read_only(&["ls", "--json"]).status.success());
    for args in [
        vec!["send-keys", "--json", &pane, "echo NOT-TYPED", "Enter"],
        vec!["paste", "--json", &pane, "NOT-PASTED"],
        vec!["run", "--json", &pane, "echo NOT-RUN"],
        vec!["tag", "add", "--json", &pane, "x"],
        vec!["signal", &pane, "freeze"],
        vec!["resize", "--json", &pane, "20x5"],
        vec!["take", "--json", &pane],
    ] {
        let output = read_only(&args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        if args.contains(&"--json") {
            assert_eq!(
                error_line(&output)["error"]["code"],
                "permission_denied",
                "{args:?}"
            );
        } else {
            assert!(
                stderr(&output).contains("PHUX_READ_ONLY"),
                "{args:?}: {}",
                stderr(&output)
            );
        }
    }
    assert!(!server.lines(&pane).concat().contains("NOT-"));
}
