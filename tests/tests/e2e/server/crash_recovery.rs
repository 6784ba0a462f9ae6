//! Panes outlive their server: a server killed with SIGKILL (as a crash, a panic's abort or
//! the OOM killer would end it) loses no pane. The next command starts a server that takes
//! every pane over from its keeper: the same programs and PIDs, the same screens and
//! histories, the layout, titles, tags and agent records; output written while no server ran
//! is all there, once, in order; a program that ended meanwhile is reported with its status.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::collections::BTreeMap;
use std::time::Duration;

use phux_tests::{kept_programs, stderr, wait_until, TestServer};

/// Each pane's program PID, as its keeper holds it.
fn programs(server: &TestServer) -> BTreeMap<String, u32> {
    kept_programs(&server.socket)
}

/// The pane's screen and history as `snapshot --json --scrollback` gives them.
fn screen(server: &TestServer, pane: &str) -> serde_json::Value {
    server.json(&["snapshot", "--json", "--scrollback", pane])
}

/// The sessions, windows, layouts, titles and tags, but for session `ending` and its pane
/// `ended` (whose program ends while no server runs).
fn state(server: &TestServer, ending: &str, ended: &str) -> serde_json::Value {
    let state = phux_cli::client::Client::connect(&server.socket)
        .unwrap()
        .state()
        .unwrap();
    let mut state = serde_json::to_value(state).unwrap();
    let object = state.as_object_mut().unwrap();
    // Which panes ended, and when, is not part of the picture.
    object.remove("exited");
    let id: u64 = ended.trim_start_matches('@').parse().unwrap();
    object["sessions"]
        .as_array_mut()
        .unwrap()
        .retain(|s| s["name"] != ending);
    object["focus_order"]
        .as_array_mut()
        .unwrap()
        .retain(|p| p.as_u64() != Some(id));
    state
}

