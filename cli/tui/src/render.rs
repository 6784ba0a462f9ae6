//! Grid → bytes: only the cells that differ from the previous frame, with cursor moves and SGR
//! changes kept to what is needed, inside DEC 2026 synchronized-output brackets so the outer
//! terminal shows the frame whole.

use std::fmt::Write as _;

use phux_core::engine::{CellColor, CellData, CellStyle, CellWidth};
use phux_core::pane_layout::Rect;

use super::cursor_shape::CursorShape;
use super::grid::{Grid, GridCursor};

const SYNC_BEGIN: &str = "\x1b[?2026h";
const SYNC_END: &str = "\x1b[?2026l";

/// The bytes that turn the outer terminal from `old` (None: unknown, draw everything) into
/// `new`. Empty when nothing changed.
pub fn frame(old: Option<&Grid>, new: &Grid) -> Vec<u8> {
    let same_size = old.is_some_and(|o| o.cols == new.cols && o.rows == new.rows);
    let old = old.filter(|_| same_size);
    let mut out = String::new();
    if old.is_none() {
        out.push_str("\x1b[0m\x1b[H\x1b[2J");
    }
    let mut pen = Pen::unknown();
    for y in 0..new.rows {
        // The cell after a cluster the outer terminal may measure otherwise is drawn again
        // (the cluster may have covered it there), and such a cluster is drawn again before
        // its changed neighbour (whose new text may have erased part of it there). Only
        // changed cells look at their text: an unchanged screen costs no text reads.
        let mut after_unsure = false;
        let mut previous: Option<(u16, bool)> = None;
        for x in 0..new.cols {
            let Some(cell) = new.get(x, y) else { continue };
            if cell.width == CellWidth::SpacerTail {
                continue;
            }
            let changed = match old {
                Some(old) => {
                    after_unsure
                        || !old.same_cell(new, x, y)
                        || wide_tail_changed(Some(old), new, x, y)
                }
                None => true,
            };
            after_unsure = false;
            let undrawn_before = previous.filter(|(_, drawn)| !drawn).map(|(px, _)| px);
            previous = Some((x, changed));
            if !changed {
                continue;
            }
            if let Some(px) = undrawn_before {
                if let Some(head) = new.get(px, y).filter(|c| width_unsure(&c.text)) {
                    draw_cell(&mut out, &mut pen, head, px, y, new.cols);
                }
            }
            draw_cell(&mut out, &mut pen, cell, x, y, new.cols);
            after_unsure = width_unsure(&cell.text);
        }
    }
    let cursor_changed = old.is_none_or(|o| o.cursor != new.cursor);
    if out.is_empty() && !cursor_changed {
        return Vec::new();
    }
    let mut bytes = String::with_capacity(out.len() + 64);
    bytes.push_str(SYNC_BEGIN);
    bytes.push_str("\x1b[?25l");
    bytes.push_str(&out);
    bytes.push_str("\x1b[0m");
    place_cursor(&mut bytes, new.cursor);
    bytes.push_str(SYNC_END);
    bytes.into_bytes()
}

/// One pane's change drawn into the last frame in place: the cells of `rect` become `rows`
/// (as `compose` would place them), and every row of the rect that changed is written again;
/// the rest of the screen is untouched. A keystroke's echo costs the pane's cells, not the
/// whole screen's; with `only_row`, only that row of the pane is compared (the only one read
/// again).
pub fn pane_update(
    grid: &mut Grid,
    rect: Rect,
    rows: &[Vec<CellData>],
    cursor: Option<GridCursor>,
    only_row: Option<u16>,
) -> Vec<u8> {
    let mut changed_rows = Vec::new();
    let compared = match only_row {
        Some(y) => y..(y + 1).min(rect.rows),
        None => 0..rect.rows,
    };
    for y in compared {
        if set_row(grid, rect, y, rows.get(usize::from(y)).map(Vec::as_slice)) {
            changed_rows.push(rect.y + y);
        }
    }
    rows_written(grid, rect, &changed_rows, cursor)
}

