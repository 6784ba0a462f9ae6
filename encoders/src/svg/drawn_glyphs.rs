//! Box drawing, blocks, braille, sextants and powerline shapes as paths, from the same
//! procedural glyphs the raster formats draw: each glyph's lit pixels on the 8×16 cell grid,
//! merged into rectangles across the cells of a row, so a line of `─` is one rectangle and
//! lines meet at cell edges as they do in the GIF (a font's box glyphs leave gaps).

use std::collections::BTreeMap;

use crate::font::{procedural, Glyph, CELL_WIDTH, GLYPH_HEIGHT};

/// Whether `ch` is drawn as a shape rather than set as text.
pub(crate) fn is_drawn(ch: char) -> bool {
    procedural::draw(ch).is_some()
}

/// The drawn glyphs of one row, by fill class.
#[derive(Debug, Default)]
pub(crate) struct DrawnRow {
    /// Per class: lit spans `[x0, x1)` in glyph units (8 a cell), each with the glyph rows lit.
    spans: BTreeMap<String, BTreeMap<(u32, u32), Vec<u32>>>,
}

impl DrawnRow {
    /// Adds `ch` in cell `col` (two cells when `wide`, the drawing repeated as the raster does).
    pub fn add(&mut self, col: u16, ch: char, wide: bool, class: String) {
        let Some(glyph) = procedural::draw(ch) else {
            return;
        };
        let spans = self.spans.entry(class).or_default();
        let cells = if wide { 2 } else { 1 };
        for cell in 0..cells {
            let left = (u32::from(col) + cell) * CELL_WIDTH as u32;
            for gy in 0..GLYPH_HEIGHT {
                for (x0, x1) in lit_runs(&glyph, gy) {
                    let rows = spans.entry((left + x0, left + x1)).or_default();
                    rows.push(gy as u32);
                }
            }
        }
    }

    /// True when nothing was added.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// One `<path>` per class, scaled from glyph units to a `cell_w`×`cell_h` cell.
    pub fn paths(&self, cell_w: u32, cell_h: u32) -> String {
        let mut out = String::new();
        let transform = if (cell_w, cell_h) == (CELL_WIDTH as u32, GLYPH_HEIGHT as u32) {
            String::new()
        } else {
            format!(
                " transform=\"scale({},{})\"",
                super::metrics::number(cell_w as f32 / CELL_WIDTH as f32),
                super::metrics::number(cell_h as f32 / GLYPH_HEIGHT as f32)
            )
        };
        for (class, spans) in &self.spans {
            let mut d = String::new();
            for (rect_x, rect_w, rect_y, rect_h) in rectangles(spans) {
                d.push_str(&format!("M{rect_x} {rect_y}h{rect_w}v{rect_h}h-{rect_w}z"));
            }
            out.push_str(&format!("<path class=\"{class}\"{transform} d=\"{d}\"/>"));
        }
        out
    }
}

/// The runs of lit pixels in row `gy` of `glyph`, as `[x0, x1)`.
fn lit_runs(glyph: &Glyph, gy: usize) -> Vec<(u32, u32)> {
    let mut runs = Vec::new();
    let mut start = None;
    for gx in 0..=CELL_WIDTH {
        let lit = gx < CELL_WIDTH && glyph.pixel(gx, gy);
        match (lit, start) {
            (true, None) => start = Some(gx as u32),
            (false, Some(s)) => {
                runs.push((s, gx as u32));
                start = None;
            }
            _ => {}
        }
    }
    runs
}

/// Spans joined where they touch along a glyph row, then stacked where the same span is lit
/// on consecutive rows: `(x, width, y, height)`.
fn rectangles(spans: &BTreeMap<(u32, u32), Vec<u32>>) -> Vec<(u32, u32, u32, u32)> {
    // Per glyph row, the spans of every cell, joined where one ends as the next begins.
    let mut by_row: BTreeMap<u32, Vec<(u32, u32)>> = BTreeMap::new();
    for (&span, rows) in spans {
        for &gy in rows {
            by_row.entry(gy).or_default().push(span);
        }
    }
    let mut joined: BTreeMap<(u32, u32), Vec<u32>> = BTreeMap::new();
    for (gy, mut row) in by_row {
        row.sort_unstable();
        let mut current: Option<(u32, u32)> = None;
        for (x0, x1) in row {
            current = match current {
                Some((a, b)) if x0 <= b => Some((a, b.max(x1))),
                Some(done) => {
                    joined.entry(done).or_default().push(gy);
                    Some((x0, x1))
                }
                None => Some((x0, x1)),
            };
        }
        if let Some(done) = current {
            joined.entry(done).or_default().push(gy);
        }
    }
    let mut out = Vec::new();
    for ((x0, x1), mut rows) in joined {
        rows.sort_unstable();
        let mut i = 0;
        while i < rows.len() {
            let mut j = i + 1;
            while j < rows.len() && rows[j] == rows[j - 1] + 1 {
                j += 1;
            }
            out.push((x0, x1 - x0, rows[i], (j - i) as u32));
            i = j;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_of_horizontals_is_one_rectangle_across_the_cells() {
        let mut row = DrawnRow::default();
        for col in 0..10 {
            row.add(col, '─', false, "f0".into());
        }
        let paths = row.paths(8, 16);
        assert_eq!(paths.matches('M').count(), 1, "{paths}");
        assert!(paths.contains("M0 7h80v1h-80z"), "{paths}");
    }

    #[test]
    fn a_full_block_is_one_rectangle_scaled_to_the_cell() {
        let mut row = DrawnRow::default();
        row.add(2, '█', false, "f1".into());
        let paths = row.paths(16, 32);
        assert!(
            paths.contains("scale(2,2)") && paths.contains("M16 0h8v16h-8z"),
            "{paths}"
        );
        assert!(is_drawn('│') && !is_drawn('a'));
    }
}
