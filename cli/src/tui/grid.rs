//! The composed screen as cells: what one frame shows on the outer terminal. Drawing fills a
//! `Grid`; `render` compares it with the last one and writes only what changed.

use phux_core::engine::{CellData, CellStyle, CellWidth};

use super::cursor_shape::CursorShape;

/// Where the outer terminal's cursor goes after a frame, and how it looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GridCursor {
    pub x: u16,
    pub y: u16,
    pub shape: CursorShape,
    pub blinking: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    pub cols: u16,
    pub rows: u16,
    cells: Vec<CellData>,
    /// None hides the cursor.
    pub cursor: Option<GridCursor>,
}

impl Grid {
    pub fn new(cols: u16, rows: u16) -> Grid {
        Grid {
            cols,
            rows,
            cells: vec![blank(); usize::from(cols) * usize::from(rows)],
            cursor: None,
        }
    }

    fn index(&self, x: u16, y: u16) -> Option<usize> {
        (x < self.cols && y < self.rows)
            .then(|| usize::from(y) * usize::from(self.cols) + usize::from(x))
    }

    pub fn get(&self, x: u16, y: u16) -> Option<&CellData> {
        self.index(x, y).map(|i| &self.cells[i])
    }

    /// Puts `cell` at (x, y); a wide cell that would not fit on the row becomes a blank.
    pub fn set(&mut self, x: u16, y: u16, cell: CellData) {
        let Some(i) = self.index(x, y) else { return };
        if cell.width == CellWidth::Wide && x + 1 >= self.cols {
            self.cells[i] = CellData {
                style: cell.style,
                ..blank()
            };
            return;
        }
        let wide = cell.width == CellWidth::Wide;
        // Overwriting half of a wide glyph leaves the other half blank.
        let old_width = self.cells[i].width;
        {
            if old_width == CellWidth::SpacerTail && x > 0 {
                self.cells[i - 1] = blank();
            }
            if old_width == CellWidth::Wide && !wide {
                if let Some(next) = self.cells.get_mut(i + 1) {
                    *next = blank();
                }
            }
        }
        self.cells[i] = cell;
        if wide {
            if let Some(next) = self.cells.get_mut(i + 1) {
                *next = CellData {
                    width: CellWidth::SpacerTail,
                    ..blank()
                };
            }
        }
    }

    /// Writes `text` from (x, y) in `style`, one cell per character, clipped at `max_x`.
    pub fn put_str(&mut self, x: u16, y: u16, text: &str, style: CellStyle, max_x: u16) -> u16 {
        let mut col = x;
        for ch in text.chars() {
            let width = phux_core::docs::cell_width::char_width(ch);
            if width == 0 {
                continue;
            }
            if col + width as u16 > max_x {
                break;
            }
            let cell = CellData {
                text: ch.to_string(),
                width: if width == 2 {
                    CellWidth::Wide
                } else {
                    CellWidth::Narrow
                },
                style,
                ..CellData::default()
            };
            self.set(col, y, cell);
            col += width as u16;
        }
        col
    }

    /// Fills a row span with one character.
    pub fn fill(&mut self, x: u16, y: u16, cols: u16, ch: char, style: CellStyle) {
        for col in x..x.saturating_add(cols).min(self.cols) {
            self.set(
                col,
                y,
                CellData {
                    text: ch.to_string(),
                    style,
                    ..CellData::default()
                },
            );
        }
    }

    /// Row `y` as plain text (for tests and recordings' checks).
    pub fn row_text(&self, y: u16) -> String {
        (0..self.cols)
            .filter_map(|x| self.get(x, y))
            .filter(|c| c.width != CellWidth::SpacerTail)
            .map(|c| {
                if c.text.is_empty() {
                    " "
                } else {
                    c.text.as_str()
                }
            })
            .collect()
    }
}

pub fn blank() -> CellData {
    CellData::default()
}
