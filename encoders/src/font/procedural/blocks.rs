//! Block elements U+2580–U+259F: eighths, halves, quadrants and the three shades as exact
//! 1-bit patterns.

use crate::font::{Glyph, GlyphKind, CELL_WIDTH, GLYPH_HEIGHT};

const W: usize = CELL_WIDTH;
const H: usize = GLYPH_HEIGHT;

/// The drawn glyph for a code point in U+2580..=U+259F.
pub fn draw(cp: u32) -> Option<Glyph> {
    let mut g = Glyph::empty(false, GlyphKind::Drawn);
    let eighth_rows = |n: usize| n * H / 8;
    match cp {
        0x2580 => g.fill(0, 0, W, H / 2),
        0x2581..=0x2588 => {
            let n = usize::try_from(cp - 0x2580).ok()?;
            g.fill(0, H - eighth_rows(n), W, H);
        }
        0x2589..=0x258F => {
            let n = 8 - usize::try_from(cp - 0x2588).ok()?;
            g.fill(0, 0, n * W / 8, H);
        }
        0x2590 => g.fill(W / 2, 0, W, H),
        0x2591..=0x2593 => shade(&mut g, cp),
        0x2594 => g.fill(0, 0, W, eighth_rows(1)),
        0x2595 => g.fill(W - W / 8, 0, W, H),
        0x2596..=0x259F => quadrants(&mut g, QUADRANTS[usize::try_from(cp - 0x2596).ok()?]),
        _ => return None,
    }
    Some(g)
}

/// Quadrant masks for U+2596..=U+259F: bit 0 upper left, 1 upper right, 2 lower left, 3 lower right.
const QUADRANTS: [u8; 10] = [
    0b0100, 0b1000, 0b0001, 0b1101, 0b1001, 0b0111, 0b1011, 0b0010, 0b0110, 0b1110,
];

fn quadrants(g: &mut Glyph, mask: u8) {
    let (hw, hh) = (W / 2, H / 2);
    let parts = [(0, 0), (hw, 0), (0, hh), (hw, hh)];
    for (bit, (x, y)) in parts.iter().enumerate() {
        if mask & (1 << bit) != 0 {
            g.fill(*x, *y, x + hw, y + hh);
        }
    }
}

/// ░ one pixel in four, ▒ a checkerboard, ▓ three in four; even cell sizes make them tile.
fn shade(g: &mut Glyph, cp: u32) {
    for y in 0..H {
        for x in 0..W {
            let on = match cp {
                0x2591 => x % 2 == 0 && y % 2 == 0,
                0x2592 => (x + y) % 2 == 0,
                _ => !(x % 2 == 1 && y % 2 == 1),
            };
            if on {
                g.set(x, y);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(g: &Glyph) -> u32 {
        g.rows.iter().map(|r| r.count_ones()).sum()
    }

    #[test]
    fn shades_cover_a_quarter_half_and_three_quarters() {
        let total = u32::try_from(W * H).unwrap();
        assert_eq!(count(&draw(0x2591).unwrap()), total / 4);
        assert_eq!(count(&draw(0x2592).unwrap()), total / 2);
        assert_eq!(count(&draw(0x2593).unwrap()), total * 3 / 4);
    }

    #[test]
    fn eighths_and_halves() {
        let full = draw(0x2588).unwrap();
        assert_eq!(count(&full), u32::try_from(W * H).unwrap());
        let lower_eighth = draw(0x2581).unwrap();
        assert!(lower_eighth.pixel(0, H - 1) && !lower_eighth.pixel(0, H - 3));
        let left_eighth = draw(0x258F).unwrap();
        assert!(left_eighth.pixel(0, 0) && !left_eighth.pixel(1, 0));
        let upper = draw(0x2580).unwrap();
        assert!(upper.pixel(W - 1, H / 2 - 1) && !upper.pixel(0, H / 2));
    }

    #[test]
    fn quadrant_upper_left_and_lower_right() {
        let g = draw(0x259A).unwrap();
        assert!(g.pixel(0, 0) && g.pixel(W - 1, H - 1));
        assert!(!g.pixel(W - 1, 0) && !g.pixel(0, H - 1));
    }
}
