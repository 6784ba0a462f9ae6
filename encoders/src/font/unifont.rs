//! GNU Unifont glyphs via the `unifont-bitmap` crate, with missing glyphs reported as `None`.

use unifont_bitmap::Unifont;

use super::{Glyph, GlyphKind, GLYPH_HEIGHT};

/// Wraps the crate's page cache; the crate substitutes U+FFFD for missing code points, which we
/// detect so the caller can draw its own replacement box instead.
pub struct UnifontSource {
    /// Boxed: the crate's page table is ~140 KB and would otherwise be copied on every move.
    font: Box<Unifont>,
    replacement: Option<[u8; 32]>,
}

impl std::fmt::Debug for UnifontSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UnifontSource")
    }
}

impl Default for UnifontSource {
    fn default() -> Self {
        UnifontSource::new()
    }
}

impl UnifontSource {
    /// Opens the embedded font (only a small index is decompressed here).
    pub fn new() -> UnifontSource {
        UnifontSource {
            font: Box::new(Unifont::open()),
            replacement: None,
        }
    }

    /// The Unifont glyph for `ch`, or `None` when Unifont has none (it would show U+FFFD).
    pub fn glyph(&mut self, ch: char) -> Option<Glyph> {
        let fffd = self.replacement_bytes();
        let bytes = self.font.load_bitmap(u32::from(ch)).get_bytes();
        let key = padded(bytes);
        if ch != '\u{FFFD}' && key == fffd {
            return None;
        }
        Some(from_bytes(bytes))
    }

    fn replacement_bytes(&mut self) -> [u8; 32] {
        if let Some(b) = self.replacement {
            return b;
        }
        let b = padded(self.font.load_bitmap(0xFFFD).get_bytes());
        self.replacement = Some(b);
        b
    }
}

/// The glyph bytes padded to 32 so narrow and wide glyphs compare in one type.
fn padded(bytes: &[u8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    let n = bytes.len().min(32);
    out[..n].copy_from_slice(&bytes[..n]);
    out
}

/// Converts Unifont's row bytes (1 byte per row narrow, 2 wide; MSB leftmost) to a [`Glyph`].
fn from_bytes(bytes: &[u8]) -> Glyph {
    let wide = bytes.len() >= 2 * GLYPH_HEIGHT;
    let mut g = Glyph::empty(wide, GlyphKind::Text);
    for (y, row) in g.rows.iter_mut().enumerate() {
        *row = if wide {
            u16::from_be_bytes([bytes[2 * y], bytes[2 * y + 1]])
        } else {
            u16::from(bytes.get(y).copied().unwrap_or(0)) << 8
        };
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_is_narrow_and_cjk_is_wide() {
        let mut src = UnifontSource::new();
        let a = src.glyph('A').unwrap();
        assert!(!a.wide);
        assert!(a.rows.iter().any(|r| *r != 0));
        assert!(src.glyph('中').unwrap().wide);
    }

    #[test]
    fn unassigned_code_point_is_missing() {
        let mut src = UnifontSource::new();
        assert!(src.glyph('\u{10FFFD}').is_none());
        assert!(src.glyph('\u{FFFD}').is_some());
    }
}
