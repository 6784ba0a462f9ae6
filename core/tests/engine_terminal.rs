//! The safe `Terminal` against the real libghostty-vt: text, wraps, scrollback, cells, styles,
//! semantic marks, modes, replies, repaints and snapshots.

#![forbid(unsafe_code)]
#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_core::engine::{CellColor, CellWidth, Cursor, Mode, Semantic, Terminal, TerminalOptions};

fn terminal(cols: u16, rows: u16) -> Terminal {
    Terminal::new(cols, rows, 1_000).expect("engine available")
}

#[test]
fn terminal_is_send_but_not_sync() {
    fn assert_send<T: Send>() {}
    assert_send::<Terminal>();
    // Resolves only when `Terminal` is not `Sync` (two impls would make it ambiguous).
    trait AmbiguousIfSync<A> {
        fn check() {}
    }
    impl<T: ?Sized> AmbiguousIfSync<()> for T {}
    impl<T: ?Sized + Sync> AmbiguousIfSync<u8> for T {}
    <Terminal as AmbiguousIfSync<_>>::check();
}

#[test]
fn viewport_lines_are_right_trimmed_one_per_row() {
    let mut t = terminal(20, 4);
    t.write(b"hello   \r\n\r\n  indented");
    assert_eq!(t.viewport_lines(), vec!["hello", "", "  indented", ""]);
    assert_eq!(
        t.cursor(),
        Cursor {
            x: 10,
            y: 2,
            visible: true
        }
    );
    t.write(b"\x1b[?25l");
    assert!(!t.cursor().visible);
}

#[test]
fn soft_wraps_are_flagged_and_can_be_joined() {
    let mut t = terminal(10, 4);
    t.write(b"0123456789abcdefghijXYZ\r\nnext");
    assert_eq!(
        t.viewport_lines(),
        vec!["0123456789", "abcdefghij", "XYZ", "next"]
    );
    assert_eq!(t.viewport_wraps(), vec![true, true, false, false]);
    assert_eq!(
        t.viewport_text(true),
        vec!["0123456789abcdefghijXYZ", "next"]
    );
}

#[test]
fn last_n_scrollback_rows_oldest_first() {
    let mut t = terminal(20, 3);
    for i in 0..10 {
        t.write(format!("row{i}\r\n").as_bytes());
    }
    assert_eq!(t.scrollback_len(), 8);
    assert_eq!(
        t.scrollback_text(Some(3), false),
        vec!["row5", "row6", "row7"]
    );
    assert_eq!(t.scrollback_text(None, false).len(), 8);
    assert_eq!(
        t.scrollback_text(Some(100), false)
            .first()
            .map(String::as_str),
        Some("row0")
    );
    assert_eq!(t.viewport_lines(), vec!["row8", "row9", ""]);
}

#[test]
fn wrapped_history_rows_unwrap_into_one_line() {
    let mut t = terminal(5, 2);
    t.write(b"aaaaabbbbbcc\r\nx\r\ny\r\nz");
    assert_eq!(t.scrollback_wraps(None), vec![true, true, false, false]);
    assert_eq!(t.scrollback_text(None, true), vec!["aaaaabbbbbcc", "x"]);
}

#[test]
fn scrollback_budget_keeps_rows() {
    // Pins the byte-cap derivation: the engine's default cap would keep about one page.
    let mut t = Terminal::new(200, 50, 10_000).expect("engine");
    let line = format!("{}\r\n", "x".repeat(200));
    t.write(line.repeat(25_000).as_bytes());
    assert!(t.scrollback_len() >= 10_000, "kept {}", t.scrollback_len());
    assert!(
        t.scrollback_len() < 15_000,
        "kept {}: the budget is far too generous",
        t.scrollback_len()
    );
    t.resize(80, 24).expect("resize");
    t.write(format!("{}\r\n", "y".repeat(80)).repeat(25_000).as_bytes());
    assert!(
        t.scrollback_len() >= 10_000,
        "after resize kept {}",
        t.scrollback_len()
    );
}

