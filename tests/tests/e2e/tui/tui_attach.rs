//! `phux attach` end to end: the client runs in a real PTY and what it writes is read through an
//! engine terminal standing for the person's; every assertion is on that screen.

#![allow(clippy::unwrap_used)] // tests fail loudly by design

use std::time::Duration;

use phux_tests::outer_screen::AttachedTui;
use phux_tests::TestServer;

const EXIT_WAIT: Duration = Duration::from_secs(10);

fn status_row(tui: &AttachedTui) -> String {
    tui.lines().last().cloned().unwrap_or_default()
}

/// A server with one session `work` running sh, and a client attached to it at 80x24.
fn attached(server: &TestServer) -> AttachedTui {
    server.new_session("work", &[]);
    let tui = AttachedTui::start(server, &["attach", "work"], 80, 24);
    tui.wait_for("the status line names the session", |lines| {
        lines.last().is_some_and(|l| l.starts_with("[work] 0:0*"))
    });
    tui
}

#[test]
fn attach_draws_the_pane_and_a_status_line_and_ls_counts_the_client() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.wait_for_text("─ @1");
    tui.type_bytes(b"echo hi-$((6*7))\r");
    tui.wait_for_text("hi-42");
    assert!(status_row(&tui).contains("\"@1\""), "{}", tui.screen());
    let listing = server.json(&["ls", "--json"]);
    assert_eq!(listing["sessions"][0]["attached_clients"], 1, "{listing}");
    assert_eq!(listing["sessions"][0]["attached"], true, "{listing}");
    // `status` said `clients: 8` (its connections) beside `1 attached`: the counts say what
    // they count.
    let status = phux_tests::stdout(&server.run(&["status"]));
    assert!(
        status.contains("work: 1 window, 1 attached client"),
        "{status}"
    );
    assert!(
        status.contains("1 attached client, 1 session, "),
        "{status}"
    );
    assert!(!status.contains("clients:"), "{status}");
}

#[test]
fn prefix_d_detaches_with_0_and_the_session_keeps_running() {
    let server = TestServer::start();
    let mut tui = attached(&server);
    tui.prefix(b"d");
    assert_eq!(tui.wait_exit(EXIT_WAIT), Some(0), "{}", tui.screen());
    phux_tests::wait_until("the server forgot the client", EXIT_WAIT, || {
        let listing = server.json(&["ls", "--json"]);
        listing["sessions"][0]["name"] == "work" && listing["sessions"][0]["attached_clients"] == 0
    });
}

#[test]
fn phux_detach_ends_every_client_of_the_session() {
    let server = TestServer::start();
    let mut tui = attached(&server);
    let output = server.run(&["detach", "work"]);
    assert!(output.status.success(), "{}", phux_tests::stderr(&output));
    assert_eq!(tui.wait_exit(EXIT_WAIT), Some(0));
    assert_eq!(
        server.json(&["ls", "--json"])["sessions"][0]["name"],
        "work"
    );
}

#[test]
fn a_split_shows_a_divider_both_panes_and_zoom_shows_one() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.type_bytes(b"echo left-side\r");
    tui.wait_for_text("left-side");
    tui.prefix(b"%");
    tui.wait_for_text("─ @2");
    tui.type_bytes(b"echo right-side\r");
    // The command's output line, not only its echo.
    let output_line = |l: &String| l.contains("right-side") && !l.contains("echo");
    tui.wait_for("both panes' text and the divider", |lines| {
        lines.iter().any(output_line)
            && lines.iter().any(|l| l.contains("left-side"))
            && lines.iter().filter(|l| l.contains('│')).count() >= 20
    });
    // The right pane's text starts past the divider.
    let row = tui
        .lines()
        .into_iter()
        .find(output_line)
        .unwrap_or_default();
    assert!(row.find("right-side").unwrap_or(0) > 40, "{row:?}");
    tui.prefix(b"z");
    tui.wait_for("the zoomed pane alone", |lines| {
        !lines.iter().any(|l| l.contains('│')) && !lines.iter().any(|l| l.contains("left-side"))
    });
    tui.prefix(b"z");
    tui.wait_for_text("left-side");
}

#[test]
fn new_window_and_switching_windows_change_the_screen_and_the_status_line() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.type_bytes(b"echo in-window-zero\r");
    tui.wait_for_text("in-window-zero");
    tui.prefix(b"c");
    tui.wait_for("window 1 active", |lines| {
        lines.last().is_some_and(|l| l.contains("0:0- 1:1*"))
    });
    tui.type_bytes(b"echo in-window-one\r");
    tui.wait_for_text("in-window-one");
    assert!(!tui.screen().contains("in-window-zero"));
    tui.prefix(b"0");
    tui.wait_for("window 0 again", |lines| {
        lines.last().is_some_and(|l| l.contains("0:0* 1:1-"))
            && lines.iter().any(|l| l.contains("in-window-zero"))
    });
    tui.prefix(b"n");
    tui.wait_for_text("in-window-one");
}