/// Row `y` of `rect` becomes `row` in `grid` (as `compose` would place it; None blanks it).
/// True when a cell changed.
fn set_row(grid: &mut Grid, rect: Rect, y: u16, row: Option<&[CellData]>) -> bool {
    let mut changed = false;
    for x in 0..rect.cols {
        let wanted = row.and_then(|r| r.get(usize::from(x)));
        if wanted.is_some_and(|c| c.width == CellWidth::SpacerTail) {
            continue; // set with its head
        }
        let fits = wanted.is_some_and(|c| c.width != CellWidth::Wide || x + 1 < rect.cols);
        let at = (rect.x + x, rect.y + y);
        match wanted.filter(|_| fits) {
            Some(cell) if !grid.holds(at.0, at.1, cell) => {
                grid.set_copy(at.0, at.1, cell);
                changed = true;
            }
            None if !grid.holds(at.0, at.1, &CellData::default()) => {
                grid.set(at.0, at.1, CellData::default());
                changed = true;
            }
            _ => {}
        }
    }
    changed
}

/// A keystroke's echo on one row: row `y` of the pane at `rect` becomes `row` in the last
/// frame, and only that row (if it changed) and the cursor are written.
pub fn row_update(
    grid: &mut Grid,
    rect: Rect,
    y: u16,
    row: &[CellData],
    cursor: Option<GridCursor>,
) -> Vec<u8> {
    let changed = y < rect.rows && set_row(grid, rect, y, Some(row));
    let written = [rect.y + y];
    rows_written(grid, rect, if changed { &written } else { &[] }, cursor)
}

/// The bytes that write `changed_rows` of `rect` (outer rows) from `grid` and place `cursor`,
/// which the grid then holds; empty when nothing changed.
fn rows_written(
    grid: &mut Grid,
    rect: Rect,
    changed_rows: &[u16],
    cursor: Option<GridCursor>,
) -> Vec<u8> {
    if changed_rows.is_empty() && grid.cursor == cursor {
        return Vec::new();
    }
    let mut out = String::new();
    let mut pen = Pen::unknown();
    for &y in changed_rows {
        for x in rect.x..rect.x + rect.cols {
            let Some(cell) = grid.get(x, y) else { continue };
            if cell.width == CellWidth::SpacerTail {
                continue;
            }
            draw_cell(&mut out, &mut pen, cell, x, y, grid.cols);
        }
    }
    grid.cursor = cursor;
    let mut bytes = String::with_capacity(out.len() + 64);
    bytes.push_str(SYNC_BEGIN);
    bytes.push_str("\x1b[?25l");
    bytes.push_str(&out);
    bytes.push_str("\x1b[0m");
    place_cursor(&mut bytes, cursor);
    bytes.push_str(SYNC_END);
    bytes.into_bytes()
}

/// Whether an outer terminal may give this grapheme cluster another width than the engine
/// does: anything beyond one narrow character or one ordinary CJK character (ZWJ sequences,
/// regional-indicator flags, emoji with variation selectors or skin tones, emoji outside the
/// BMP, combining sequences). tmux, for one, measures 👩‍💻 and 🇯🇵 as 2 columns where the
/// engine measures 4.
pub fn width_unsure(text: &str) -> bool {
    let mut chars = text.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if chars.next().is_some() {
        return true;
    }
    let c = u32::from(first);
    match c {
        0..=0x7f => false,
        // Dingbats and miscellaneous symbols: emoji-or-text presentation varies.
        0x2600..=0x27bf | 0x2b00..=0x2bff => true,
        0x80..=0xffff => false,
        // CJK extensions B and later (planes 2 and 3).
        0x20000..=0x3ffff => false,
        // Regional indicators, emoji and the rest of the supplementary planes.
        _ => true,
    }
}

/// A wide glyph's spacer changed while its head did not (cannot happen in a consistent grid,
/// but a redraw is cheap insurance).
fn wide_tail_changed(old: Option<&Grid>, new: &Grid, x: u16, y: u16) -> bool {
    let Some(old) = old else { return true };
    new.get(x, y).is_some_and(|c| c.width == CellWidth::Wide)
        && old.get(x + 1, y) != new.get(x + 1, y)
}

fn place_cursor(out: &mut String, cursor: Option<GridCursor>) {
    let Some(cursor) = cursor else { return };
    let shape = match (cursor.shape, cursor.blinking) {
        (CursorShape::Block, true) => 1,
        (CursorShape::Block, false) => 2,
        (CursorShape::Underline, true) => 3,
        (CursorShape::Underline, false) => 4,
        (CursorShape::Bar, true) => 5,
        (CursorShape::Bar, false) => 6,
    };
    let _ = write!(
        out,
        "\x1b[{};{}H\x1b[{shape} q\x1b[?25h",
        cursor.y + 1,
        cursor.x + 1
    );
}

