//! Glyphs drawn from geometry rather than a font, so lines and blocks meet exactly at cell edges.

mod blocks;
mod box_drawing;
mod braille;
mod powerline;
mod sextants;

use super::Glyph;

/// The drawn glyph for `ch`, or `None` when `ch` is not one we draw.
pub fn draw(ch: char) -> Option<Glyph> {
    let cp = u32::from(ch);
    match cp {
        0x2500..=0x257F => box_drawing::draw(cp),
        0x2580..=0x259F => blocks::draw(cp),
        0x2800..=0x28FF => Some(braille::draw(cp)),
        0x1FB00..=0x1FB3B => Some(sextants::draw(cp)),
        0xE0B0..=0xE0B7 => powerline::draw(cp),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_point_in_the_drawn_ranges_is_drawn() {
        let ranges = [
            0x2500..=0x257F,
            0x2580..=0x259F,
            0x2800..=0x28FF,
            0x1FB00..=0x1FB3B,
            0xE0B0..=0xE0B7,
        ];
        for range in ranges {
            for cp in range {
                let ch = char::from_u32(cp).unwrap();
                assert!(draw(ch).is_some(), "U+{cp:04X}");
            }
        }
        assert!(draw('A').is_none());
    }
}