#[test]
fn copy_mode_scrolls_back_to_a_line_only_in_history() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.type_bytes(b"i=0; while [ $i -lt 100 ]; do i=$((i+1)); echo hist-$i-end; done\r");
    tui.wait_for_text("hist-100-end");
    assert!(!tui.screen().contains("hist-3-end"));
    tui.prefix(b"[");
    tui.type_bytes(b"?hist-3-end\r");
    tui.wait_for_text("hist-3-end");
    tui.type_bytes(b"q");
    tui.wait_for("copy mode left", |lines| {
        !lines.iter().any(|l| l.contains("hist-3-end"))
    });
}

#[test]
fn the_help_overlay_lists_the_bindings() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.prefix(b"?");
    tui.wait_for_text("split: new pane to the right");
    tui.type_bytes(b"detach");
    tui.wait_for("only the matching binding listed", |lines| {
        lines.iter().any(|l| l.contains("C-a d       detach"))
            && !lines.iter().any(|l| l.contains("new pane to the right"))
    });
    tui.type_bytes(b"\x1b");
    tui.wait_for("the overlay closed", |lines| {
        !lines
            .iter()
            .any(|l| l.contains("split: new pane to the right"))
    });
}

#[test]
fn an_outer_resize_lays_the_window_out_again() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.resize(100, 30);
    tui.wait_for("the status line on the new last row", |lines| {
        lines.len() == 30 && lines[29].starts_with("[work]")
    });
    phux_tests::wait_until("the pane took the new size", EXIT_WAIT, || {
        let screen = server.json(&["snapshot", "--json", "@1"]);
        (screen["cols"].as_u64(), screen["rows"].as_u64()) == (Some(100), Some(28))
    });
}

#[test]
fn under_smallest_a_larger_client_letterboxes() {
    let server = TestServer::start();
    server.new_session("work", &[]);
    let big = AttachedTui::start(&server, &["attach", "work"], 100, 30);
    big.wait_for_text("[work]");
    let small = AttachedTui::start(&server, &["attach", "work"], 80, 20);
    small.wait_for_text("[work]");
    big.wait_for(
        "the letterbox right of column 80 and below row 19",
        |lines| {
            lines.len() == 30
                && lines[5].chars().nth(85) == Some('·')
                && lines[25].trim_start().starts_with('·')
                && lines[5].chars().nth(40) != Some('·')
        },
    );
    let screen = server.json(&["snapshot", "--json", "@1"]);
    assert_eq!(
        (screen["cols"].as_u64(), screen["rows"].as_u64()),
        (Some(80), Some(18))
    );
    drop(small);
    big.wait_for("the letterbox gone once the small client left", |lines| {
        !lines.iter().any(|l| l.contains('·'))
    });
}

