//! Rasterizes one TrueType outline into a cell-sized coverage tile: scaled to the font size,
//! squeezed when wider than the cell, centred on the cell, slanted for a synthesized italic.

use ab_glyph::{Font, GlyphId, OutlineCurve, Point};
use ab_glyph_rasterizer::{point, Rasterizer};

/// How far a synthesized italic leans: x moves this much per pixel above the baseline.
pub const SYNTHETIC_SLANT: f32 = 0.2;

/// Where and how a glyph is placed in its tile.
#[derive(Debug, Clone, Copy)]
pub struct Placement {
    /// Tile width and height in pixels.
    pub width: u32,
    /// Tile height.
    pub height: u32,
    /// Font size in pixels (the em square).
    pub size_px: f32,
    /// Baseline, in pixels from the top of the tile.
    pub baseline: f32,
    /// Slant the glyph (synthesized italic).
    pub slant: bool,
}

/// Coverage in 0.0..=1.0 per pixel, row-major, or `None` when the face has no outline for `id`
/// (a blank glyph, or a bitmap-only one such as a colour emoji).
pub fn rasterize<F: Font>(font: &F, id: GlyphId, at: Placement) -> Option<Vec<f32>> {
    let outline = font.outline(id)?;
    let upem = font.units_per_em().unwrap_or(1000.0).max(1.0);
    let k = at.size_px / upem;
    let advance = font.h_advance_unscaled(id) * k;
    let width = at.width as f32;
    // A glyph wider than its cell (CJK from a fallback font in a narrow cell) is squeezed to fit.
    let squeeze = if advance > width && advance > 0.0 {
        width / advance
    } else {
        1.0
    };
    let left = ((width - advance * squeeze) / 2.0).max(0.0);
    let slant = if at.slant { SYNTHETIC_SLANT } else { 0.0 };
    let place = |p: Point| {
        let y_px = p.y * k;
        point(left + p.x * k * squeeze + y_px * slant, at.baseline - y_px)
    };
    let curves: Vec<OutlineCurve> = outline
        .curves
        .iter()
        .map(|c| match *c {
            OutlineCurve::Line(a, b) => OutlineCurve::Line(place(a), place(b)),
            OutlineCurve::Quad(a, b, c) => OutlineCurve::Quad(place(a), place(b), place(c)),
            OutlineCurve::Cubic(a, b, c, d) => {
                OutlineCurve::Cubic(place(a), place(b), place(c), place(d))
            }
        })
        .collect();
    Some(draw(&curves, at.width, at.height))
}

/// Draws placed curves into a `width`×`height` tile; ink outside the tile is clipped.
fn draw(curves: &[OutlineCurve], width: u32, height: u32) -> Vec<f32> {
    let mut out = vec![0.0f32; width as usize * height as usize];
    let points = curves.iter().flat_map(|c| match *c {
        OutlineCurve::Line(a, b) => vec![a, b],
        OutlineCurve::Quad(a, b, c) => vec![a, b, c],
        OutlineCurve::Cubic(a, b, c, d) => vec![a, b, c, d],
    });
    // The control points bound the curves: rasterize into their box, then copy what the tile shows.
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for p in points {
        x0 = x0.min(p.x);
        y0 = y0.min(p.y);
        x1 = x1.max(p.x);
        y1 = y1.max(p.y);
    }
    if !(x0 < x1 && y0 < y1) {
        return out;
    }
    let (ox, oy) = (x0.floor(), y0.floor());
    let bw = (x1.ceil() - ox) as usize + 1;
    let bh = (y1.ceil() - oy) as usize + 1;
    if bw > 4 * width as usize + 64 || bh > 4 * height as usize + 64 {
        return out; // a broken outline: far larger than the cell
    }
    let mut r = Rasterizer::new(bw, bh);
    let shift = |p: Point| point(p.x - ox, p.y - oy);
    for c in curves {
        match *c {
            OutlineCurve::Line(a, b) => r.draw_line(shift(a), shift(b)),
            OutlineCurve::Quad(a, b, c) => r.draw_quad(shift(a), shift(b), shift(c)),
            OutlineCurve::Cubic(a, b, c, d) => {
                r.draw_cubic(shift(a), shift(b), shift(c), shift(d));
            }
        }
    }
    r.for_each_pixel_2d(|x, y, c| {
        let tx = x as i64 + ox as i64;
        let ty = y as i64 + oy as i64;
        if tx >= 0 && ty >= 0 && (tx as u32) < width && (ty as u32) < height {
            out[ty as usize * width as usize + tx as usize] = c.clamp(0.0, 1.0);
        }
    });
    out
}