/// What the outer terminal's cursor and current SGR are, as far as this frame knows.
struct Pen {
    at: Option<(u16, u16)>,
    style: Option<CellStyle>,
}

impl Pen {
    fn unknown() -> Pen {
        Pen {
            at: None,
            style: None,
        }
    }

    fn move_to(&mut self, out: &mut String, x: u16, y: u16) {
        if self.at == Some((x, y)) {
            return;
        }
        let _ = write!(out, "\x1b[{};{}H", y + 1, x + 1);
        self.at = Some((x, y));
    }

    /// After writing `width` cells; at the right margin the terminal's cursor position is not
    /// worth predicting (pending wrap), so the next cell moves explicitly.
    fn advance(&mut self, width: u16, cols: u16) {
        self.at = self
            .at
            .map(|(x, y)| (x + width, y))
            .filter(|(x, _)| *x < cols);
    }

    fn style(&mut self, out: &mut String, style: &CellStyle) {
        if self.style.as_ref() == Some(style) {
            return;
        }
        out.push_str(&sgr(style));
        self.style = Some(*style);
    }
}

/// The SGR sequence that sets exactly `style` (from a reset).
pub fn sgr(style: &CellStyle) -> String {
    let mut codes = String::from("\x1b[0");
    let flags = [
        (style.bold, "1"),
        (style.faint, "2"),
        (style.italic, "3"),
        (style.underline, "4"),
        (style.blink, "5"),
        (style.inverse, "7"),
        (style.invisible, "8"),
        (style.strikethrough, "9"),
        (style.overline, "53"),
    ];
    for (on, code) in flags {
        if on {
            codes.push(';');
            codes.push_str(code);
        }
    }
    color(&mut codes, style.fg, 30, 90, 38);
    color(&mut codes, style.bg, 40, 100, 48);
    codes.push('m');
    codes
}

fn color(out: &mut String, color: CellColor, base: u8, bright: u8, extended: u8) {
    match color {
        CellColor::Default => {}
        CellColor::Palette(n) if n < 8 => {
            let _ = write!(out, ";{}", base + n);
        }
        CellColor::Palette(n) if n < 16 => {
            let _ = write!(out, ";{}", bright + n - 8);
        }
        CellColor::Palette(n) => {
            let _ = write!(out, ";{extended};5;{n}");
        }
        CellColor::Rgb(r, g, b) => {
            let _ = write!(out, ";{extended};2;{r};{g};{b}");
        }
    }
}

/// A cell of plain text, for tests.
#[cfg(test)]
fn text(s: &str) -> CellData {
    CellData {
        text: s.into(),
        ..CellData::default()
    }
}

