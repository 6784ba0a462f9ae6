//! The help overlay: every binding of the keymap table, filtered by what is typed.

use phux_core::engine::{CellColor, CellStyle};

use crate::tui::grid::Grid;
use crate::tui::input::Key;
use crate::tui::keymap::BINDINGS;

#[derive(Default)]
pub struct HelpOverlay {
    pub filter: String,
}

impl HelpOverlay {
    /// Handles a key; false when the overlay closes.
    pub fn key(&mut self, key: Key) -> bool {
        match key {
            Key::Esc | Key::Enter => return false,
            Key::Char('q') if self.filter.is_empty() => return false,
            Key::Backspace => {
                self.filter.pop();
            }
            Key::Char(c) => self.filter.push(c),
            _ => {}
        }
        true
    }

    /// The lines it lists: `C-a CHORD  what it does`.
    pub fn lines(&self) -> Vec<String> {
        let filter = self.filter.to_lowercase();
        BINDINGS
            .iter()
            .map(|b| format!("C-a {:<7} {}", b.chord, b.help))
            .filter(|line| line.to_lowercase().contains(&filter))
            .collect()
    }

    pub fn draw(&self, grid: &mut Grid) {
        let lines = self.lines();
        let width = lines
            .iter()
            .map(|l| phux_core::docs::cell_width::display_width(l))
            .max()
            .unwrap_or(20)
            .max(30) as u16
            + 4;
        let height = grid.rows.saturating_sub(1);
        let cols = width.min(grid.cols);
        let x0 = (grid.cols - cols) / 2;
        let box_style = CellStyle {
            fg: CellColor::Default,
            bg: CellColor::Palette(0),
            ..CellStyle::default()
        };
        let title = CellStyle {
            bold: true,
            ..box_style
        };
        let header = format!(" keys (prefix C-a) — filter: {}", self.filter);
        let rows = height.min(lines.len() as u16 + 2);
        for y in 0..rows {
            grid.fill(x0, y, cols, ' ', box_style);
        }
        grid.put_str(x0 + 1, 0, &header, title, x0 + cols);
        for (i, line) in lines
            .iter()
            .enumerate()
            .take(usize::from(rows.saturating_sub(1)))
        {
            grid.put_str(x0 + 2, i as u16 + 1, line, box_style, x0 + cols);
        }
        grid.cursor = None;
    }
}