#[test]
fn every_history_limit_keeps_at_least_its_rows() {
    // The engine frees history a page (hundreds of rows) at a time: a cap of exactly N rows
    // kept as few as 587 of 1000.
    for cols in [80u16, 200] {
        for limit in [100usize, 1000, 2000, 3000, 5000] {
            let mut t = Terminal::new(cols, 24, limit).expect("engine");
            let line = format!("{}\r\n", "x".repeat(usize::from(cols)));
            t.write(line.repeat(limit * 3).as_bytes());
            assert!(
                t.scrollback_len() >= limit,
                "{cols} columns, limit {limit}: kept {}",
                t.scrollback_len()
            );
        }
    }
}

#[test]
fn resize_reflows_soft_wrapped_lines() {
    let mut t = terminal(10, 4);
    t.write(b"0123456789abcde");
    assert_eq!(t.viewport_lines()[..2], ["0123456789", "abcde"]);
    t.resize(20, 4).expect("resize");
    assert_eq!(t.size(), (20, 4));
    assert_eq!(t.viewport_lines()[0], "0123456789abcde");
}

#[test]
fn title_pwd_bell_and_their_notifications() {
    let mut t = terminal(20, 4);
    assert_eq!(t.title(), None);
    t.write(b"\x1b]2;build: ok\x07\x1b]7;file://host/tmp/work\x1b\\\x07\x07");
    assert_eq!(t.title().as_deref(), Some("build: ok"));
    assert_eq!(t.pwd().as_deref(), Some("file://host/tmp/work"));
    let notes = t.take_notifications();
    assert_eq!(notes.bells, 2);
    assert!(notes.title_changed);
    assert!(notes.pwd_changed);
    assert_eq!(t.take_notifications().bells, 0);
}

#[test]
fn modes_follow_the_program() {
    let mut t = terminal(20, 4);
    assert!(
        !t.bracketed_paste()
            && !t.alternate_screen()
            && !t.mouse_tracking()
            && !t.application_cursor_keys()
    );
    t.write(b"\x1b[?2004h\x1b[?1049h\x1b[?1000h\x1b[?1h");
    assert!(
        t.bracketed_paste()
            && t.alternate_screen()
            && t.mouse_tracking()
            && t.application_cursor_keys()
    );
    assert!(t.mode(Mode::MOUSE_NORMAL));
    t.write(b"\x1b[?2004l\x1b[?1049l\x1b[?1000l\x1b[?1l");
    assert!(
        !t.bracketed_paste()
            && !t.alternate_screen()
            && !t.mouse_tracking()
            && !t.application_cursor_keys()
    );
}

#[test]
fn cell_styles_carry_the_nine_flags_and_tagged_colours() {
    let mut t = terminal(20, 2);
    t.write(b"\x1b[1;2;3;4;5;7;8;9;53;31;42mA\x1b[0m\x1b[38;5;200;48;2;1;2;3mB\x1b[0mC");
    let cells = t.viewport_row_cells(0);
    let a = &cells[0].style;
    assert!(a.bold && a.faint && a.italic && a.underline && a.blink && a.inverse && a.invisible);
    assert!(a.strikethrough && a.overline);
    assert_eq!((a.fg, a.bg), (CellColor::Palette(1), CellColor::Palette(2)));
    assert_eq!(cells[1].style.fg, CellColor::Palette(200));
    assert_eq!(cells[1].style.bg, CellColor::Rgb(1, 2, 3));
    assert!(!cells[1].style.bold);
    assert!(cells[2].style.is_default());
    assert_eq!(
        cells.iter().map(|c| c.text.as_str()).collect::<String>(),
        "ABC"
    );
}

#[test]
fn erased_cells_keep_their_background() {
    let mut t = terminal(10, 2);
    t.write(b"\x1b[44m\x1b[2K");
    assert_eq!(
        t.viewport_cell(5, 0).map(|c| c.style.bg),
        Some(CellColor::Palette(4))
    );
}

