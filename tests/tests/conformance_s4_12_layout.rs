//! Contract §4.12 (spatial layout edits): `insert-pane` of a pane that already has a place is
//! refused with `pane_already_in_layout` (exit 2) and moves nothing; "insert-pane and swap-pane
//! also reject cross-session selectors" with `cross_session` (exit 2), leaving both sessions as
//! they were. Only move-pane crosses sessions.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_tests::{error_line, stdout, TestServer};

/// Which session holds each pane, and the layout of every session, from `ls --json`.
fn topology(server: &TestServer) -> serde_json::Value {
    server.json(&["ls", "--json"])
}

fn assert_refused(output: &std::process::Output, code: &str) {
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(
        stdout(output).is_empty(),
        "stdout of a refusal: {}",
        stdout(output)
    );
    let line = error_line(output);
    assert_eq!(line["error"]["code"], code, "{line}");
    assert_eq!(line["exit_code"], 2);
}

#[test]
fn s4_12_insert_pane_of_a_pane_already_placed_is_pane_already_in_layout() {
    let server = TestServer::start();
    let first = server.new_session("a", &["sleep", "600"]);
    let spawned = server.json(&[
        "spawn", "--target", "a", "--split", "vertical", "--json", "--", "sleep", "600",
    ]);
    let second = format!("@{}", spawned["terminal_id"]);
    let before = topology(&server);
    let output = server.run(&[
        "insert-pane",
        "--json",
        "--split",
        "horizontal",
        &first,
        &second,
    ]);
    assert_refused(&output, "pane_already_in_layout");
    assert_eq!(
        topology(&server),
        before,
        "a refused insert-pane changed the layout"
    );
}

#[test]
fn s4_12_insert_pane_and_swap_pane_reject_cross_session_selectors() {
    let server = TestServer::start();
    let a = server.new_session("a", &["sleep", "600"]);
    let b = server.new_session("b", &["sleep", "600"]);
    let before = topology(&server);
    assert_refused(
        &server.run(&["swap-pane", "--json", &a, &b]),
        "cross_session",
    );
    assert_refused(
        &server.run(&["insert-pane", "--json", &a, &b]),
        "cross_session",
    );
    assert_eq!(
        topology(&server),
        before,
        "a refused edit changed the sessions"
    );
    // Within one session swap-pane still works, and move-pane still crosses.
    let spawned = server.json(&["spawn", "--target", "a", "--json", "--", "sleep", "600"]);
    let a2 = format!("@{}", spawned["terminal_id"]);
    assert_eq!(
        server.json(&["swap-pane", "--json", &a, &a2])["operation"],
        "swap-pane"
    );
    let moved = server.json(&["move-pane", "--json", &a2, &b]);
    assert_eq!(moved["cross_session"], true);
}