#[test]
fn attach_without_a_terminal_fails_with_2_and_points_to_snapshot() {
    let server = TestServer::start();
    server.new_session("work", &[]);
    let output = server.run(&["attach", "work"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(phux_tests::stderr(&output).contains("phux snapshot"));
}

#[test]
fn attach_to_an_unknown_session_fails_with_1_and_says_how_to_create_it() {
    let server = TestServer::start();
    server.new_session("work", &[]);
    let mut tui = AttachedTui::start(&server, &["attach", "nope"], 80, 24);
    assert_eq!(tui.wait_exit(EXIT_WAIT), Some(1));
    // What the client wrote last may still be on its way through the outer PTY.
    phux_tests::wait_until(
        "the client said how to create the session",
        Duration::from_secs(10),
        || String::from_utf8_lossy(&tui.written()).contains("phux new -s nope"),
    );
}

/// What the outer terminal showed last before the client left its alternate screen.
fn last_drawn_screen(written: &[u8], cols: u16, rows: u16) -> Vec<String> {
    const LEAVE: &[u8] = b"\x1b[?2026l\x1b[0m\x1b[?1l";
    let end = written
        .windows(LEAVE.len())
        .rposition(|w| w == LEAVE)
        .unwrap_or(written.len());
    let mut terminal = phux_core::engine::Terminal::new(cols, rows, 10).unwrap();
    terminal.write(&written[..end]);
    terminal.viewport_lines()
}

#[test]
fn attach_rec_records_the_screen_the_client_drew() {
    let server = TestServer::start();
    server.new_session("work", &[]);
    let cast = server.dir.path().join("client.cast");
    let cast_arg = cast.display().to_string();
    let mut tui = AttachedTui::start(&server, &["attach", "--rec", &cast_arg, "work"], 80, 24);
    tui.wait_for_text("[work]");
    tui.type_bytes(b"echo recorded-$((2*21))\r");
    tui.wait_for_text("recorded-42");
    tui.prefix(b"%");
    tui.wait_for_text("─ @2");
    // The split's frame reaches the recording on the client's next flush (a bounded wait).
    std::thread::sleep(Duration::from_millis(300));
    tui.prefix(b"d");
    assert_eq!(tui.wait_exit(EXIT_WAIT), Some(0));
    let recording = phux_recorder::read_cast(&cast).expect("a valid cast");
    assert_eq!((recording.header.cols, recording.header.rows), (80, 24));
    let mut replay = phux_core::engine::Terminal::new(80, 24, 10).unwrap();
    for event in &recording.events {
        if let phux_recorder::EventKind::Output(text) = &event.kind {
            replay.write(text.as_bytes());
        }
    }
    let recorded = replay.viewport_lines();
    let drawn = last_drawn_screen(&tui.written(), 80, 24);
    assert_eq!(recorded, drawn);
    assert!(
        recorded.iter().any(|l| l.contains("recorded-42")),
        "{recorded:#?}"
    );
    assert!(recorded.iter().any(|l| l.contains('│')), "{recorded:#?}");
    assert!(recorded[23].starts_with("[work]"), "{recorded:#?}");
}

// A flood reaches the client as keyframes rather than every byte; what it finally shows must
// still be the pane's screen, colours included, and the other pane keeps taking keys.
#[test]
fn a_flood_ends_showing_the_panes_last_screen_and_the_other_pane_still_types() {
    // Floods the machine: never beside another test that does (they were in separate test
    // binaries before they shared one).
    let _serial = phux_tests::serial();
    let server = TestServer::start();
    let tui = attached(&server);
    tui.prefix(b"%");
    tui.wait_for_text("─ @2");
    tui.type_bytes(
        b"seq 1 200000 | sed 's/^/flood-line-/'; printf '\\033[31mflood-%s\\033[0m\\n' done\r",
    );
    tui.prefix(b"\x1b[D");
    tui.type_bytes(b"echo typed-meanwhile\r");
    tui.wait_for_text("typed-meanwhile");
    tui.wait_for("the flood's last lines", |lines| {
        lines.iter().any(|l| l.contains("flood-line-200000"))
            && lines.iter().any(|l| l.contains("flood-done"))
    });
    // The keyframe carried the colour of the last line.
    tui.wait_for("the flood's last line in red", |_| {
        tui.fg_of_text("flood-done") == Some(phux_core::engine::CellColor::Palette(1))
    });
}

// The client's copy of a flooding pane is fed one keyframe (a reset and the screen) per frame
// interval. Passing the start of each interval's output on as is before its keyframe would
// only make the client parse screens that the keyframe replaces: while the flood lasts, at
// most a line or two passes between two keyframes.
#[test]
fn a_sustained_flood_reaches_a_viewer_as_one_keyframe_per_frame() {
    // Floods the machine: never beside another test that does (they were in separate test
    // binaries before they shared one).
    let _serial = phux_tests::serial();
    use phux_core::wire::{ClientMessage, Frame, FrameReader, Observe, ObserveStart};
    let server = TestServer::start();
    let pane = server.new_session(
        "flood",
        &[
            "sh",
            "-c",
            "sleep 0.3; yes phux-flood-line | head -c 400000000",
        ],
    );
    let pane = phux_tests::pane_id(&pane);
    let mut client = phux_cli::client::Client::connect(&server.socket).unwrap();
    let _: ObserveStart = client
        .request(ClientMessage::Observe(Observe {
            id: 0,
            pane,
            since_ms: None,
            viewer: true,
            history_rows: None,
        }))
        .unwrap();
    let stream = client.into_stream();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut reader = FrameReader::new(stream);
    // The bytes passed on as is between consecutive keyframes.
    let mut between = Vec::new();
    let mut since_keyframe: Option<usize> = None;
    while between.len() < 40 {
        let Frame::Output(chunk) = reader.read_frame().expect("the flood's stream") else {
            continue;
        };
        if chunk.bytes.starts_with(b"\x1bc") {
            between.extend(since_keyframe);
            since_keyframe = Some(0);
        } else if let Some(raw) = since_keyframe.as_mut() {
            *raw += chunk.bytes.len();
        }
    }
    between.sort_unstable();
    let median = between[between.len() / 2];
    assert!(
        median <= 1024,
        "raw output between keyframes (sorted): {between:?}"
    );
}