#[test]
fn wide_glyphs_and_graphemes() {
    let mut t = terminal(10, 2);
    t.write("日本e\u{301}".as_bytes());
    let cells = t.viewport_row_cells(0);
    assert_eq!(
        (cells[0].text.as_str(), cells[0].width),
        ("日", CellWidth::Wide)
    );
    assert_eq!(
        (cells[1].text.as_str(), cells[1].width),
        ("", CellWidth::SpacerTail)
    );
    assert_eq!(
        (cells[2].text.as_str(), cells[2].width),
        ("本", CellWidth::Wide)
    );
    assert_eq!(cells[4].text, "e\u{301}");
    assert_eq!(t.cursor().x, 5);
}

#[test]
fn osc_133_marks_prompt_input_and_output_cells() {
    let mut t = terminal(20, 3);
    t.write(b"\x1b]133;A\x07$ \x1b]133;B\x07");
    assert!(t.cursor_at_prompt());
    t.write(b"ls\r\n\x1b]133;C\x07file.txt\r\n\x1b]133;D;0\x07");
    assert!(!t.cursor_at_prompt());
    let prompt = t.viewport_row_cells(0);
    assert_eq!(prompt[0].semantic, Semantic::Prompt);
    assert_eq!(prompt[2].semantic, Semantic::Input);
    assert_eq!(t.viewport_row_cells(1)[0].semantic, Semantic::Output);
}

#[test]
fn queries_are_answered_for_the_pty() {
    let mut t = terminal(33, 7);
    t.write(b"ab\x1b[6n\x1b[5n\x1b[c\x1b[18t\x1b]10;?\x07\x1b]11;?\x07");
    let replies = String::from_utf8(t.take_replies()).expect("ascii");
    assert!(replies.contains("\x1b[1;3R"), "{replies:?}");
    assert!(replies.contains("\x1b[0n"), "{replies:?}");
    assert!(replies.contains("\x1b[?62;"), "{replies:?}");
    assert!(replies.contains("\x1b[8;7;33t"), "{replies:?}");
    assert!(replies.contains("\x1b]10;rgb:"), "{replies:?}");
    assert!(replies.contains("\x1b]11;rgb:"), "{replies:?}");
    assert!(t.take_replies().is_empty());
    t.resize(40, 10).expect("resize");
    t.write(b"\x1b[18t");
    assert_eq!(t.take_replies(), b"\x1b[8;10;40t");
}

fn styled_sample(t: &mut Terminal) {
    t.write(b"\x1b]2;sample\x07plain \x1b[1;31mbold red\x1b[0m \x1b[38;2;10;20;30;48;5;17mrgb\x1b[0m\r\n");
    t.write("wide 日本 \x1b[4munder\x1b[0m\r\n".as_bytes());
    t.write(b"\x1b[3;5Hplaced\x1b[7m inv \x1b[0m\x1b[2;3H");
}

/// A row's cells with blanks spelled one way: a repaint may write a space where the original
/// cell was never written, which looks the same.
fn visible_row(t: &Terminal, y: u16) -> Vec<phux_core::engine::CellData> {
    let mut cells = t.viewport_row_cells(y);
    for cell in &mut cells {
        if cell.text.is_empty() && cell.width == CellWidth::Narrow {
            cell.text = " ".into();
        }
    }
    cells
}

fn same_screen(a: &Terminal, b: &Terminal) {
    let (_, rows) = a.size();
    assert_eq!(a.size(), b.size());
    for y in 0..rows {
        assert_eq!(visible_row(a, y), visible_row(b, y), "row {y}");
    }
    assert_eq!(a.cursor(), b.cursor());
}

#[test]
fn vt_repaint_reproduces_the_screen_on_a_fresh_terminal() {
    let mut original = terminal(30, 6);
    styled_sample(&mut original);
    let repaint = original.vt_repaint();
    let mut copy = terminal(30, 6);
    copy.write(&repaint);
    same_screen(&original, &copy);
}

#[test]
fn vt_repaint_carries_the_working_directory_without_a_nul() {
    let mut t = terminal(30, 6);
    t.write(b"\x1b]7;file://host/tmp/work\x1b\\");
    let repaint = t.vt_repaint();
    let text = String::from_utf8_lossy(&repaint);
    assert!(text.contains("file://host/tmp/work"), "{text:?}");
    assert!(!repaint.contains(&0), "{text:?}");
}

