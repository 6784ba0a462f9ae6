//! Contract §4.12 (spatial layout edits): `insert-pane` of a pane that already has a place is
//! refused with `pane_already_in_layout` (exit 2) and moves nothing; "insert-pane and swap-pane
//! also reject cross-session selectors" with `cross_session` (exit 2), leaving both sessions as
//! they were. Only move-pane crosses sessions.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_tests::{error_line, json, stderr, stdout, TestServer};

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

/// The codes the contract names for a layout that is missing or a pane with no place in one.
const PLACE_CODES: [&str; 2] = ["layout_missing", "pane_not_in_layout"];

/// The codes the contract names for the stages of a move that spans a transport (the source
/// gives the pane up, the destination takes it, each side checks its state afterwards). In phux
/// a move is one step under the server's lock, so none of these stages can fail on its own.
const STAGE_CODES: [&str; 4] = [
    "move_refused",
    "post_move_state_failed",
    "destination_changed",
    "source_layout_failed",
];

fn terminals(server: &TestServer) -> Vec<String> {
    topology(server)["terminals"]
        .as_array()
        .expect("terminals")
        .iter()
        .map(|t| t.as_str().expect("terminal id").to_owned())
        .collect()
}

fn spawn_beside(server: &TestServer, target: &str, split: &str) -> String {
    let spawned = server.json(&[
        "spawn", "--target", target, "--split", split, "--json", "--", "sleep", "600",
    ]);
    format!("@{}", spawned["terminal_id"])
}

/// `layout_rejected` (a placement the layout refuses up front) cannot arise: a window's split
/// tree has no size floor, since each pane keeps its own grid size and the tree only places it.
/// Twelve side-by-side splits beside a 10-column pane all succeed; so does inserting beside the
/// narrowest one.
#[test]
fn s4_12_a_layout_never_refuses_a_placement_so_layout_rejected_cannot_arise() {
    let server = TestServer::start();
    let first = server.new_session("narrow", &["sleep", "600"]);
    let resized = server.run(&["resize", &first, "10x5"]);
    assert!(resized.status.success(), "{}", stderr(&resized));
    let mut newest = first.clone();
    for _ in 0..12 {
        let spawned = server.run(&[
            "spawn", "--target", &first, "--split", "vertical", "--json", "--", "sleep", "600",
        ]);
        assert!(spawned.status.success(), "{}", stderr(&spawned));
        newest = format!("@{}", json(&spawned)["terminal_id"]);
    }
    let moved = server.run(&["move-pane", "--json", &newest, &first]);
    assert!(moved.status.success(), "{}", stderr(&moved));
    assert_eq!(terminals(&server).len(), 13);
}

/// `layout_missing` and `pane_not_in_layout` cannot arise: whatever the edits, every pane phux
/// lists has a place in its window's layout, so the insert of any of them meets a placed pane.
#[test]
fn s4_12_every_pane_keeps_a_place_so_layout_missing_and_pane_not_in_layout_cannot_arise() {
    let server = TestServer::start();
    let a = server.new_session("a", &["sleep", "600"]);
    let b = server.new_session("b", &["sleep", "600"]);
    let a2 = spawn_beside(&server, "a", "vertical");
    let a3 = spawn_beside(&server, &a2, "horizontal");
    let b2 = spawn_beside(&server, "b", "horizontal");
    // Move one across sessions and back again, swap two, and end one.
    assert_eq!(
        server.json(&["move-pane", "--json", &a3, &b2])["cross_session"],
        true
    );
    assert_eq!(
        server.json(&["move-pane", "--json", &a3, &a])["cross_session"],
        true
    );
    server.json(&["swap-pane", "--json", &a, &a2]);
    assert!(server.run(&["kill", &b]).status.success());

    let panes = terminals(&server);
    assert_eq!(panes.len(), 4, "{panes:?}");
    for pane in &panes {
        let sibling = if pane == &a { &a2 } else { &a };
        let output = server.run(&["insert-pane", "--json", sibling, pane]);
        let line = error_line(&output);
        let code = line["error"]["code"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        assert!(
            code == "pane_already_in_layout" || code == "cross_session",
            "{pane}: {line}"
        );
        assert!(!PLACE_CODES.contains(&code.as_str()), "{pane}: {line}");
    }
}

/// The five stage codes cannot arise: two clients moving the same pane back and forth at once
/// each see either the move done or an ordinary refusal, never a half-done move, and the pane
/// ends in exactly one place.
#[test]
fn s4_12_concurrent_moves_are_one_step_so_the_stage_codes_cannot_arise() {
    let server = TestServer::start();
    let a = server.new_session("a", &["sleep", "600"]);
    let b = server.new_session("b", &["sleep", "600"]);
    let mover = spawn_beside(&server, "a", "vertical");
    let server = &server;
    std::thread::scope(|scope| {
        for destination in [&a, &b] {
            let mover = &mover;
            scope.spawn(move || {
                for _ in 0..15 {
                    let output = server.run(&["move-pane", "--json", mover, destination]);
                    if output.status.success() {
                        let moved: serde_json::Value =
                            serde_json::from_str(&stdout(&output)).expect("move document");
                        assert_eq!(moved["operation"], "move-pane");
                        continue;
                    }
                    let line = error_line(&output);
                    let code = line["error"]["code"].as_str().unwrap_or_default();
                    assert!(!STAGE_CODES.contains(&code), "{line}");
                    assert!(!PLACE_CODES.contains(&code), "{line}");
                }
            });
        }
    });
    let panes = terminals(server);
    assert_eq!(panes.len(), 3, "{panes:?}");
    assert!(panes.contains(&mover), "{panes:?}");
    let output = server.run(&["insert-pane", "--json", &a, &mover]);
    let code = error_line(&output)["error"]["code"].clone();
    assert!(
        code == "pane_already_in_layout" || code == "cross_session",
        "{code}"
    );
}

/// §4.12's insert-pane succeeds on a pane with no place: `spawn --detached` makes one (it
/// runs and is listed as unplaced, readable and typed into), and `insert-pane` places it.
#[test]
fn s4_12_a_detached_spawn_is_unplaced_until_insert_pane_places_it() {
    let server = TestServer::start();
    let a = server.new_session("a", &["sleep", "600"]);
    let spawned = server.json(&["spawn", "--json", "--detached", "--target", &a, "--", "sh"]);
    let pane = format!("@{}", spawned["terminal_id"]);
    let listed = server.json(&["ls", "--json"]);
    assert_eq!(listed["unplaced"], serde_json::json!([pane]), "{listed}");
    let status = server.run(&["status"]);
    assert!(
        stdout(&status).contains(&format!("unplaced: {pane}")),
        "{}",
        stdout(&status)
    );
    // It runs: it can be typed into and read.
    server.send_keys(&pane, &["echo unplaced-$((1+1))", "Enter"]);
    server.wait_for_text(&pane, "unplaced-2");
    let placed = server.json(&["insert-pane", "--json", &a, &pane]);
    assert_eq!(placed["operation"], "insert-pane", "{placed}");
    let listed = server.json(&["ls", "--json"]);
    assert!(listed["unplaced"].is_null(), "{listed}");
    // Placed now, a second insert is refused as for any placed pane.
    let again = server.run(&["insert-pane", "--json", &a, &pane]);
    assert_refused(&again, "pane_already_in_layout");
}
