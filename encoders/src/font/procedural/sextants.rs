//! Sextants U+1FB00–U+1FB3B: 2×3 blocks (rows of 5, 6 and 5 pixels).

use crate::font::{Glyph, GlyphKind, CELL_WIDTH};

/// Row boundaries of the three sextant rows in a 16-pixel cell.
const ROWS: [(usize, usize); 3] = [(0, 5), (5, 11), (11, 16)];

/// The drawn glyph for a code point in U+1FB00..=U+1FB3B.
pub fn draw(cp: u32) -> Glyph {
    let mut g = Glyph::empty(false, GlyphKind::Drawn);
    let half = CELL_WIDTH / 2;
    let mask = pattern(cp);
    for bit in 0..6 {
        if mask & (1 << bit) != 0 {
            let (y0, y1) = ROWS[bit / 2];
            let x0 = (bit % 2) * half;
            g.fill(x0, y0, x0 + half, y1);
        }
    }
    g
}

/// The block's 6-bit mask (bit 0 top left, 1 top right, 2 middle left, ...). Unicode skips the
/// masks already encoded elsewhere: empty, full, left half (21) and right half (42).
fn pattern(cp: u32) -> u32 {
    let mut p = cp.wrapping_sub(0x1FB00) % 60 + 1;
    if p >= 21 {
        p += 1;
    }
    if p >= 42 {
        p += 1;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skipped_halves_are_accounted_for() {
        assert_eq!(pattern(0x1FB00), 1);
        assert_eq!(pattern(0x1FB13), 20);
        assert_eq!(pattern(0x1FB14), 22);
        assert_eq!(pattern(0x1FB27), 41);
        assert_eq!(pattern(0x1FB28), 43);
        assert_eq!(pattern(0x1FB3B), 62);
    }

    #[test]
    fn first_sextant_is_the_top_left_block() {
        let g = draw(0x1FB00);
        assert!(g.pixel(0, 0) && g.pixel(3, 4));
        assert!(!g.pixel(4, 0) && !g.pixel(0, 5));
    }
}