#[test]
fn html_rendering_has_the_text_and_colours() {
    let mut t = terminal(30, 6);
    styled_sample(&mut t);
    let html = t.html();
    assert!(
        html.contains("bold red") && html.contains("placed"),
        "{html}"
    );
    assert!(html.contains("style="), "{html}");
}

#[test]
fn snapshot_restores_an_equal_terminal_with_history() {
    let mut original = terminal(30, 6);
    for i in 0..20 {
        original.write(format!("history {i}\r\n").as_bytes());
    }
    styled_sample(&mut original);
    let bytes = original.snapshot().expect("snapshot");
    let restored = Terminal::restore(&bytes, TerminalOptions::new(30, 6, 1_000)).expect("restore");
    same_screen(&original, &restored);
    assert_eq!(
        restored.scrollback_text(None, false),
        original.scrollback_text(None, false)
    );
    assert_eq!(restored.title(), original.title());
}

#[test]
fn compressing_history_changes_no_read() {
    let mut t = Terminal::new(80, 24, 10_000).expect("engine");
    for i in 0..5_000 {
        t.write(
            format!("line {i} of the history that compression must keep exactly\r\n").as_bytes(),
        );
    }
    let (history, viewport) = (t.scrollback_text(None, false), t.viewport_lines());
    assert_eq!(
        t.compress_history(true).expect("compress"),
        phux_core::engine::Compression::Complete
    );
    assert_eq!(t.scrollback_text(None, false), history);
    assert_eq!(t.viewport_lines(), viewport);
    t.write(b"after\r\n");
    assert_eq!(t.scrollback_text(Some(1), false), vec![viewport[0].clone()]);
}

#[test]
fn cursor_blinking_mode_reads() {
    let t = phux_core::engine::Terminal::new(20, 5, 10).unwrap();
    assert!(!t.mode(phux_core::engine::Mode::CURSOR_BLINKING));
}

#[test]
fn a_row_read_into_old_cells_equals_a_fresh_read() {
    let mut t = terminal(12, 3);
    t.write("\x1b[1;31mred\x1b[0m 日本e\u{301}\x1b[44m\x1b[K".as_bytes());
    t.write(b"\r\n\x1b[38;2;1;2;3mrgb\x1b[0m plain");
    let mut row = Vec::new();
    for y in 0..3 {
        // The buffer holds another row's cells (and a wrong width) before each read.
        row.truncate(5);
        t.viewport_row_cells_into(y, &mut row);
        assert_eq!(row, t.viewport_row_cells(y), "row {y}");
    }
    t.resize(20, 3).unwrap();
    t.viewport_row_cells_into(0, &mut row);
    assert_eq!(row, t.viewport_row_cells(0), "after a resize");
    assert_eq!(row.len(), 20);
}

/// What `phux upgrade` relies on to take a pane's snapshot before the freeze and keep it: the
/// count of changes moves with every write, resize and reset, and not with reads or
/// compression, and two snapshots at one count are the same bytes.
#[test]
fn changes_count_what_a_snapshot_holds() {
    let mut t = Terminal::new(40, 6, 1_000).expect("engine");
    let start = t.changes();
    for i in 0..100 {
        t.write(format!("line {i}\r\n").as_bytes());
    }
    let written = t.changes();
    assert!(written > start, "writes count");
    let first = t.snapshot().expect("snapshot");
    let _ = (
        t.viewport_lines(),
        t.scrollback_text(None, false),
        t.cursor(),
    );
    let _ = t.compress_history(true).expect("compress");
    assert_eq!(t.changes(), written, "reads and compression do not count");
    assert_eq!(
        t.snapshot().expect("snapshot"),
        first,
        "same count, same snapshot"
    );
    t.resize(30, 6).expect("resize");
    assert!(t.changes() > written, "a resize counts");
    let resized = t.changes();
    t.reset();
    assert!(t.changes() > resized, "a reset counts");
}
