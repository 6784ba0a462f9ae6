//! Going elsewhere from an attached client, as a person types it: the window and session
//! pickers, a new session, the next pane that asks, killing a window, cycling panes, the
//! letter resize keys, and `phux attach` refusing to nest inside a pane.

#![allow(clippy::unwrap_used)] // tests fail loudly by design

use std::time::Duration;

use phux_tests::outer_screen::AttachedTui;
use phux_tests::{wait_until, TestServer};

fn attached(server: &TestServer) -> AttachedTui {
    server.new_session("work", &[]);
    let tui = AttachedTui::start(server, &["attach", "work"], 100, 30);
    tui.wait_for_text("[work] 0:0*");
    tui
}

fn status(lines: &[String]) -> &str {
    lines.last().map_or("", String::as_str)
}

fn attached_clients(server: &TestServer, session: &str) -> u64 {
    let doc = server.json(&["ls", "--json"]);
    doc["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == session)
        .and_then(|s| s["attached_clients"].as_u64())
        .unwrap_or(0)
}

#[test]
fn the_window_picker_filters_previews_and_switches_across_sessions() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.prefix(b"c");
    tui.wait_for("a second window", |l| status(l).contains("1:1*"));
    let other = server.new_session("other", &[]);
    server.send_keys(&other, &["echo only-in-other-$((6*7))", "Enter"]);
    server.wait_for_text(&other, "only-in-other-42");
    tui.prefix(b"w");
    tui.wait_for_text("windows (3 of 3");
    assert!(tui.shows("> work:1 1"), "the current window is selected");
    assert!(tui.shows("work:0 0") && tui.shows("other:0 0"));
    tui.type_bytes(b"oth");
    tui.wait_for_text("windows (1 of 3");
    // The preview shows the selected window's screen, which this client never drew.
    tui.wait_for("the preview of other's pane", |l| {
        l.iter().any(|s| s.trim() == "only-in-other-42")
    });
    tui.type_bytes(b"\r");
    tui.wait_for("the client on other", |l| {
        status(l).starts_with("[other] 0:0*")
    });
    tui.wait_for_text("only-in-other-42");
    wait_until(
        "the server moved the client",
        Duration::from_secs(10),
        || attached_clients(&server, "other") == 1 && attached_clients(&server, "work") == 0,
    );
}

#[test]
fn the_session_picker_closes_on_esc_and_switches_on_enter() {
    let server = TestServer::start();
    server.new_session("alpha", &[]);
    let tui = attached(&server);
    tui.prefix(b"s");
    tui.wait_for_text("sessions (2 of 2");
    assert!(tui.shows("> work  1 window  (1 attached)"));
    tui.type_bytes(b"\x1b");
    tui.wait_for("the picker closed", |l| {
        !l.iter().any(|s| s.contains("sessions ("))
    });
    assert!(status(&tui.lines()).starts_with("[work]"));
    tui.prefix(b"s");
    tui.wait_for_text("sessions (2 of 2");
    tui.type_bytes(b"\x1b[A");
    tui.wait_for_text("> alpha");
    tui.type_bytes(b"\r");
    tui.wait_for("the client on alpha", |l| status(l).starts_with("[alpha]"));
    // The prefix works as before in the session switched to.
    tui.prefix(b"%");
    tui.wait_for("a split in alpha", |l| l.iter().any(|s| s.contains('│')));
    // The preview draws the selected session's window with its split.
    tui.prefix(b"s");
    tui.type_bytes(b"work");
    tui.wait_for("work's one-pane preview", |l| {
        l.iter().any(|s| s.contains("preview: work")) && !l.iter().any(|s| s.contains('│'))
    });
    tui.type_bytes(b"\x7f\x7f\x7f\x7falpha");
    tui.wait_for("alpha's split preview", |l| {
        l.iter().any(|s| s.contains("preview: alpha")) && l.iter().any(|s| s.contains('│'))
    });
    tui.type_bytes(b"\x1b");
    let listed = server.json(&["ls", "--json"]);
    assert!(
        listed["terminals"].as_array().unwrap().len() == 3,
        "the split made a third pane: {listed}"
    );
    assert_eq!(attached_clients(&server, "alpha"), 1);
}

