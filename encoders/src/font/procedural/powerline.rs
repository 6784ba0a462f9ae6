//! Powerline separators U+E0B0–U+E0B7: solid and thin triangles and half circles.

use crate::font::{Glyph, GlyphKind, CELL_WIDTH, GLYPH_HEIGHT};

/// The drawn glyph for a code point in U+E0B0..=U+E0B7.
pub fn draw(cp: u32) -> Option<Glyph> {
    let mut g = Glyph::empty(false, GlyphKind::Drawn);
    let (solid, round) = match cp {
        0xE0B0 | 0xE0B2 => (true, false),
        0xE0B1 | 0xE0B3 => (false, false),
        0xE0B4 | 0xE0B6 => (true, true),
        0xE0B5 | 0xE0B7 => (false, true),
        _ => return None,
    };
    let pointing_left = matches!(cp, 0xE0B2 | 0xE0B3 | 0xE0B6 | 0xE0B7);
    let half_h = GLYPH_HEIGHT as f64 / 2.0;
    for y in 0..GLYPH_HEIGHT {
        // How far the shape reaches into the cell on this row, in pixels.
        let dy = ((y as f64 + 0.5) - half_h).abs() / half_h;
        let reach = if round {
            (1.0 - dy * dy).max(0.0).sqrt()
        } else {
            1.0 - dy
        } * CELL_WIDTH as f64;
        let n = (reach.round() as usize).min(CELL_WIDTH);
        let (a, b) = if solid {
            (0, n)
        } else {
            (n.saturating_sub(1), n)
        };
        let (a, b) = if pointing_left {
            (CELL_WIDTH - b, CELL_WIDTH - a)
        } else {
            (a, b)
        };
        g.fill(a, y, b, y + 1);
    }
    Some(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solid_triangle_is_full_height_at_its_base() {
        let g = draw(0xE0B0).unwrap();
        assert!(g.pixel(0, 0) && g.pixel(0, GLYPH_HEIGHT - 1));
        assert!(g.pixel(CELL_WIDTH - 1, 7) && !g.pixel(CELL_WIDTH - 1, 0));
        let l = draw(0xE0B2).unwrap();
        assert!(l.pixel(CELL_WIDTH - 1, 0) && l.pixel(0, 8) && !l.pixel(0, 0));
    }

    #[test]
    fn thin_separator_is_an_outline() {
        let g = draw(0xE0B1).unwrap();
        for row in g.rows {
            assert!(row.count_ones() <= 1);
        }
    }
}
