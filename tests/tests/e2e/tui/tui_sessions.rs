//! How a client comes and goes: `phux` alone, `phux new` on a terminal, the window-size
//! policies, and a recording client ended by a signal.

#![allow(clippy::unwrap_used)] // tests fail loudly by design

use std::time::Duration;

use phux_tests::outer_screen::AttachedTui;
use phux_tests::TestServer;

const EXIT_WAIT: Duration = Duration::from_secs(10);

fn pane_size(server: &TestServer, pane: &str) -> (Option<u64>, Option<u64>) {
    let screen = server.json(&["snapshot", "--json", pane]);
    (screen["cols"].as_u64(), screen["rows"].as_u64())
}

#[test]
fn phux_alone_creates_default_and_attaches_to_it() {
    let server = TestServer::start();
    let tui = AttachedTui::start(&server, &[], 80, 24);
    tui.wait_for_text("[default] 0:0*");
    let listing = server.json(&["ls", "--json"]);
    assert_eq!(listing["sessions"][0]["name"], "default");
    assert_eq!(listing["sessions"][0]["attached_clients"], 1, "{listing}");
}

#[test]
fn phux_alone_attaches_to_the_most_recently_active_session() {
    let server = TestServer::start();
    server.new_session("first", &[]);
    let second = server.new_session("second", &[]);
    server.send_keys(&second, &["true", "Enter"]);
    let tui = AttachedTui::start(&server, &[], 80, 24);
    tui.wait_for_text("[second] 0:0*");
}

#[test]
fn new_on_a_terminal_attaches_and_new_d_does_not() {
    let server = TestServer::start();
    let mut detached = AttachedTui::start(&server, &["new", "-d", "-s", "quiet"], 80, 24);
    assert_eq!(detached.wait_exit(EXIT_WAIT), Some(0));
    let tui = AttachedTui::start(&server, &["new", "-s", "loud"], 80, 24);
    tui.wait_for_text("[loud] 0:0*");
    let listing = server.json(&["ls", "--json"]);
    let names: Vec<_> = listing["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(names, ["loud", "quiet"], "{listing}");
}

#[test]
fn under_manual_attaching_never_resizes_a_pane() {
    let server = TestServer::start_with(&["--window-size", "manual"]);
    let pane = server.new_session("work", &[]);
    let tui = AttachedTui::start(&server, &["attach", "work"], 100, 30);
    tui.wait_for_text("[work]");
    tui.resize(120, 40);
    tui.wait_for("the status line on the new last row", |lines| {
        lines.len() == 40 && lines[39].starts_with("[work]")
    });
    assert_eq!(pane_size(&server, &pane), (Some(80), Some(24)));
}

#[test]
fn under_largest_the_larger_client_decides() {
    let server = TestServer::start_with(&["--window-size", "largest"]);
    let pane = server.new_session("work", &[]);
    let big = AttachedTui::start(&server, &["attach", "work"], 100, 30);
    big.wait_for_text("[work]");
    let small = AttachedTui::start(&server, &["attach", "work"], 80, 20);
    small.wait_for_text("[work]");
    phux_tests::wait_until("the pane has the larger size", EXIT_WAIT, || {
        pane_size(&server, &pane) == (Some(100), Some(28))
    });
}

#[test]
fn sigterm_ends_a_recording_client_cleanly_with_a_valid_cast() {
    let server = TestServer::start();
    server.new_session("work", &[]);
    let cast = server.dir.path().join("term.cast");
    let cast_arg = cast.display().to_string();
    let mut tui = AttachedTui::start(&server, &["attach", "--rec", &cast_arg, "work"], 80, 24);
    tui.wait_for_text("[work]");
    rustix::process::kill_process(
        rustix::process::Pid::from_raw(tui.pid() as i32).unwrap(),
        rustix::process::Signal::TERM,
    )
    .unwrap();
    assert_eq!(tui.wait_exit(EXIT_WAIT), Some(0));
    let recording = phux_recorder::read_cast(&cast).expect("a valid cast");
    assert!(!recording.events.is_empty());
    assert_eq!(
        server.json(&["ls", "--json"])["sessions"][0]["name"],
        "work"
    );
}

#[test]
fn the_client_ends_with_0_when_its_session_ends() {
    let server = TestServer::start();
    server.new_session("keep", &[]);
    server.new_session("work", &[]);
    let mut tui = AttachedTui::start(&server, &["attach", "work"], 80, 24);
    tui.wait_for_text("[work]");
    tui.type_bytes(b"exit\r");
    assert_eq!(tui.wait_exit(EXIT_WAIT), Some(0));
    std::thread::sleep(Duration::from_millis(100));
    let text = String::from_utf8_lossy(&tui.written()).into_owned();
    assert!(text.contains("[exited]"), "{text:?}");
}

/// Attaching shows every pane of the window without making any of them the one `.` names.
#[test]
fn attaching_leaves_the_focused_pane_agents_see_alone() {
    let server = TestServer::start();
    let first = server.new_session("work", &[]);
    let spawned = server.json(&["spawn", "--json", "--target", &first]);
    assert_eq!(spawned["terminal_id"], 2, "{spawned}");
    server.send_keys(&first, &["true", "Enter"]);
    let tui = AttachedTui::start(&server, &["attach", "work"], 80, 24);
    tui.wait_for_text("─ @2");
    std::thread::sleep(Duration::from_millis(300));
    let focused = server.json(&["snapshot", "--json", "."]);
    assert_eq!(focused["pane"], 1, "{focused}");
}
