//! Prefix bindings beyond the basics, as a person types them: focus by direction, moving a
//! divider, killing a pane (after confirming), renaming, the command prompt, copy and paste,
//! and `C-a C-a` passing a literal C-a through.

#![allow(clippy::unwrap_used)] // tests fail loudly by design

use phux_tests::outer_screen::AttachedTui;
use phux_tests::TestServer;

fn attached(server: &TestServer) -> AttachedTui {
    server.new_session("work", &[]);
    let tui = AttachedTui::start(server, &["attach", "work"], 81, 24);
    tui.wait_for_text("[work] 0:0*");
    tui
}

/// The column of the divider on row 5.
fn divider_column(lines: &[String]) -> Option<usize> {
    lines.get(5)?.chars().position(|c| c == '│')
}

#[test]
fn arrows_move_focus_and_alt_arrows_move_the_divider() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.prefix(b"%");
    tui.wait_for("the new pane focused", |l| {
        l.last().is_some_and(|s| s.contains("\"@2\""))
    });
    tui.prefix(b"\x1b[D");
    tui.wait_for("focus back on @1", |l| {
        l.last().is_some_and(|s| s.contains("\"@1\""))
    });
    assert_eq!(divider_column(&tui.lines()), Some(40));
    tui.prefix(b"\x1b[1;3C");
    tui.wait_for("the divider 5 cells right", |l| {
        divider_column(l) == Some(45)
    });
    let screen = server.json(&["snapshot", "--json", "@1"]);
    assert_eq!(screen["cols"].as_u64(), Some(45));
}

#[test]
fn x_asks_before_killing_the_pane() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.prefix(b"%");
    tui.wait_for_text("─ @2");
    tui.prefix(b"x");
    tui.wait_for_text("kill pane @2? (y/n)");
    tui.type_bytes(b"n");
    tui.wait_for("the question gone", |l| {
        !l.iter().any(|s| s.contains("kill pane"))
    });
    assert!(tui.screen().contains("─ @2"));
    tui.prefix(b"x");
    tui.wait_for_text("kill pane @2? (y/n)");
    tui.type_bytes(b"y");
    tui.wait_for("only @1 left", |l| {
        !l.iter().any(|s| s.contains("─ @2")) && !l.iter().any(|s| s.contains('│'))
    });
}

#[test]
fn comma_renames_the_window_and_dollar_the_session() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.prefix(b",");
    tui.wait_for_text("rename window: 0");
    tui.type_bytes(b"\x7fedit\r");
    tui.wait_for("the window renamed", |l| {
        l.last().is_some_and(|s| s.contains("0:edit*"))
    });
    tui.prefix(b"$");
    tui.wait_for_text("rename session: work");
    tui.type_bytes(b"\x7f\x7f\x7f\x7fplay\r");
    tui.wait_for("the session renamed", |l| {
        l.last().is_some_and(|s| s.starts_with("[play]"))
    });
    assert_eq!(
        server.json(&["ls", "--json"])["sessions"][0]["name"],
        "play"
    );
}

#[test]
fn the_command_prompt_runs_a_verb_against_this_session() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.prefix(b":");
    tui.wait_for_text(":");
    tui.type_bytes(b"send-keys @1 'echo from-the-prompt' Enter\r");
    tui.wait_for("the verb's effect in the pane", |l| {
        l.iter().any(|s| s.trim() == "from-the-prompt")
    });
}

#[test]
fn copy_then_paste_types_the_copied_line() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.type_bytes(b"echo copy-me-$((40+2))\r");
    tui.wait_for_text("copy-me-42");
    tui.prefix(b"[");
    tui.type_bytes(b"?copy-me-42\r");
    tui.type_bytes(b"y");
    tui.wait_for_text("copied");
    // OSC 52 carried it to the outer terminal's clipboard.
    let written = String::from_utf8_lossy(&tui.written()).into_owned();
    assert!(written.contains("\x1b]52;c;"), "no OSC 52 in the output");
    tui.prefix(b"]");
    tui.wait_for("the pasted line at the prompt", |l| {
        l.iter()
            .any(|s| s.ends_with(" copy-me-42") && !s.contains("echo"))
    });
}