#[test]
fn a_killed_server_loses_no_pane() {
    let mut server = TestServer::start();
    let bash = server.marked_bash("work");
    server.send_keys(
        &bash,
        &[
            "SECRET=kept-$((6*7)); for i in $(seq 1 300); do echo history $i; done",
            "Enter",
        ],
    );
    server.wait_for_text(&bash, "history 300");
    let spawned = server.json(&["spawn", "--json", "--target", &bash, "--", "sh"]);
    let sh = format!("@{}", spawned["terminal_id"]);
    server.send_keys(
        &sh,
        &["printf '\\033]2;a title\\007'; echo in the split", "Enter"],
    );
    server.wait_for_text(&sh, "in the split");
    let out = server.run(&["tag", "add", &sh, "keep"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = server.run(&[
        "agent", "set", &sh, "--name", "reviewer", "--kind", "claude",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let file = server.dir.path().join("unsaved.txt").display().to_string();
    let vim = server.new_session("edit", &["vim", "-u", "NONE", "-N", "-n", &file]);
    server.send_keys(&vim, &["itext nobody saved", "Escape"]);
    wait_until("vim left insert mode", Duration::from_secs(10), || {
        let lines = server.lines(&vim);
        lines.iter().any(|l| l.contains("text nobody saved"))
            && !lines.iter().any(|l| l.contains("INSERT"))
    });
    let top = server.new_session("top", &["top", "-d", "0.5"]);
    server.wait_for_text(&top, "load average");
    let stop = server.dir.path().join("stop");
    let ticks = server.ticker("ticks", &stop);
    server.wait_for_text(&ticks, "tick-20");
    let ending = server.new_session(
        "ending",
        &["sh", "-c", "echo started; sleep 1; echo goodbye; exit 7"],
    );
    server.wait_for_text(&ending, "started");
    let still = [bash.as_str(), sh.as_str(), vim.as_str()];
    let before: Vec<_> = still.iter().map(|p| screen(&server, p)).collect();
    let layout = state(&server, "ending", &ending);
    let pids = programs(&server);
    assert_eq!(pids.len(), 6, "a keeper per pane: {pids:?}");

    server.crash();
    // The ticking goes on and the ending pane's program ends while no server runs.
    std::thread::sleep(Duration::from_millis(1500));

    // Any command brings the panes back.
    let out = server.run(&["ls"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let after: Vec<_> = still.iter().map(|p| screen(&server, p)).collect();
    for ((pane, before), after) in still.iter().zip(&before).zip(&after) {
        assert_eq!(after, before, "{pane}'s screen and history");
    }
    assert_eq!(
        state(&server, "ending", &ending),
        layout,
        "sessions, layout, titles and tags"
    );
    let now = programs(&server);
    for (pane, pid) in &pids {
        if pane != &ending {
            assert_eq!(now.get(pane), Some(pid), "{pane} runs the same program");
        }
    }
    let agent = server.json(&["agent", "show", "--json", &sh]);
    assert_eq!(agent["agents"][0]["agent"]["id"], "reviewer", "{agent}");
    // The ending pane's program ended meanwhile: its status is reported, its last words kept.
    wait_until(
        "the ending pane is reported",
        Duration::from_secs(10),
        || {
            let out = server.run(&["ls", "--json"]);
            !String::from_utf8_lossy(&out.stdout).contains(&format!("\"{ending}\""))
        },
    );
    let exited = phux_cli::client::Client::connect(&server.socket)
        .unwrap()
        .state()
        .unwrap();
    let ended = serde_json::to_value(exited).unwrap()["exited"].clone();
    assert!(
        ended.to_string().contains("\"exit_code\":7"),
        "the ending pane's status: {ended}"
    );
    // The shell kept its variables, vim its buffer, top runs on.
    server.send_keys(&bash, &["echo secret=$SECRET", "Enter"]);
    server.wait_for_text(&bash, "secret=kept-42");
    server.send_keys(&vim, &["o", "and more", "Escape"]);
    server.wait_for_text(&vim, "and more");
    server.wait_for_text(&top, "load average");
    // Every tick once, in order, across the crash.
    std::fs::write(&stop, "").unwrap();
    server.wait_for_text(&ticks, "done-");
    let (numbers, last) = phux_tests::ticks(&server.all_lines(&ticks));
    assert_eq!(
        numbers,
        (1..=last).collect::<Vec<_>>(),
        "every tick once, in order"
    );
}

#[test]
fn a_stop_on_purpose_leaves_no_keeper() {
    let server = TestServer::start();
    server.new_session("work", &["sh"]);
    wait_until("the pane's keeper runs it", Duration::from_secs(10), || {
        programs(&server).len() == 1
    });
    let out = server.run(&["kill", "--server"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let keepers = phux_core::socket_path::keepers_dir(&server.socket);
    wait_until(
        "the programs and their keepers are gone",
        Duration::from_secs(10),
        || {
            programs(&server).is_empty()
                && std::fs::read_dir(&keepers).map_or(0, Iterator::count) == 0
        },
    );
}

#[test]
fn agent_records_asks_and_leases_survive_a_crash() {
    let mut server = TestServer::start();
    let pane = server.marked_bash("agents");
    let set = server.run(&[
        "agent", "set", &pane, "--name", "reviewer", "--kind", "claude", "--state", "working",
    ]);
    assert!(set.status.success(), "{}", stderr(&set));
    let asked = server.run(&["ask", &pane, "Ship it?", "--suggest", "yes"]);
    assert!(asked.status.success(), "{}", stderr(&asked));
    let took = server.run(&["take", &pane, "--as", "alice"]);
    assert!(took.status.success(), "{}", stderr(&took));
    let before = server.json(&["agent", "show", "--json", &pane]);
    let listed_before = server.json(&["ls", "--json"]);
    let status_before = server.json(&["status", "--json"]);

    server.crash();

    let after = server.json(&["agent", "show", "--json", &pane]);
    let agent = |doc: &serde_json::Value| doc["agents"][0]["agent"].clone();
    assert_eq!(agent(&after), agent(&before), "the agent record: {after}");
    assert_eq!(after["agents"][0]["state"], before["agents"][0]["state"]);
    let status_after = server.json(&["status", "--json"]);
    assert!(
        status_before["asks"].to_string().contains("Ship it?"),
        "{status_before}"
    );
    assert_eq!(status_after["asks"], status_before["asks"], "the open ask");
    let listed_after = server.json(&["ls", "--json"]);
    assert_eq!(
        listed_after["leases"], listed_before["leases"],
        "the lease: {listed_after}"
    );
    let refused = server.run(&["send-keys", &pane, "echo nope", "Enter"]);
    assert!(!refused.status.success(), "the lease still holds");
}

#[test]
fn an_attached_client_comes_back_after_a_crash() {
    let mut server = TestServer::start();
    server.new_session("work", &[]);
    let tui = phux_tests::outer_screen::AttachedTui::start(&server, &["attach", "work"], 80, 24);
    tui.wait_for("the status line names the session", |lines| {
        lines.last().is_some_and(|l| l.starts_with("[work] 0:0*"))
    });
    tui.type_bytes(b"X=$((6*7)); echo before-$X\r");
    tui.wait_for_text("before-42");
    server.crash();
    // The client finds the panes waiting, starts a server that takes them over, and
    // attaches again: the same shell, with its variable.
    wait_until(
        "the client is attached again",
        Duration::from_secs(10),
        || server.json(&["ls", "--json"])["sessions"][0]["attached_clients"] == 1,
    );
    tui.type_bytes(b"echo after-$X\r");
    tui.wait_for_text("after-42");
}

#[test]
fn an_ended_pane_stays_readable_across_a_crash() {
    let mut server = TestServer::start();
    server.new_session("live", &["sh"]);
    let ended = server.new_session("ended", &["sh", "-c", "echo last words; exit 3"]);
    let exited = |server: &TestServer| server.json(&["ls", "--json"])["exited"].clone();
    wait_until("the pane ended", Duration::from_secs(10), || {
        exited(&server).to_string().contains("\"exit_code\":3")
    });
    let before = screen(&server, &ended);
    let listed = exited(&server);

    server.crash();

    assert_eq!(
        exited(&server),
        listed,
        "still listed as ended, with its status"
    );
    assert_eq!(screen(&server, &ended), before, "its last screen");
    // It goes when it is no longer kept, and its keeper with it.
    let out = server.run(&["kill", "--server"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let keepers = phux_core::socket_path::keepers_dir(&server.socket);
    wait_until("every keeper ended", Duration::from_secs(10), || {
        std::fs::read_dir(&keepers).map_or(0, Iterator::count) == 0
    });
}

#[test]
fn a_watch_goes_on_with_the_server_that_took_the_panes_over() {
    let mut server = TestServer::start();
    server.new_session("first", &["sh"]);
    let watch = server.spawn_connected(
        &[
            "watch",
            "--json",
            "--until",
            "pane_spawned",
            "--timeout",
            "30",
        ],
        1,
    );
    server.crash();
    wait_until(
        "the watch subscribed again",
        Duration::from_secs(10),
        || server.clients() > 1,
    );
    server.new_session("second", &["sh"]);
    let out = watch.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.contains("\"pane_spawned\""), "{printed}");
}
