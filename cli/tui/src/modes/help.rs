//! The help overlay: every binding of the keymap table, filtered by what is typed.

use phux_core::engine::{CellColor, CellStyle};

use crate::grid::Grid;
use crate::input::Key;
use crate::keymap::{Action, BINDINGS};

#[derive(Default)]
pub struct HelpOverlay {
    pub filter: String,
    /// The first line shown, when the list is longer than the screen.
    scroll: usize,
    /// The prefix as the config names it (`C-a` when empty).
    prefix: String,
}

impl HelpOverlay {
    /// The overlay for a client whose prefix is `prefix` (`C-b`).
    pub fn with_prefix(prefix: &str) -> HelpOverlay {
        HelpOverlay {
            prefix: prefix.to_string(),
            ..HelpOverlay::default()
        }
    }

    fn prefix(&self) -> &str {
        if self.prefix.is_empty() {
            "C-a"
        } else {
            &self.prefix
        }
    }

    /// Handles a key; false when the overlay closes.
    pub fn key(&mut self, key: Key) -> bool {
        match key {
            Key::Esc | Key::Enter => return false,
            Key::Char('q') if self.filter.is_empty() => return false,
            Key::Backspace => {
                self.filter.pop();
                self.scroll = 0;
            }
            Key::Down | Key::PageDown => self.scroll += 1,
            Key::Up | Key::PageUp => self.scroll = self.scroll.saturating_sub(1),
            Key::Char(c) => {
                self.filter.push(c);
                self.scroll = 0;
            }
            _ => {}
        }
        true
    }

    /// The lines it lists: `C-a CHORD  what it does`.
    pub fn lines(&self) -> Vec<String> {
        let filter = self.filter.to_lowercase();
        BINDINGS
            .iter()
            .filter(|b| !matches!(b.action, Action::SelectWindow(n) if n > 0))
            .map(|b| match b.action {
                Action::SelectWindow(_) => {
                    format!("{} {:<7} select window 0–9", self.prefix(), "0-9")
                }
                _ => format!("{} {:<7} {}", self.prefix(), b.chord, b.help),
            })
            .filter(|line| line.to_lowercase().contains(&filter))
            .collect()
    }

    pub fn draw(&self, grid: &mut Grid) {
        let lines = self.lines();
        let width = lines
            .iter()
            .map(|l| phux_core::documents::cell_width::display_width(l))
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
        let shown = usize::from(height.saturating_sub(1)).max(1);
        let scroll = self.scroll.min(lines.len().saturating_sub(shown));
        let more = if lines.len() > shown {
            " (↑↓ scroll)"
        } else {
            ""
        };
        let header = format!(
            " keys (prefix {}){more} — type to filter: {}",
            self.prefix(),
            self.filter
        );
        let lines = &lines[scroll..];
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
