//! ScreenState's shape rules and its client-side projections (tail, unwrap, logical lines).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on the unexpected

use phux_core::documents::{Cursor, ScreenState, SoftWrap, TAIL_ALL_CAP};
use phux_core::ids::PaneId;

fn rows(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// 10 columns; history "hello worl" wraps into "d" (crossing into the viewport).
fn wrapped() -> ScreenState {
    let mut s = ScreenState::new(PaneId(1), 10, 3, rows(&["d", "$ ls", "a"]));
    s.scrollback = rows(&["first", "hello"]);
    s.soft_wrap = Some(SoftWrap {
        lines: vec![],
        scrollback: vec![1],
    });
    s.cursor = Some(Cursor {
        x: 1,
        y: 2,
        visible: true,
    });
    s
}

#[test]
fn unset_optional_keys_are_absent_so_old_consumers_see_the_old_shape() {
    let s = ScreenState::new(PaneId(1), 80, 24, rows(&["x"]));
    let json = serde_json::to_string(&s).unwrap();
    for key in [
        "cells",
        "soft_wrap",
        "truncated",
        "truncated_reason",
        "title",
    ] {
        assert!(!json.contains(key), "{key} present in {json}");
    }
    assert!(json.contains("\"cursor\":null"));
}

#[test]
fn an_old_payload_without_optional_keys_still_reads() {
    let json = r#"{"schema_version":3,"pane":1,"cols":80,"rows":24,"cursor":null,"lines":["x"],"future_key":1}"#;
    let s: ScreenState = serde_json::from_str(json).unwrap();
    assert!(s.scrollback.is_empty() && s.soft_wrap.is_none() && !s.truncated);
}

#[test]
fn logical_lines_join_history_into_the_viewport_and_restore_trimmed_blanks() {
    // "hello" was right-trimmed from a full 10-column row, so 5 blanks come back.
    assert_eq!(
        wrapped().logical_lines(),
        rows(&["first", "hello     d", "$ ls", "a"])
    );
}

#[test]
fn logical_lines_without_wrap_data_are_the_physical_rows() {
    let mut s = wrapped();
    s.soft_wrap = None;
    assert_eq!(
        s.logical_lines(),
        rows(&["first", "hello", "d", "$ ls", "a"])
    );
}

#[test]
fn wide_characters_count_two_cells_when_padding() {
    let mut s = ScreenState::new(PaneId(1), 6, 2, rows(&["x", "y"]));
    s.soft_wrap = Some(SoftWrap {
        lines: vec![0],
        scrollback: vec![],
    });
    s.lines = rows(&["日本", "z"]);
    assert_eq!(s.logical_lines(), rows(&["日本  z"]));
}

#[test]
fn unwrap_moves_a_line_that_ends_in_the_viewport_into_lines_and_keeps_the_cursor_on_its_text() {
    let s = wrapped().unwrap();
    assert_eq!(s.scrollback, rows(&["first"]));
    assert_eq!(s.lines, rows(&["hello     d", "$ ls", "a"]));
    assert_eq!(
        s.soft_wrap,
        Some(SoftWrap::default()),
        "wrapping reported, nothing wraps now"
    );
    assert_eq!(
        s.cursor,
        Some(Cursor {
            x: 1,
            y: 2,
            visible: true
        })
    );
}

#[test]
fn unwrap_offsets_the_cursor_on_a_joined_line() {
    let mut s = ScreenState::new(PaneId(1), 4, 2, rows(&["abcd", "ef"]));
    s.soft_wrap = Some(SoftWrap {
        lines: vec![0],
        scrollback: vec![],
    });
    s.cursor = Some(Cursor {
        x: 2,
        y: 1,
        visible: true,
    });
    let s = s.unwrap();
    assert_eq!(s.lines, rows(&["abcdef"]));
    assert_eq!(
        s.cursor,
        Some(Cursor {
            x: 6,
            y: 0,
            visible: true
        })
    );
}

#[test]
fn unwrap_without_wrap_data_changes_nothing() {
    let mut s = wrapped();
    s.soft_wrap = None;
    assert_eq!(s.clone().unwrap(), s);
}

#[test]
fn tail_keeps_the_last_rows_and_marks_the_cut() {
    let mut s = wrapped();
    s.scrollback = rows(&["h0", "h1", "h2", "h3"]);
    s.soft_wrap = Some(SoftWrap {
        lines: vec![],
        scrollback: vec![0, 2, 3],
    });
    let t = s.tail(5);
    assert_eq!(t.scrollback, rows(&["h2", "h3"]));
    assert_eq!(
        t.soft_wrap.unwrap().scrollback,
        vec![0, 1],
        "indices shift with the cut"
    );
    assert!(t.truncated);
    assert_eq!(t.truncated_reason.as_deref(), Some("row_window"));
}

#[test]
fn tail_never_cuts_the_viewport_and_does_not_mark_an_uncut_screen() {
    let t = wrapped().tail(1);
    assert!(t.scrollback.is_empty());
    assert_eq!(t.lines.len(), 3);
    let untouched = wrapped().tail(80);
    assert_eq!(untouched, wrapped());
    assert!(!untouched.truncated);
}

#[test]
fn tail_zero_means_all_capped() {
    let mut s = ScreenState::new(PaneId(1), 10, 1, rows(&["v"]));
    s.scrollback = (0..TAIL_ALL_CAP + 5).map(|i| i.to_string()).collect();
    let t = s.tail(0);
    assert_eq!(t.scrollback.len() + t.lines.len(), TAIL_ALL_CAP);
    assert_eq!(t.scrollback.first().map(String::as_str), Some("6"));
}

#[test]
fn dropping_viewport_rows_keeps_wraps_and_the_cursor_with_their_rows() {
    let mut screen = ScreenState::new(PaneId(1), 4, 5, rows(&["$ ec", "ho x", "abcd", "ef", "$"]));
    screen.soft_wrap = Some(SoftWrap {
        lines: vec![0, 2],
        scrollback: vec![],
    });
    screen.cursor = Some(Cursor {
        x: 1,
        y: 4,
        visible: true,
    });
    // Rows 0 and 1 are the typed command line (listed twice, as cells would list them).
    let out = screen.without_viewport_rows(&[1, 0, 1]);
    assert_eq!(out.lines, rows(&["abcd", "ef", "$"]));
    assert_eq!(
        out.soft_wrap.as_ref().map(|w| w.lines.clone()),
        Some(vec![0])
    );
    assert_eq!(out.logical_lines(), rows(&["abcdef", "$"]));
    assert_eq!(out.cursor.map(|c| (c.x, c.y)), Some((1, 2)));
    let gone = out.without_viewport_rows(&[2]);
    assert_eq!(gone.cursor, None, "the cursor's row was dropped");
}