#[test]
fn capital_c_creates_a_session_and_shows_it() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.prefix(b"C");
    tui.wait_for("another session shown", |l| {
        !status(l).starts_with("[work]") && status(l).starts_with('[')
    });
    let doc = server.json(&["ls", "--json"]);
    let sessions = doc["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 2, "{doc}");
    let shown = status(&tui.lines()).to_string();
    let new_name = sessions
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .find(|n| *n != "work")
        .unwrap();
    assert!(shown.starts_with(&format!("[{new_name}]")), "{shown}");
}

#[test]
fn q_jumps_to_the_pane_that_asks() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.prefix(b"q");
    tui.wait_for_text("no pane is asking");
    let asker = server.new_session(
        "asker",
        &[
            "sh",
            "-c",
            "printf '\\033]0;phux-ask[go]:Deploy now??\\007'; echo waiting-for-you; sleep 60",
        ],
    );
    wait_until("the ask shows", Duration::from_secs(10), || {
        server.json(&["agent", "show", "--json", &asker])["agents"][0]["state"] == "blocked"
    });
    // The status line marks the ask, though the pane is in another session.
    tui.wait_for("the attention mark", |l| {
        status(l).contains(&format!("ASK {asker}"))
    });
    // The session picker marks it too.
    tui.prefix(b"s");
    tui.wait_for_text("asker  1 window  ASK");
    tui.type_bytes(b"\x1b");
    tui.wait_for("the picker closed", |l| {
        !l.iter().any(|s| s.contains("sessions ("))
    });
    tui.prefix(b"q");
    tui.wait_for("the asking pane shown", |l| {
        status(l).starts_with("[asker]") && l.iter().any(|s| s.contains("waiting-for-you"))
    });
    tui.wait_for_text(&format!("{asker} asks: Deploy now"));
}

#[test]
fn capital_x_asks_before_killing_the_window() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.prefix(b"c");
    tui.wait_for("a second window", |l| status(l).contains("1:1*"));
    tui.prefix(b"X");
    tui.wait_for_text("kill window 1? (y/n)");
    tui.type_bytes(b"n");
    tui.wait_for("the question gone", |l| {
        !l.iter().any(|s| s.contains("kill window"))
    });
    assert!(status(&tui.lines()).contains("1:1*"));
    tui.prefix(b"X");
    tui.wait_for_text("kill window 1? (y/n)");
    tui.type_bytes(b"y");
    // " 1:1" with its space: the clock at 21:1x (or 11:1x) contains "1:1".
    tui.wait_for("only window 0 left", |l| {
        status(l).contains("0:0*") && !status(l).contains(" 1:1")
    });
}

#[test]
fn o_semicolon_and_equals_cycle_and_toggle_the_focus() {
    let server = TestServer::start();
    let tui = attached(&server);
    let focused = |pane: &'static str| move |l: &[String]| status(l).contains(pane);
    tui.prefix(b"%");
    tui.wait_for("@2 focused", focused("\"@2\""));
    tui.prefix(b"\"");
    tui.wait_for("@3 focused", focused("\"@3\""));
    tui.prefix(b"o");
    tui.wait_for("o wraps to @1", focused("\"@1\""));
    tui.prefix(b";");
    tui.wait_for("; goes back to @3", focused("\"@3\""));
    tui.prefix(b";");
    tui.wait_for("; again to @2", focused("\"@2\""));
    tui.prefix(b"=");
    tui.wait_for("= toggles to @3", focused("\"@3\""));
    tui.prefix(b"=");
    tui.wait_for("= toggles back to @2", focused("\"@2\""));
}

#[test]
fn capital_h_and_l_move_the_divider_by_5() {
    let server = TestServer::start();
    let tui = attached(&server);
    let divider = |l: &[String]| l.get(5).and_then(|s| s.chars().position(|c| c == '│'));
    tui.prefix(b"%");
    tui.wait_for("the split", |l| divider(l).is_some());
    let middle = divider(&tui.lines()).unwrap();
    tui.prefix(b"H");
    tui.wait_for("the divider 5 cells left", |l| {
        divider(l) == Some(middle - 5)
    });
    tui.prefix(b"L");
    tui.prefix(b"L");
    tui.wait_for("the divider 10 cells right", |l| {
        divider(l) == Some(middle + 5)
    });
}

