//! Copy mode: the focused pane's history and screen as the server holds them, scrolled with vi
//! keys, searched with `/` and `?`, a selection started with `v` and copied with `y`.

use phux_core::engine::{CellColor, CellStyle};
use phux_core::ids::PaneId;
use phux_core::pane_layout::Rect;

use crate::cursor_shape::CursorShape;
use crate::grid::{Grid, GridCursor};
use crate::input::Key;

pub struct CopyMode {
    pub pane: PaneId,
    /// History (oldest first) then the screen.
    lines: Vec<String>,
    /// The first line shown.
    top: usize,
    /// The cursor: (line, column).
    cursor: (usize, usize),
    selection: Option<(usize, usize)>,
    /// A search being typed: (forward, text).
    search: Option<(bool, String)>,
    last_search: Option<(bool, String)>,
    rows: usize,
}

pub enum CopyOutcome {
    Stay,
    Quit,
    Copied(String),
}

impl CopyMode {
    /// Starts at the bottom, with the cursor on the last line, showing `rows` lines at a time.
    pub fn new(pane: PaneId, lines: Vec<String>, rows: u16) -> CopyMode {
        let rows = usize::from(rows.max(1));
        let last = lines.len().saturating_sub(1);
        CopyMode {
            pane,
            top: lines.len().saturating_sub(rows),
            cursor: (last, 0),
            lines,
            selection: None,
            search: None,
            last_search: None,
            rows,
        }
    }

    pub fn key(&mut self, key: Key) -> CopyOutcome {
        if let Some((forward, text)) = self.search.as_mut() {
            match key {
                Key::Enter => {
                    let query = (*forward, text.clone());
                    self.search = None;
                    self.find(&query);
                    self.last_search = Some(query);
                }
                Key::Esc => self.search = None,
                Key::Backspace => {
                    text.pop();
                }
                Key::Char(c) => text.push(c),
                _ => {}
            }
            return CopyOutcome::Stay;
        }
        let half = (self.rows / 2).max(1);
        match key {
            Key::Char('q') | Key::Esc => return CopyOutcome::Quit,
            Key::Char('j') | Key::Down | Key::Enter => self.move_line(1),
            Key::Char('k') | Key::Up => self.move_line(-1),
            Key::Char('h') | Key::Left => self.cursor.1 = self.cursor.1.saturating_sub(1),
            Key::Char('l') | Key::Right => self.cursor.1 += 1,
            Key::Ctrl('d') => self.move_line(half as isize),
            Key::Ctrl('u') => self.move_line(-(half as isize)),
            Key::Ctrl('f') | Key::PageDown => self.move_line(self.rows as isize),
            Key::Ctrl('b') | Key::PageUp => self.move_line(-(self.rows as isize)),
            Key::Char('g') | Key::Home => self.move_line(-(self.lines.len() as isize)),
            Key::Char('G') | Key::End => self.move_line(self.lines.len() as isize),
            Key::Char('0') => self.cursor.1 = 0,
            Key::Char('$') => self.cursor.1 = self.line_len(self.cursor.0).saturating_sub(1),
            Key::Char('/') => self.search = Some((true, String::new())),
            Key::Char('?') => self.search = Some((false, String::new())),
            Key::Char('n') => self.repeat(false),
            Key::Char('N') => self.repeat(true),
            Key::Char('v') | Key::Char(' ') => {
                self.selection = match self.selection {
                    Some(_) => None,
                    None => Some(self.cursor),
                }
            }
            Key::Char('y') => return CopyOutcome::Copied(self.selected_text()),
            _ => {}
        }
        self.clamp_column();
        CopyOutcome::Stay
    }

    /// Scrolls by `lines` (negative: up, into history), the cursor moving along.
    pub fn scroll(&mut self, lines: isize) {
        let last_top = self.lines.len().saturating_sub(self.rows) as isize;
        self.top = (self.top as isize + lines).clamp(0, last_top.max(0)) as usize;
        let bottom = self.top + self.rows - 1;
        self.cursor.0 = self.cursor.0.clamp(self.top, bottom.max(self.top));
        self.clamp_column();
    }

    fn line_len(&self, line: usize) -> usize {
        self.lines.get(line).map_or(0, |l| l.chars().count())
    }

    fn clamp_column(&mut self) {
        let len = self.line_len(self.cursor.0);
        self.cursor.1 = self.cursor.1.min(len.saturating_sub(1));
    }

    fn move_line(&mut self, delta: isize) {
        let last = self.lines.len().saturating_sub(1) as isize;
        let line = (self.cursor.0 as isize + delta).clamp(0, last.max(0)) as usize;
        self.cursor.0 = line;
        self.scroll_to_cursor();
    }

    fn scroll_to_cursor(&mut self) {
        if self.cursor.0 < self.top {
            self.top = self.cursor.0;
        } else if self.cursor.0 >= self.top + self.rows {
            self.top = self.cursor.0 + 1 - self.rows;
        }
    }

    fn repeat(&mut self, reverse: bool) {
        if let Some((forward, text)) = self.last_search.clone() {
            self.find(&(forward != reverse, text));
        }
    }

