//! A repaint that carries history: the last N rows above the screen, then the screen, so a
//! viewer opening a pane (the browser page) can scroll back through what it printed before.

use super::abi;
use super::terminal::Terminal;
use super::text::Region;

/// The most history rows a repaint carries, whatever is asked.
pub const MAX_HISTORY_ROWS: usize = 10_000;

impl Terminal {
    /// VT bytes that, on a reset terminal of the same size, put the last `last` rows of
    /// history (at most [`MAX_HISTORY_ROWS`]) into its scrollback and then draw the screen as
    /// [`Terminal::vt_repaint`] does. With no history it is `vt_repaint` itself.
    pub fn vt_repaint_with_history(&self, last: usize) -> Vec<u8> {
        let total = self.scrollback_len();
        let count = last.min(total).min(MAX_HISTORY_ROWS);
        let screen = self.vt_repaint();
        if count == 0 {
            return screen;
        }
        let first = u32::try_from(total - count).unwrap_or(u32::MAX);
        let last_row = u32::try_from(total - 1).unwrap_or(u32::MAX);
        // Soft-wrapped rows joined: the viewer's engine, at the same width, wraps them again
        // where this one did.
        let mut history = self.format_rows(Region::History, first, last_row, abi::format::VT, true);
        history.retain(|&b| b != 0);
        let (_, rows) = self.size();
        let mut bytes = Vec::with_capacity(history.len() + screen.len() + 64);
        bytes.extend_from_slice(&history);
        // Every history row ends in a line feed, and rows - 1 more scroll the last of them
        // off the screen: the screen is then blank, its rows all in scrollback.
        bytes.extend_from_slice(b"\x1b[0m\r\n");
        bytes.extend(std::iter::repeat_n(
            b'\n',
            usize::from(rows.saturating_sub(1)),
        ));
        // The screen's repaint expects the cursor home, as after a reset.
        bytes.extend_from_slice(b"\r\x1b[H");
        bytes.extend_from_slice(&screen);
        bytes
    }
}
