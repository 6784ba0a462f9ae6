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
    /// Each cell's text packed in a number (`text_key`), so comparing two frames reads no
    /// text buffers: that pointer chasing was most of a frame's cost.
    keys: Vec<u64>,
    /// None hides the cursor.
    pub cursor: Option<GridCursor>,
}

impl Grid {
    pub fn new(cols: u16, rows: u16) -> Grid {
        Grid {
            cols,
            rows,
            cells: vec![blank(); usize::from(cols) * usize::from(rows)],
            keys: vec![0; usize::from(cols) * usize::from(rows)],
            cursor: None,
        }
    }

    /// Blank again at `cols`x`rows`, keeping the cells' text buffers when the size is the
    /// same (a frame then allocates nothing for the cells it copies).
    pub fn reset(&mut self, cols: u16, rows: u16) {
        if (self.cols, self.rows) != (cols, rows) {
            *self = Grid::new(cols, rows);
            return;
        }
        self.cells.iter_mut().for_each(CellData::clear);
        self.keys.fill(0);
        self.cursor = None;
    }

    /// Puts a copy of `cell` at (x, y), as [`set`](Self::set) does, reusing the text buffer
    /// already there.
    pub fn set_copy(&mut self, x: u16, y: u16, cell: &CellData) {
        let Some(i) = self.index(x, y) else { return };
        let plain_over_plain =
            cell.width == CellWidth::Narrow && self.cells[i].width == CellWidth::Narrow;
        if plain_over_plain {
            let target = &mut self.cells[i];
            target.text.clone_from(&cell.text);
            target.width = cell.width;
            target.style = cell.style;
            target.semantic = cell.semantic;
            self.keys[i] = text_key(&cell.text);
        } else {
            self.set(x, y, cell.clone());
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
            self.store(
                i,
                CellData {
                    style: cell.style,
                    ..blank()
                },
            );
            return;
        }
        let wide = cell.width == CellWidth::Wide;
        // Overwriting half of a wide glyph leaves the other half blank.
        let old_width = self.cells[i].width;
        {
            if old_width == CellWidth::SpacerTail && x > 0 {
                self.store(i - 1, blank());
            }
            if old_width == CellWidth::Wide && !wide && i + 1 < self.cells.len() {
                self.store(i + 1, blank());
            }
        }
        self.store(i, cell);
        if wide && i + 1 < self.cells.len() {
            self.store(
                i + 1,
                CellData {
                    width: CellWidth::SpacerTail,
                    ..blank()
                },
            );
        }
    }

    fn store(&mut self, i: usize, cell: CellData) {
        self.keys[i] = text_key(&cell.text);
        self.cells[i] = cell;
    }

    /// Whether the cell at (x, y) is `cell`.
    pub fn holds(&self, x: u16, y: u16, cell: &CellData) -> bool {
        let Some(i) = self.index(x, y) else {
            return true;
        };
        let held = &self.cells[i];
        let key = text_key(&cell.text);
        self.keys[i] == key
            && held.width == cell.width
            && held.style == cell.style
            && held.semantic == cell.semantic
            && (key != LONG_TEXT || held.text == cell.text)
    }

    /// Whether the cell at (x, y) is the same in `self` and `other` (grids of one size).
    pub fn same_cell(&self, other: &Grid, x: u16, y: u16) -> bool {
        let Some(i) = self.index(x, y) else {
            return true;
        };
        let (Some(a), Some(b)) = (self.cells.get(i), other.cells.get(i)) else {
            return false;
        };
        self.keys[i] == other.keys[i]
            && a.width == b.width
            && a.style == b.style
            && a.semantic == b.semantic
            && (self.keys[i] != LONG_TEXT || a.text == b.text)
    }

    /// Writes `text` from (x, y) in `style`, one cell per character, clipped at `max_x`.
    pub fn put_str(&mut self, x: u16, y: u16, text: &str, style: CellStyle, max_x: u16) -> u16 {
        let mut col = x;
        for ch in text.chars() {
            let width = phux_core::documents::cell_width::char_width(ch);
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

/// The key of a text longer than `text_key` packs: such cells compare their text.
const LONG_TEXT: u64 = u64::MAX;

/// Up to 7 bytes of text and its length in one number; `LONG_TEXT` beyond.
fn text_key(text: &str) -> u64 {
    let bytes = text.as_bytes();
    if bytes.len() > 7 {
        return LONG_TEXT;
    }
    bytes
        .iter()
        .fold(bytes.len() as u64, |key, &b| (key << 8) | u64::from(b))
}

pub fn blank() -> CellData {
    CellData::default()
}
