//! Glyphs. The bitmap mode: 1-bit glyphs and the cache that picks procedural drawing, Unifont or
//! a replacement box for each character. The smooth mode (`smooth`): TrueType outlines found by
//! `discovery`, rasterized by `outline` into coverage tiles, falling back to the bitmap glyphs.
//! In either mode a wide emoji is drawn in colour from an installed colour font (`color_emoji`).

pub mod color_emoji;
pub mod discovery;
pub mod options;
pub mod outline;
pub mod procedural;
pub mod smooth;
pub mod unifont;

use std::collections::HashMap;

/// Glyph height in pixels at scale 1.
pub const GLYPH_HEIGHT: usize = 16;
/// Narrow glyph (one cell) width in pixels at scale 1.
pub const CELL_WIDTH: usize = 8;

/// Where a glyph came from, which decides whether text styling may reshape it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GlyphKind {
    /// A font glyph: bold and italic reshape it.
    Text,
    /// A drawn glyph (box drawing, blocks, ...): left as drawn so neighbours join seamlessly.
    Drawn,
}

/// A 1-bit glyph of 16 rows, 8 or 16 pixels wide. Bit 15 of each row is the leftmost pixel;
/// a narrow glyph uses bits 15..=8 only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Glyph {
    /// Two cells wide (16 px) rather than one (8 px).
    pub wide: bool,
    /// Text or drawn.
    pub kind: GlyphKind,
    /// The rows, top to bottom.
    pub rows: [u16; GLYPH_HEIGHT],
}

impl Glyph {
    /// An all-background glyph.
    pub const fn empty(wide: bool, kind: GlyphKind) -> Glyph {
        Glyph {
            wide,
            kind,
            rows: [0; GLYPH_HEIGHT],
        }
    }

    /// Width in pixels at scale 1.
    pub const fn width(&self) -> usize {
        if self.wide {
            2 * CELL_WIDTH
        } else {
            CELL_WIDTH
        }
    }

    /// Whether pixel (`x`, `y`) is foreground; out-of-range pixels are background.
    pub fn pixel(&self, x: usize, y: usize) -> bool {
        x < self.width() && y < GLYPH_HEIGHT && self.rows[y] & (0x8000 >> x) != 0
    }

    /// Sets pixel (`x`, `y`) to foreground; out-of-range pixels are ignored.
    pub fn set(&mut self, x: usize, y: usize) {
        if x < self.width() && y < GLYPH_HEIGHT {
            self.rows[y] |= 0x8000 >> x;
        }
    }

    /// Fills the half-open rectangle `[x0, x1) × [y0, y1)`, clipped to the glyph.
    pub fn fill(&mut self, x0: usize, y0: usize, x1: usize, y1: usize) {
        for y in y0..y1.min(GLYPH_HEIGHT) {
            for x in x0..x1.min(self.width()) {
                self.set(x, y);
            }
        }
    }

    /// The mask of pixels that belong to this glyph's width.
    const fn width_mask(&self) -> u16 {
        if self.wide {
            0xFFFF
        } else {
            0xFF00
        }
    }

    /// Bold: OR each row with itself shifted one pixel right (clipped to the glyph's width).
    pub fn emboldened(mut self) -> Glyph {
        let mask = self.width_mask();
        for row in &mut self.rows {
            *row = (*row | (*row >> 1)) & mask;
        }
        self
    }

    /// Italic: shift the upper rows right (2 px for the top third, 1 px for the middle third).
    pub fn slanted(mut self) -> Glyph {
        let mask = self.width_mask();
        for (y, row) in self.rows.iter_mut().enumerate() {
            let shift = (GLYPH_HEIGHT - 1 - y) / 6;
            *row = (*row >> shift) & mask;
        }
        self
    }

    /// A visible stand-in for a character no source can draw: a hollow box.
    pub fn replacement(wide: bool) -> Glyph {
        let mut g = Glyph::empty(wide, GlyphKind::Text);
        let right = g.width() - 2;
        for x in 1..=right {
            g.set(x, 2);
            g.set(x, 13);
        }
        for y in 2..=13 {
            g.set(1, y);
            g.set(right, y);
        }
        g
    }

    /// Squeezes a wide glyph into one cell by OR-ing pixel pairs, for a wide font glyph in a
    /// cell the terminal says is narrow.
    pub fn squeezed(self) -> Glyph {
        if !self.wide {
            return self;
        }
        let mut out = Glyph::empty(false, self.kind);
        for (y, &row) in self.rows.iter().enumerate() {
            for x in 0..CELL_WIDTH {
                if row & (0xC000 >> (2 * x)) != 0 {
                    out.set(x, y);
                }
            }
        }
        out
    }

    /// Centres a narrow glyph in two cells, for a narrow font glyph in a wide cell.
    pub fn widened(self) -> Glyph {
        if self.wide {
            return self;
        }
        let mut out = self;
        out.wide = true;
        for row in &mut out.rows {
            *row >>= CELL_WIDTH / 2;
        }
        out
    }
}

/// Looks glyphs up once and remembers them: procedural drawing first, then Unifont, then a
/// replacement box.
pub struct GlyphCache {
    unifont: unifont::UnifontSource,
    cache: HashMap<(char, bool), Glyph>,
}

impl std::fmt::Debug for GlyphCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GlyphCache")
            .field("cached", &self.cache.len())
            .finish()
    }
}

impl Default for GlyphCache {
    fn default() -> Self {
        GlyphCache::new()
    }
}

impl GlyphCache {
    /// An empty cache; Unifont pages are decompressed on first use.
    pub fn new() -> GlyphCache {
        GlyphCache {
            unifont: unifont::UnifontSource::new(),
            cache: HashMap::new(),
        }
    }

    /// The glyph for `ch` in a cell that is `wide` (two columns) or not; always the cell's width.
    pub fn glyph(&mut self, ch: char, wide: bool) -> Glyph {
        if let Some(g) = self.cache.get(&(ch, wide)) {
            return *g;
        }
        let g = self.lookup(ch, wide);
        self.cache.insert((ch, wide), g);
        g
    }

    fn lookup(&mut self, ch: char, wide: bool) -> Glyph {
        let found = procedural::draw(ch).or_else(|| self.unifont.glyph(ch));
        let g = found.unwrap_or_else(|| Glyph::replacement(wide));
        if wide {
            g.widened()
        } else {
            g.squeezed()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bold_ors_a_one_pixel_right_shift() {
        let mut g = Glyph::empty(false, GlyphKind::Text);
        g.set(7, 0);
        g.set(2, 1);
        let b = g.emboldened();
        assert!(b.pixel(7, 0) && !b.pixel(8, 0), "clipped at the cell edge");
        assert!(b.pixel(2, 1) && b.pixel(3, 1));
    }

    #[test]
    fn italic_shifts_top_rows_more_than_bottom_rows() {
        let mut g = Glyph::empty(false, GlyphKind::Text);
        g.set(2, 0);
        g.set(2, 15);
        let i = g.slanted();
        assert!(i.pixel(4, 0));
        assert!(i.pixel(2, 15));
    }

    #[test]
    fn every_cached_glyph_has_the_cell_width_asked_for() {
        let mut cache = GlyphCache::new();
        for ch in ['A', '中', '─', '\u{10FFFD}', '😀'] {
            assert!(!cache.glyph(ch, false).wide, "{ch}");
            assert!(cache.glyph(ch, true).wide, "{ch}");
        }
    }
}
