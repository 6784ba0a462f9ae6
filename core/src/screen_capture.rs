//! Projects an engine `Terminal` into the `ScreenState` v3 document: the viewport lines, the
//! requested window of history, soft-wrap flags, the cursor, the title, and (on request) the
//! sparse styled or marked cells.

use crate::documents::{CellColor, CellInfo, CellStyle, Cursor, ScreenState, Semantic, SoftWrap};
use crate::engine::{self, Terminal};
use crate::ids::PaneId;

/// What part of the screen to capture.
#[derive(Debug, Clone, Copy, Default)]
pub struct CaptureRequest {
    /// None: viewport only; Some(0): all retained history; Some(n): the last n rows.
    pub scrollback: Option<u32>,
    pub cells: bool,
}

/// The `ScreenState` of `terminal`, which belongs to `pane`.
pub fn capture(terminal: &Terminal, pane: PaneId, request: CaptureRequest) -> ScreenState {
    let (cols, rows) = terminal.size();
    let mut state = ScreenState::new(pane, cols, rows, terminal.viewport_lines());
    let cursor = terminal.cursor();
    state.cursor = Some(Cursor {
        x: cursor.x,
        y: cursor.y,
        visible: cursor.visible,
    });
    state.title = terminal.title();
    // The engine trims history by memory, a page at a time, so it holds a little more than
    // the pane's limit once it has trimmed: the limit is what a reader gets, and more than it
    // means older rows are gone.
    let limit = terminal.scrollback_budget_rows().max(1);
    let held = terminal.scrollback_len();
    let retained = held.min(limit);
    let window = match request.scrollback {
        None => 0,
        Some(0) => retained,
        Some(n) => (n as usize).min(retained),
    };
    if window > 0 {
        state.scrollback = terminal.scrollback_text(Some(window), false);
    }
    let asked_for_window = request.scrollback.is_some_and(|n| n > 0);
    if asked_for_window && retained > window {
        state.truncated = true;
        state.truncated_reason =
            Some(crate::documents::screen_state::TRUNCATED_ROW_WINDOW.to_string());
    } else if request.scrollback.is_some() && held > limit {
        state.truncated = true;
        state.truncated_reason =
            Some(crate::documents::screen_state::TRUNCATED_HISTORY_LIMIT.to_string());
    }
    state.soft_wrap = Some(SoftWrap {
        lines: flagged(&terminal.viewport_wraps()),
        scrollback: if window > 0 {
            flagged(&terminal.scrollback_wraps(Some(window)))
        } else {
            Vec::new()
        },
    });
    if request.cells {
        state.cells = Some(sparse_cells(terminal, rows));
    }
    state
}

fn flagged(flags: &[bool]) -> Vec<u32> {
    flags
        .iter()
        .enumerate()
        .filter(|(_, &wraps)| wraps)
        .map(|(i, _)| i as u32)
        .collect()
}

fn sparse_cells(terminal: &Terminal, rows: u16) -> Vec<CellInfo> {
    let mut cells = Vec::new();
    for row in 0..rows {
        for (col, cell) in terminal.viewport_row_cells(row).into_iter().enumerate() {
            if cell.width == engine::CellWidth::SpacerTail {
                continue;
            }
            let semantic = match cell.semantic {
                engine::Semantic::Input => Some(Semantic::Input),
                engine::Semantic::Prompt => Some(Semantic::Prompt),
                engine::Semantic::Output => None,
            };
            if semantic.is_none() && cell.style.is_default() {
                continue;
            }
            cells.push(CellInfo {
                col: col as u16,
                row,
                semantic,
                style: style_of(&cell.style),
            });
        }
    }
    cells
}

fn style_of(style: &engine::CellStyle) -> CellStyle {
    CellStyle {
        bold: style.bold,
        faint: style.faint,
        italic: style.italic,
        underline: style.underline,
        blink: style.blink,
        inverse: style.inverse,
        invisible: style.invisible,
        strikethrough: style.strikethrough,
        overline: style.overline,
        fg: color_of(style.fg),
        bg: color_of(style.bg),
    }
}

fn color_of(color: engine::CellColor) -> CellColor {
    match color {
        engine::CellColor::Default => CellColor::Default,
        engine::CellColor::Palette(index) => CellColor::Palette { index },
        engine::CellColor::Rgb(r, g, b) => CellColor::Rgb { r, g, b },
    }
}