#[test]
fn attach_inside_a_pane_refuses_unless_forced() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.type_bytes(b"echo \"nested=${PHUX:+set}\"\r");
    tui.wait_for_text("nested=set");
    let phux = phux_tests::phux_bin().display().to_string();
    tui.type_bytes(format!("{phux} attach work; echo rc=$?\r").as_bytes());
    tui.wait_for_text("rc=2");
    assert!(tui.shows("would nest phux in itself"), "{}", tui.screen());
    assert!(tui.shows("--force"), "{}", tui.screen());
}

#[test]
fn a_client_that_switched_stays_when_its_first_session_ends() {
    let server = TestServer::start();
    server.new_session("second", &[]);
    let mut tui = attached(&server);
    tui.prefix(b"s");
    tui.wait_for_text("sessions (2 of 2");
    tui.type_bytes(b"sec\r");
    tui.wait_for("the client on second", |l| {
        status(l).starts_with("[second]")
    });
    let output = server.run(&["kill", "work"]);
    assert!(output.status.success(), "{}", phux_tests::stderr(&output));
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        tui.wait_exit(Duration::from_millis(10)),
        None,
        "the client left"
    );
    // It still follows its session's changes, made by someone else.
    let output = server.run(&["rename", "second", "renamed"]);
    assert!(output.status.success(), "{}", phux_tests::stderr(&output));
    tui.wait_for("the rename seen", |l| status(l).starts_with("[renamed]"));
}

#[test]
fn a_window_with_output_since_it_was_shown_is_marked_until_selected() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.prefix(b"c");
    tui.wait_for("a second window", |l| status(l).contains("0:0- 1:1*"));
    tui.type_bytes(b"echo in-window-one\r");
    tui.wait_for_text("in-window-one");
    // Back to window 0; window 1's pane prints after a moment, unseen.
    tui.prefix(b"0");
    tui.wait_for("window 0 shown, no mark yet", |l| {
        status(l).contains("0:0* 1:1- ")
    });
    std::thread::sleep(Duration::from_millis(600));
    assert!(
        status(&tui.lines()).contains("0:0* 1:1- "),
        "{}",
        tui.screen()
    );
    let ok = server.run(&["send-keys", "@2", "echo unseen-output", "Enter"]);
    assert!(ok.status.success(), "{ok:?}");
    tui.wait_for("window 1 marked with #", |l| status(l).contains("1:1-#"));
    // Output in the window on screen marks nothing.
    tui.type_bytes(b"echo seen-output\r");
    tui.wait_for_text("seen-output");
    std::thread::sleep(Duration::from_millis(400));
    assert!(status(&tui.lines()).contains("0:0* "), "{}", tui.screen());
    // Selecting window 1 clears its mark, and it stays cleared once left again.
    tui.prefix(b"1");
    tui.wait_for("window 1 shown, unmarked", |l| {
        status(l).contains("0:0- 1:1* ")
    });
    tui.prefix(b"0");
    tui.wait_for("window 1 last, unmarked", |l| {
        status(l).contains("0:0* 1:1- ")
    });
}

#[test]
fn the_picker_preview_keeps_the_panes_colours() {
    let server = TestServer::start();
    let tui = attached(&server);
    let other = server.new_session("other", &[]);
    server.send_keys(
        &other,
        &["printf '\\033[1;31m%s\\033[0m\\n' red-in-$((6*7))", "Enter"],
    );
    server.wait_for_text(&other, "red-in-42");
    tui.prefix(b"s");
    tui.wait_for_text("sessions (2 of 2");
    tui.type_bytes(b"oth");
    tui.wait_for_text("red-in-42");
    // The cell keeps its colour and weight in the preview, not just its text.
    let cell = tui.cell_of_text("red-in-42").unwrap();
    assert_eq!(cell.style.fg, phux_core::engine::CellColor::Palette(1));
    assert!(cell.style.bold, "{cell:?}");
    tui.type_bytes(b"\x1b");
    tui.wait_for("the picker closed", |l| {
        !l.iter().any(|s| s.contains("sessions ("))
    });
}
