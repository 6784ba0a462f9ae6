//! A fault injected for real at each phase of an upgrade's hand-off: the old process killed
//! with SIGKILL after its snapshots, its state file, its manifest, its descriptors (right
//! before the exec), or the new process killed after it read the manifest, took the
//! descriptors, loaded the engine, rebuilt the server's state, the terminals, the panes or the
//! tree (`PHUX_FAULT_AT=SIDE:PHASE`, which only the server's own environment carries). Each
//! time `upgrade` ends with `upgrade_failed` and a reason, and every pane runs on: the same
//! programs, a shell's state, the quiet panes' screens and histories as they were, and a
//! ticker's every line once, in order.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::ffi::OsStr;
use std::time::Duration;

use phux_tests::{error_line, kept_programs, stderr, wait_until, TestServer};

fn fault_at(phase: &str) {
    let mut server = TestServer::start_with_env(&[], &[("PHUX_FAULT_AT", OsStr::new(phase))]);
    let bash = server.marked_bash("work");
    server.send_keys(
        &bash,
        &[
            "STATE=kept-$((6*7)); for i in $(seq 1 50); do echo history $i; done",
            "Enter",
        ],
    );
    server.wait_for_text(&bash, "history 50");
    let stop = server.dir.path().join("stop");
    let ticks = server.ticker("ticks", &stop);
    server.wait_for_text(&ticks, "tick-20");
    let before = server.json(&["snapshot", "--json", "--scrollback", &bash]);
    let pids = kept_programs(&server.socket);
    assert_eq!(pids.len(), 2, "{pids:?}");

    let out = server.run(&["upgrade", "--json"]);
    let line = error_line(&out);
    assert_eq!(line["error"]["code"], "upgrade_failed", "{phase}: {line}");
    assert_eq!(out.status.code(), Some(1), "{phase}");
    assert!(
        server.wait_exit(Duration::from_secs(10)),
        "{phase}: the faulty process ended"
    );
    let log = std::fs::read_to_string(server.dir.path().join("server.log")).unwrap_or_default();
    assert!(
        log.contains(&format!("PHUX_FAULT_AT={phase}: killing")),
        "{phase}: {log}"
    );

    // Every pane runs on, served again: the same programs, screens and state.
    let out = server.run(&["ls"]);
    assert!(out.status.success(), "{phase}: {}", stderr(&out));
    assert_eq!(
        kept_programs(&server.socket),
        pids,
        "{phase}: the same programs"
    );
    let after = server.json(&["snapshot", "--json", "--scrollback", &bash]);
    assert_eq!(after, before, "{phase}: the shell's screen and history");
    server.send_keys(&bash, &["echo state=$STATE", "Enter"]);
    server.wait_for_text(&bash, "state=kept-42");
    std::fs::write(&stop, "").unwrap();
    server.wait_for_text(&ticks, "done-");
    let (numbers, last) = phux_tests::ticks(&server.all_lines(&ticks));
    assert_eq!(
        numbers,
        (1..=last).collect::<Vec<_>>(),
        "{phase}: every tick once, in order"
    );
    wait_until(
        "no hand-off manifest is left",
        Duration::from_secs(5),
        || !server.socket.with_extension("sock.handoff").exists(),
    );
}

#[test]
fn killed_after_the_early_snapshots() {
    fault_at("old:snapshots");
}

#[test]
fn killed_after_writing_the_state_file() {
    fault_at("old:state file");
}

#[test]
fn killed_after_writing_the_manifest() {
    fault_at("old:manifest");
}

#[test]
fn killed_right_before_the_exec() {
    fault_at("old:descriptors");
}

#[test]
fn the_new_process_killed_after_reading_the_manifest() {
    fault_at("new:manifest read");
}

#[test]
fn the_new_process_killed_after_taking_the_descriptors() {
    fault_at("new:descriptors");
}

#[test]
fn the_new_process_killed_after_rebuilding_the_server_s_state() {
    fault_at("new:server state");
}

#[test]
fn the_new_process_killed_after_restoring_the_terminals() {
    fault_at("new:terminals restored (waited for)");
}

#[test]
fn the_new_process_killed_after_starting_the_panes() {
    fault_at("new:panes started");
}

#[test]
fn the_new_process_killed_with_the_tree_rebuilt() {
    fault_at("new:tree and exited panes");
}
