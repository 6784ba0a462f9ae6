//! Braille patterns U+2800–U+28FF: 2×4 dots of 2×2 pixels.

use crate::font::{Glyph, GlyphKind};

/// (column, row) of each dot, in bit order: dots 1–3 and 7 on the left, 4–6 and 8 on the right.
const DOTS: [(usize, usize); 8] = [
    (0, 0),
    (0, 1),
    (0, 2),
    (1, 0),
    (1, 1),
    (1, 2),
    (0, 3),
    (1, 3),
];

/// The drawn glyph for a code point in U+2800..=U+28FF.
pub fn draw(cp: u32) -> Glyph {
    let bits = cp.wrapping_sub(0x2800) & 0xFF;
    let mut g = Glyph::empty(false, GlyphKind::Drawn);
    for (bit, (col, row)) in DOTS.iter().enumerate() {
        if bits & (1 << bit) != 0 {
            let (x, y) = (1 + col * 4, 1 + row * 4);
            g.fill(x, y, x + 2, y + 2);
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_one_is_top_left_and_dot_eight_bottom_right() {
        let g = draw(0x2801);
        assert!(g.pixel(1, 1) && g.pixel(2, 2) && !g.pixel(5, 1));
        let g = draw(0x2880);
        assert!(g.pixel(5, 13) && g.pixel(6, 14) && !g.pixel(1, 13));
        assert_eq!(draw(0x2800).rows, [0; 16]);
    }
}
