//! The engine's screen as the rasterizer's input, read once per frame a replay draws. The
//! reader keeps its buffers from one frame to the next (a row of the engine's cells with each
//! cell's text, the screen's cells), so a read allocates nothing once they are sized; reading
//! into fresh ones allocated a string per cell of every frame.

use crate::screen::{CellAttrs, CellWidth, RenderCell, RenderCursor, RenderScreen};
use phux_core::engine::{self, CellData, Terminal};

/// Reads screens into buffers it keeps.
#[derive(Debug)]
pub struct ScreenReader {
    row: Vec<CellData>,
    screen: RenderScreen,
}

impl Default for ScreenReader {
    fn default() -> Self {
        ScreenReader {
            row: Vec::new(),
            screen: RenderScreen::blank(0, 0),
        }
    }
}

impl ScreenReader {
    /// The engine's screen on a `cols`×`rows` canvas: cells past the terminal's own size are
    /// blank.
    pub fn read(&mut self, terminal: &Terminal, cols: u16, rows: u16) -> &RenderScreen {
        let screen = &mut self.screen;
        if (screen.cols, screen.rows) == (cols, rows) {
            screen.cells.fill(RenderCell::blank());
            screen.clusters.clear();
        } else {
            *screen = RenderScreen::blank(cols, rows);
        }
        let (term_cols, term_rows) = terminal.size();
        let width = usize::from(term_cols.min(cols));
        for y in 0..term_rows.min(rows) {
            terminal.viewport_row_cells_into(y, &mut self.row);
            let start = usize::from(y) * usize::from(cols);
            let targets = &mut screen.cells[start..start + width];
            for (target, cell) in targets.iter_mut().zip(&self.row) {
                *target = render_cell(cell);
                if cell.text.chars().nth(1).is_some() {
                    screen.clusters.push(cell.text.clone());
                    target.cluster = u32::try_from(screen.clusters.len()).unwrap_or(0);
                }
            }
        }
        let cursor = terminal.cursor();
        screen.cursor = Some(RenderCursor {
            x: cursor.x,
            y: cursor.y,
            visible: cursor.visible,
        });
        &self.screen
    }

    /// The screen last read, kept.
    pub fn into_screen(self) -> RenderScreen {
        self.screen
    }
}

/// The engine's screen on a `cols`×`rows` canvas, read once (a replay drawing frame after
/// frame keeps a [`ScreenReader`]).
pub fn screen_of(terminal: &Terminal, cols: u16, rows: u16) -> RenderScreen {
    let mut reader = ScreenReader::default();
    reader.read(terminal, cols, rows);
    reader.into_screen()
}

fn render_cell(cell: &CellData) -> RenderCell {
    let style = &cell.style;
    let mut attrs = CellAttrs::default();
    for (on, flag) in [
        (style.bold, CellAttrs::BOLD),
        (style.faint, CellAttrs::FAINT),
        (style.italic, CellAttrs::ITALIC),
        (style.underline, CellAttrs::UNDERLINE),
        (style.blink, CellAttrs::BLINK),
        (style.inverse, CellAttrs::INVERSE),
        (style.invisible, CellAttrs::INVISIBLE),
        (style.strikethrough, CellAttrs::STRIKETHROUGH),
        (style.overline, CellAttrs::OVERLINE),
    ] {
        if on {
            attrs |= flag;
        }
    }
    RenderCell {
        text: cell.text.chars().next().unwrap_or(' '),
        wide: match cell.width {
            engine::CellWidth::Wide => CellWidth::Wide,
            engine::CellWidth::SpacerTail => CellWidth::SpacerTail,
            _ => CellWidth::Narrow,
        },
        fg: style.fg,
        bg: style.bg,
        attrs,
        cluster: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terminal(cols: u16, rows: u16, text: &str) -> Terminal {
        let mut terminal = Terminal::new(cols, rows, 0).expect("the engine loads");
        terminal.write(text.as_bytes());
        terminal
    }

    #[test]
    fn a_reader_kept_across_frames_reads_what_a_fresh_read_does() {
        let mut reader = ScreenReader::default();
        let first = terminal(12, 3, "e\u{301}t\u{e9} \u{4e16}\r\n\x1b[1;31mred\x1b[0m");
        assert_eq!(reader.read(&first, 12, 3), &screen_of(&first, 12, 3));
        assert_eq!(reader.read(&first, 12, 3).clusters, vec!["e\u{301}"]);
        // A smaller terminal on the same canvas: nothing of the last frame stays beyond it,
        // and its clusters are its own.
        let second = terminal(5, 2, "ab");
        let screen = reader.read(&second, 12, 3).clone();
        assert_eq!(screen, screen_of(&second, 12, 3));
        assert!(screen.clusters.is_empty());
        assert_eq!(screen.cells[12 + 1], RenderCell::blank());
        assert_eq!(screen.cells[5], RenderCell::blank()); // the wide cell's tail
                                                          // A canvas of another size is read whole.
        assert_eq!(reader.read(&first, 20, 4), &screen_of(&first, 20, 4));
    }
}