    /// Moves to the nearest other line (after or before the cursor's, wrapping around)
    /// containing the text.
    fn find(&mut self, query: &(bool, String)) {
        let (forward, text) = query;
        let n = self.lines.len();
        if text.is_empty() || n == 0 {
            return;
        }
        let start = self.cursor.0;
        for step in 1..=n {
            let line = if *forward {
                (start + step) % n
            } else {
                (start + n - step % n) % n
            };
            if let Some(col) = self.lines[line].find(text.as_str()) {
                self.cursor = (line, self.lines[line][..col].chars().count());
                self.scroll_to_cursor();
                return;
            }
        }
    }

    fn selected_text(&self) -> String {
        let Some(anchor) = self.selection else {
            return self.lines.get(self.cursor.0).cloned().unwrap_or_default();
        };
        let (start, end) = if anchor <= self.cursor {
            (anchor, self.cursor)
        } else {
            (self.cursor, anchor)
        };
        let mut out = Vec::new();
        for line in start.0..=end.0 {
            let text: Vec<char> = self
                .lines
                .get(line)
                .map_or(Vec::new(), |l| l.chars().collect());
            let from = if line == start.0 { start.1 } else { 0 };
            let to = if line == end.0 {
                (end.1 + 1).min(text.len())
            } else {
                text.len()
            };
            out.push(
                text.get(from.min(to)..to)
                    .map_or(String::new(), |s| s.iter().collect()),
            );
        }
        out.join("\n")
    }

    fn selected(&self, line: usize, col: usize) -> bool {
        let Some(anchor) = self.selection else {
            return false;
        };
        let (start, end) = if anchor <= self.cursor {
            (anchor, self.cursor)
        } else {
            (self.cursor, anchor)
        };
        (line, col) >= start && (line, col) <= end
    }

    /// Draws the lines over the pane's content area.
    pub fn draw(&self, grid: &mut Grid, rect: Rect) {
        let plain = CellStyle::default();
        let marked = CellStyle {
            inverse: true,
            ..plain
        };
        for row in 0..rect.rows {
            let y = rect.y + row;
            grid.fill(rect.x, y, rect.cols, ' ', plain);
            let line = self.top + usize::from(row);
            let Some(text) = self.lines.get(line) else {
                continue;
            };
            let mut x = rect.x;
            for (col, ch) in text.chars().enumerate() {
                let style = if self.selected(line, col) {
                    marked
                } else {
                    plain
                };
                x = grid.put_str(x, y, &ch.to_string(), style, rect.x + rect.cols);
            }
        }
        let badge = CellStyle {
            fg: CellColor::Palette(0),
            bg: CellColor::Palette(3),
            ..plain
        };
        let position = match &self.search {
            Some((forward, text)) => format!("{}{text}", if *forward { '/' } else { '?' }),
            None => format!("[{}/{}]", self.top + 1, self.lines.len()),
        };
        let width = position.chars().count() as u16;
        let x = rect.x + rect.cols.saturating_sub(width);
        grid.put_str(x, rect.y, &position, badge, rect.x + rect.cols);
        let cursor_row = self.cursor.0.saturating_sub(self.top);
        grid.cursor = (cursor_row < usize::from(rect.rows)).then(|| GridCursor {
            x: rect.x + (self.cursor.1 as u16).min(rect.cols.saturating_sub(1)),
            y: rect.y + cursor_row as u16,
            shape: CursorShape::Block,
            blinking: false,
        });
    }
}

/// `text` as base64, for OSC 52.
pub fn base64(bytes: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(TABLE[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode() -> CopyMode {
        let lines = (0..100).map(|n| format!("line {n}")).collect();
        CopyMode::new(PaneId(1), lines, 10)
    }

    #[test]
    fn it_starts_at_the_bottom_and_scrolls_up_with_k_and_ctrl_u() {
        let mut copy = mode();
        assert_eq!(copy.top, 90);
        for _ in 0..10 {
            copy.key(Key::Char('k'));
        }
        assert_eq!(copy.top, 89);
        copy.key(Key::Char('g'));
        assert_eq!(copy.top, 0);
    }

    #[test]
    fn search_backwards_finds_the_line_and_y_copies_the_selection() {
        let mut copy = mode();
        copy.key(Key::Char('?'));
        for c in "line 12".chars() {
            copy.key(Key::Char(c));
        }
        copy.key(Key::Enter);
        assert_eq!(copy.cursor, (12, 0));
        copy.key(Key::Char('v'));
        copy.key(Key::Char('$'));
        let CopyOutcome::Copied(text) = copy.key(Key::Char('y')) else {
            panic!("y copies")
        };
        assert_eq!(text, "line 12");
    }

    #[test]
    fn the_wheel_moves_the_view_at_once() {
        let mut copy = mode();
        copy.scroll(-3);
        assert_eq!(copy.top, 87);
        assert_eq!(copy.cursor.0, 96);
        copy.scroll(100);
        assert_eq!(copy.top, 90);
    }

    #[test]
    fn base64_matches_the_rfc_examples() {
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(b"fooba"), "Zm9vYmE=");
        assert_eq!(base64(b"f"), "Zg==");
    }
}