#[test]
fn prefix_twice_sends_a_literal_ctrl_a() {
    let server = TestServer::start();
    let tui = attached(&server);
    // `cat -v` shows a C-a it receives as ^A.
    tui.type_bytes(b"cat -v\r");
    std::thread::sleep(std::time::Duration::from_millis(300));
    tui.prefix(b"\x01");
    tui.type_bytes(b"\r");
    tui.wait_for_text("^A");
}

/// An SGR mouse report for the cell (x, y), 0-based.
fn mouse(code: u16, x: u16, y: u16, release: bool) -> Vec<u8> {
    let end = if release { 'm' } else { 'M' };
    format!("\x1b[<{code};{};{}{end}", x + 1, y + 1).into_bytes()
}

#[test]
fn the_mouse_focuses_drags_a_border_and_scrolls_history() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.type_bytes(b"i=0; while [ $i -lt 60 ]; do i=$((i+1)); echo wheel-$i-line; done\r");
    tui.wait_for_text("wheel-60-line");
    tui.prefix(b"%");
    tui.wait_for("@2 focused", |l| {
        l.last().is_some_and(|s| s.contains("\"@2\""))
    });
    // A click in the left pane focuses it.
    tui.type_bytes(&mouse(0, 10, 10, false));
    tui.type_bytes(&mouse(0, 10, 10, true));
    tui.wait_for("@1 focused", |l| {
        l.last().is_some_and(|s| s.contains("\"@1\""))
    });
    // Dragging the divider from column 40 to 30.
    tui.type_bytes(&mouse(0, 40, 8, false));
    tui.type_bytes(&mouse(32, 35, 8, false));
    tui.type_bytes(&mouse(32, 30, 8, false));
    tui.type_bytes(&mouse(0, 30, 8, true));
    tui.wait_for("the divider at column 30", |l| {
        divider_column(l) == Some(30)
    });
    // The wheel over the left pane scrolls back into its history.
    assert!(!tui.screen().contains("wheel-3-line"));
    for _ in 0..20 {
        tui.type_bytes(&mouse(64, 10, 10, false));
    }
    tui.wait_for_text("wheel-3-line");
}

/// `[keybindings]` in the config file: another prefix, and a chord bound to an action.
#[test]
fn the_config_file_sets_the_prefix_and_chords() {
    let config = "[keybindings]\nprefix = \"C-b\"\n\"|\" = \"split-right\"\n";
    let server = TestServer::start_with_config(Some(config), &[]);
    server.new_session("work", &[]);
    let tui = AttachedTui::start(&server, &["attach", "work"], 81, 24);
    tui.wait_for_text("[work] 0:0*");
    // The hint names the configured prefix.
    tui.wait_for_text("C-b ? help");
    tui.type_bytes(b"\x02");
    std::thread::sleep(std::time::Duration::from_millis(30));
    tui.type_bytes(b"|");
    tui.wait_for("a pane to the right", |l| {
        l.last().is_some_and(|s| s.contains("\"@2\""))
    });
    assert!(divider_column(&tui.lines()).is_some());
}

/// A newcomer could not find the prefix: the status line names it (and `?`) until it is first
/// typed, and a line before the screen is taken says it too.
#[test]
fn the_status_line_shows_the_prefix_until_it_is_first_typed() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.wait_for("the hint in the status line", |l| {
        l.last().is_some_and(|s| s.contains("C-a ? help"))
    });
    let written = String::from_utf8_lossy(&tui.written()).into_owned();
    assert!(
        written.contains("the prefix is C-a"),
        "no prefix line before the screen: {written:?}"
    );
    tui.prefix(b"%");
    tui.wait_for("@2 focused and the hint gone", |l| {
        l.last()
            .is_some_and(|s| s.contains("\"@2\"") && !s.contains("? help"))
    });
}

/// Zoom had no mark: the active window shows `Z` while a pane is zoomed.
#[test]
fn zoom_shows_a_flag_in_the_status_line() {
    let server = TestServer::start();
    let tui = attached(&server);
    tui.prefix(b"%");
    tui.wait_for_text("─ @2");
    tui.prefix(b"z");
    tui.wait_for("the Z flag", |l| {
        l.last().is_some_and(|s| s.starts_with("[work] 0:0*Z"))
    });
    tui.prefix(b"z");
    tui.wait_for("the flag gone", |l| {
        l.last()
            .is_some_and(|s| s.starts_with("[work] 0:0* ") && !s.contains("0:0*Z"))
    });
}
