//! `vt_repaint_with_history` against the real libghostty-vt: a fresh terminal of the same size
//! that reads it holds the same history rows (text, wraps) and the same screen.

#![forbid(unsafe_code)]
#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_core::engine::{Terminal, MAX_HISTORY_ROWS};

fn terminal(cols: u16, rows: u16) -> Terminal {
    Terminal::new(cols, rows, 20_000).expect("engine available")
}

fn copy_of(original: &Terminal, last: usize) -> Terminal {
    let (cols, rows) = original.size();
    let mut copy = terminal(cols, rows);
    copy.write(&original.vt_repaint_with_history(last));
    copy
}

#[test]
fn history_and_screen_arrive_whole() {
    let mut original = terminal(30, 6);
    for i in 1..=300 {
        original.write(format!("\x1b[3{}mline {i}\x1b[0m\r\n", i % 8).as_bytes());
    }
    // A row longer than the width wraps softly, and a prompt waits at the cursor.
    original.write(format!("{}\r\n$ typed", "w".repeat(70)).as_bytes());
    let copy = copy_of(&original, 10_000);
    assert_eq!(copy.viewport_lines(), original.viewport_lines());
    assert_eq!(copy.cursor(), original.cursor());
    assert_eq!(
        copy.scrollback_text(None, false),
        original.scrollback_text(None, false)
    );
    assert_eq!(copy.scrollback_wraps(None), original.scrollback_wraps(None));
    assert!(copy
        .scrollback_text(None, false)
        .contains(&"line 1".to_owned()));
}

#[test]
fn fewer_history_rows_than_the_screen_and_none() {
    let mut original = terminal(20, 10);
    original.write(b"\x1b[2J\x1b[H");
    for i in 1..=13 {
        original.write(format!("row {i}\r\n").as_bytes());
    }
    let copy = copy_of(&original, 10_000);
    assert_eq!(copy.viewport_lines(), original.viewport_lines());
    assert_eq!(
        copy.scrollback_text(None, false),
        original.scrollback_text(None, false)
    );
    let bare = copy_of(&original, 0);
    assert_eq!(bare.viewport_lines(), original.viewport_lines());
    assert_eq!(bare.scrollback_len(), 0);
}

#[test]
fn only_the_last_rows_asked_for_are_carried() {
    let mut original = terminal(20, 5);
    for i in 1..=100 {
        original.write(format!("n{i}\r\n").as_bytes());
    }
    let copy = copy_of(&original, 7);
    assert_eq!(copy.scrollback_len(), 7);
    assert_eq!(
        copy.scrollback_text(None, false),
        original.scrollback_text(Some(7), false)
    );
    assert_eq!(copy.viewport_lines(), original.viewport_lines());
    assert_eq!(MAX_HISTORY_ROWS, 10_000);
}