/// Moves to (`x`, `y`) and writes `cell` in its style (a blank cell as a space).
///
/// The outer terminal never decides where a cell lands: after a cluster whose width it may
/// judge otherwise (`width_unsure`), the next cell is placed with an explicit move. Such a
/// wide cluster's second column is blanked first (a terminal that measures it narrower
/// leaves a blank there, not a stale cell), and a trailing ZWJ is not sent (the engine keeps
/// it on the first emoji of a sequence it split; sent, it would join the next cell's emoji).
fn draw_cell(out: &mut String, pen: &mut Pen, cell: &CellData, x: u16, y: u16, cols: u16) {
    let wide = cell.width == CellWidth::Wide;
    let unsure = width_unsure(&cell.text);
    if unsure && wide && x + 1 < cols {
        pen.move_to(out, x + 1, y);
        pen.style(out, &cell.style);
        out.push(' ');
        pen.at = None;
    }
    pen.move_to(out, x, y);
    pen.style(out, &cell.style);
    let text = if cell.text.is_empty() {
        " "
    } else if unsure {
        cell.text.trim_end_matches('\u{200d}')
    } else {
        &cell.text
    };
    out.push_str(text);
    if unsure {
        pen.at = None;
    } else {
        pen.advance(if wide { 2 } else { 1 }, cols);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unchanged_grid_writes_nothing() {
        let grid = Grid::new(10, 3);
        assert!(frame(Some(&grid), &grid).is_empty());
    }

    #[test]
    fn only_the_changed_cell_is_written_inside_sync_brackets() {
        let old = Grid::new(10, 3);
        let mut new = old.clone();
        new.set(4, 1, text("x"));
        let bytes = String::from_utf8(frame(Some(&old), &new)).unwrap();
        assert!(
            bytes.starts_with(SYNC_BEGIN) && bytes.ends_with(SYNC_END),
            "{bytes:?}"
        );
        assert!(bytes.contains("\x1b[2;5H\x1b[0mx"), "{bytes:?}");
        assert_eq!(bytes.matches('x').count(), 1);
    }

    #[test]
    fn a_pane_update_rewrites_only_its_changed_rows_and_leaves_the_grid_as_a_frame_would() {
        let rect = Rect::new(2, 1, 4, 2);
        let row = |s: &str| s.chars().map(|c| text(&c.to_string())).collect::<Vec<_>>();
        let mut grid = Grid::new(10, 4);
        grid.set(0, 0, text("#"));
        assert!(!pane_update(&mut grid, rect, &[row("ab"), row("cd")], None, None).is_empty());
        let bytes = pane_update(&mut grid, rect, &[row("ab"), row("cx")], None, None);
        let bytes = String::from_utf8(bytes).unwrap();
        assert!(
            bytes.contains("\x1b[3;3H") && bytes.contains('x'),
            "{bytes:?}"
        );
        assert!(
            !bytes.contains('a'),
            "the unchanged row is not written: {bytes:?}"
        );
        assert_eq!(grid.row_text(1), "  ab      ");
        assert_eq!(grid.row_text(2), "  cx      ");
        assert_eq!(grid.row_text(0), "#         ", "outside the rect stays");
        assert!(pane_update(&mut grid, rect, &[row("ab"), row("cx")], None, None).is_empty());
        // Told that only the first row was read again, the second is not compared.
        let only_first = pane_update(&mut grid, rect, &[row("ab"), row("zz")], None, Some(0));
        assert!(only_first.is_empty(), "{only_first:?}");
        assert_eq!(grid.row_text(2), "  cx      ");
        let bytes = pane_update(&mut grid, rect, &[row("yb"), row("zz")], None, Some(0));
        assert!(String::from_utf8(bytes).unwrap().contains('y'));
        assert_eq!(grid.row_text(1), "  yb      ");
        assert_eq!(grid.row_text(2), "  cx      ");
    }

    /// Emoji drift: after 🇯🇵 and 👩‍💻 (split by the engine into two wide cells each, which
    /// tmux joins into one) every cell is placed explicitly, and no ZWJ is left to join.
    #[test]
    fn cells_after_an_unsure_cluster_are_placed_explicitly() {
        let mut engine = phux_core::engine::Terminal::new(20, 1, 0).unwrap();
        engine.write("x🇯🇵y👩\u{200d}💻z".as_bytes());
        let mut grid = Grid::new(20, 1);
        for (x, cell) in engine.viewport_row_cells(0).into_iter().enumerate() {
            if cell.width != CellWidth::SpacerTail {
                grid.set(x as u16, 0, cell);
            }
        }
        let bytes = String::from_utf8(frame(None, &grid)).unwrap();
        for (col, text) in [(4, "🇵"), (6, "y"), (9, "💻"), (11, "z")] {
            assert!(
                bytes.contains(&format!("\x1b[1;{col}H{text}")),
                "{text} not placed at column {col}: {bytes:?}"
            );
        }
        assert!(!bytes.contains('\u{200d}'), "a ZWJ was sent: {bytes:?}");
        // Unchanged, the cell after an unsure cluster is drawn again when its neighbour changes.
        let mut next = grid.clone();
        next.set(10, 0, text("Z"));
        let bytes = String::from_utf8(frame(Some(&grid), &next)).unwrap();
        assert!(bytes.contains("💻"), "{bytes:?}");
        assert!(!width_unsure("a") && !width_unsure("│") && !width_unsure("漢"));
    }

    #[test]
    fn colours_use_the_shortest_form_that_says_them() {
        let style = CellStyle {
            bold: true,
            fg: CellColor::Palette(9),
            bg: CellColor::Rgb(1, 2, 3),
            ..CellStyle::default()
        };
        assert_eq!(sgr(&style), "\x1b[0;1;91;48;2;1;2;3m");
        let style = CellStyle {
            fg: CellColor::Palette(200),
            ..CellStyle::default()
        };
        assert_eq!(sgr(&style), "\x1b[0;38;5;200m");
    }
}
