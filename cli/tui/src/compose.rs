//! Model → cells: the active window's panes from their terminals, the title row of each pane
//! (the focused one marked), dividers, the letterbox outside the session's area, and the status
//! line. Modes (copy mode, prompt, help) draw themselves over this as layers.

use phux_core::engine::{CellColor, CellData, CellStyle, Cursor};
use phux_core::pane_layout::{Placed, Rect};

use super::cursor_shape::ShapeTracker;
use super::grid::{Grid, GridCursor};
use super::model::Model;
use super::panes::PaneFeeds;
use super::status;

pub fn style(fg: CellColor, bold: bool) -> CellStyle {
    CellStyle {
        fg,
        bold,
        ..CellStyle::default()
    }
}

const ACCENT: CellColor = CellColor::Palette(2);
const DIM: CellColor = CellColor::Palette(8);

/// The frame for `model` before any mode's layer, drawn into `grid` (whose cells' buffers
/// are reused).
pub fn compose_into(grid: &mut Grid, model: &Model, feeds: &PaneFeeds) {
    let (cols, rows) = model.outer;
    grid.reset(cols, rows);
    let area = model.area();
    letterbox(grid, area.cols, area.rows, rows.saturating_sub(1));
    let placement = model.placement();
    let focused = model.focused();
    for placed in &placement.panes {
        let active = Some(placed.pane) == focused;
        title_row(grid, model, placed, active);
        content(grid, feeds, placed);
        if active {
            grid.cursor = cursor(feeds, placed);
        }
    }
    for divider in &placement.dividers {
        for y in divider.y..divider.y + divider.rows {
            grid.fill(divider.x, y, 1, '│', style(DIM, false));
        }
    }
    status::draw(grid, model);
}

/// Cells outside the session's area (a larger client under `smallest`).
fn letterbox(grid: &mut Grid, cols: u16, rows: u16, height: u16) {
    let dots = style(DIM, false);
    for y in 0..height {
        let from = if y < rows { cols } else { 0 };
        for x in from..grid.cols {
            grid.fill(x, y, 1, '·', dots);
        }
    }
}

fn title_row(grid: &mut Grid, model: &Model, placed: &Placed, active: bool) {
    let area = placed.area;
    let line = style(if active { ACCENT } else { DIM }, false);
    grid.fill(area.x, area.y, area.cols, '─', line);
    let view = model.pane_view(placed.pane);
    let title = view.and_then(|v| v.title.clone()).unwrap_or_default();
    let mut label = format!(" {} ", placed.pane);
    if !title.is_empty() {
        label = format!(" {} {} ", placed.pane, title);
    }
    let max_x = area.x + area.cols;
    let mut x = area.x + 1;
    if view.is_some_and(|v| v.recording) {
        x = grid.put_str(x, area.y, " ●", style(CellColor::Palette(1), true), max_x);
    }
    let text = style(if active { ACCENT } else { CellColor::Default }, active);
    x = grid.put_str(x, area.y, &label, text, max_x);
    if let Some(lease) = view.and_then(|v| v.lease.as_ref()) {
        let taken = format!(
            " taken by {} ",
            phux_core::limits::for_display(&lease.holder)
        );
        grid.put_str(x, area.y, &taken, style(CellColor::Palette(3), true), max_x);
    }
}

fn content(grid: &mut Grid, feeds: &PaneFeeds, placed: &Placed) {
    if let Some(feed) = feeds.get(placed.pane) {
        put_cells(grid, placed.content, &feed.rows);
    }
}

/// A pane's screen, row by row of cells with their colours and attributes, into `rect`
/// (clipped to it; a wide glyph that would straddle its right edge is left out).
pub fn put_cells(grid: &mut Grid, rect: Rect, rows: &[Vec<CellData>]) {
    for (row, cells) in rows.iter().enumerate().take(usize::from(rect.rows)) {
        let row = row as u16;
        for (col, cell) in cells.iter().enumerate().take(usize::from(rect.cols)) {
            if cell.width == phux_core::engine::CellWidth::SpacerTail {
                continue;
            }
            let col = col as u16;
            if cell.width == phux_core::engine::CellWidth::Wide && col + 1 >= rect.cols {
                continue;
            }
            grid.set_copy(rect.x + col, rect.y + row, cell);
        }
    }
}

pub fn cursor(feeds: &PaneFeeds, placed: &Placed) -> Option<GridCursor> {
    let feed = feeds.get(placed.pane)?;
    grid_cursor(feed.cursor, feed.shape, placed.content)
}

/// Where a pane's cursor `at` (of shape `shape`) is on the outer terminal when the pane's
/// cells are at `rect`; None when it is hidden or outside.
pub fn grid_cursor(at: Cursor, shape: ShapeTracker, rect: Rect) -> Option<GridCursor> {
    (at.visible && at.x < rect.cols && at.y < rect.rows).then(|| GridCursor {
        x: rect.x + at.x,
        y: rect.y + at.y,
        shape: shape.shape,
        blinking: shape.blinking,
    })
}
