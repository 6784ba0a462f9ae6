//! The smooth mode's glyphs: TrueType outlines along a fallback chain, antialiased into a few
//! coverage levels, cached per (character, cell width, style). A tile holds levels, not colours,
//! so one cached tile serves every (fg, bg) pair: painting maps level `l` of `L` to the colour
//! `l/L` of the way from bg to fg, and every pixel of a frame is one of those blends.

use std::collections::HashMap;
use std::rc::Rc;

use ab_glyph::Font;

use super::discovery::{self, Face, Family};
use super::options::SmoothSpec;
use super::outline::{self, Placement};
use super::{procedural, Glyph, GlyphCache, CELL_WIDTH, GLYPH_HEIGHT};
use crate::error::EncodeError;

/// A cell's glyph as coverage levels `0..=max_level`, row-major, `width * height` of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoverageTile {
    /// Width in pixels (one or two cells).
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// One level per pixel.
    pub levels: Vec<u8>,
}

/// The styles that change a tile's shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TileStyle {
    /// Bold face (or emboldened).
    pub bold: bool,
    /// Italic face (or slanted).
    pub italic: bool,
    /// Line under the glyph.
    pub underline: bool,
    /// Line through the glyph.
    pub strikethrough: bool,
    /// Line along the top of the cell.
    pub overline: bool,
}

/// Where the decoration lines go, in pixels from the cell's top.
#[derive(Debug, Clone, Copy)]
struct Lines {
    underline: (u32, u32),
    strikethrough: (u32, u32),
    thickness: u32,
}

/// The fonts, cell metrics and tile cache of the smooth mode.
pub struct SmoothFont {
    chain: Vec<Family>,
    bitmap: GlyphCache,
    size_px: f32,
    cell_width: u32,
    cell_height: u32,
    baseline: f32,
    lines: Lines,
    max_level: u8,
    tiles: HashMap<(char, bool, TileStyle), Rc<CoverageTile>>,
}

impl std::fmt::Debug for SmoothFont {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmoothFont")
            .field(
                "fonts",
                &self.chain.iter().map(|f| &f.name).collect::<Vec<_>>(),
            )
            .field("cell", &(self.cell_width, self.cell_height))
            .field("cached", &self.tiles.len())
            .finish()
    }
}

impl SmoothFont {
    /// Loads the chain: the requested fonts, then the bundled one (unless already in it).
    pub fn new(spec: &SmoothSpec) -> Result<SmoothFont, EncodeError> {
        let mut chain = Vec::new();
        for name in &spec.fonts {
            chain.push(discovery::resolve(name)?);
        }
        if !chain.iter().any(|f| f.name == discovery::BUNDLED_FAMILY) {
            chain.push(discovery::bundled());
        }
        let primary = &chain[0].regular;
        let font = &primary.font;
        let k = spec.size_px / font.units_per_em().unwrap_or(1000.0).max(1.0);
        let advance = ['0', 'M', ' ']
            .iter()
            .map(|c| font.glyph_id(*c))
            .find(|id| id.0 != 0)
            .map_or(0.6 * spec.size_px, |id| font.h_advance_unscaled(id) * k);
        let cell_width = (advance + spec.letter_spacing).round().max(1.0) as u32;
        let cell_height = (spec.size_px * spec.line_height).round().max(1.0) as u32;
        let ascent = font.ascent_unscaled() * k;
        let descent = font.descent_unscaled() * k;
        let baseline = ((cell_height as f32 - (ascent - descent)) / 2.0 + ascent).round();
        let lines = line_positions(primary, k, baseline, spec.size_px, cell_height);
        Ok(SmoothFont {
            chain,
            bitmap: GlyphCache::new(),
            size_px: spec.size_px,
            cell_width,
            cell_height,
            baseline,
            lines,
            max_level: spec.coverage_levels.saturating_sub(1).max(1),
            tiles: HashMap::new(),
        })
    }

    /// One cell's size in pixels.
    pub fn cell_size(&self) -> (u32, u32) {
        (self.cell_width, self.cell_height)
    }

    /// The baseline's distance from the cell's top, in pixels.
    pub fn baseline(&self) -> f32 {
        self.baseline
    }

    /// The font size in pixels (the em square).
    pub fn size_px(&self) -> f32 {
        self.size_px
    }

    /// The fonts of the fallback chain as they were asked for (names or files), in order.
    pub fn family_names(&self) -> impl Iterator<Item = &str> {
        self.chain.iter().map(|f| f.name.as_str())
    }

    /// The highest coverage level (full foreground).
    pub fn max_level(&self) -> u8 {
        self.max_level
    }

    /// The tile for `ch` in a one- or two-cell (`wide`) slot with `style`.
    pub fn tile(&mut self, ch: char, wide: bool, style: TileStyle) -> Rc<CoverageTile> {
        let key = (ch, wide, style);
        if let Some(t) = self.tiles.get(&key) {
            return Rc::clone(t);
        }
        let tile = Rc::new(self.render(ch, wide, style));
        self.tiles.insert(key, Rc::clone(&tile));
        tile
    }

    fn render(&mut self, ch: char, wide: bool, style: TileStyle) -> CoverageTile {
        let width = self.cell_width * if wide { 2 } else { 1 };
        let height = self.cell_height;
        let mut coverage = if ch == ' ' || ch == '\0' {
            vec![0.0; width as usize * height as usize]
        } else if let Some(g) = procedural::draw(ch) {
            // Drawn glyphs fill the cell edge to edge, so lines and blocks join.
            scaled_bitmap(&fit_width(g, wide), width, height)
        } else {
            self.outline_coverage(ch, width, style)
                .unwrap_or_else(|| self.unifont_coverage(ch, wide, style, width))
        };
        self.draw_lines(&mut coverage, width, style);
        let max = f32::from(self.max_level);
        CoverageTile {
            width,
            height,
            levels: coverage
                .iter()
                .map(|c| (c.clamp(0.0, 1.0) * max).round() as u8)
                .collect(),
        }
    }

    /// The first font in the chain with an outline for `ch`, in the style's face when the family
    /// has one, else synthesized (bold: thickened by a pixel; italic: slanted).
    fn outline_coverage(&self, ch: char, width: u32, style: TileStyle) -> Option<Vec<f32>> {
        for family in &self.chain {
            if family.regular.font.glyph_id(ch).0 == 0 {
                continue;
            }
            let styled = styled_face(family, style).filter(|f| f.font.glyph_id(ch).0 != 0);
            let (face, synth_bold, synth_italic) = match styled {
                Some(f) => (f, false, false),
                None => (&family.regular, style.bold, style.italic),
            };
            let at = Placement {
                width,
                height: self.cell_height,
                size_px: self.size_px,
                baseline: self.baseline,
                slant: synth_italic,
            };
            let id = face.font.glyph_id(ch);
            if let Some(mut cov) = outline::rasterize(&face.font, id, at) {
                if synth_bold {
                    embolden(&mut cov, width);
                }
                return Some(cov);
            }
        }
        None
    }

    /// Unifont (or the replacement box), scaled to the cell, so no character is ever blank.
    fn unifont_coverage(&mut self, ch: char, wide: bool, style: TileStyle, width: u32) -> Vec<f32> {
        let mut g = self.bitmap.glyph(ch, wide);
        if style.bold {
            g = g.emboldened();
        }
        if style.italic {
            g = g.slanted();
        }
        scaled_bitmap(&g, width, self.cell_height)
    }

    fn draw_lines(&self, coverage: &mut [f32], width: u32, style: TileStyle) {
        let t = self.lines.thickness;
        let mut band = |top: u32, rows: u32| {
            for y in top..(top + rows).min(self.cell_height) {
                let row = y as usize * width as usize;
                coverage[row..row + width as usize].fill(1.0);
            }
        };
        if style.overline {
            band(0, t);
        }
        if style.underline {
            band(self.lines.underline.0, self.lines.underline.1);
        }
        if style.strikethrough {
            band(self.lines.strikethrough.0, self.lines.strikethrough.1);
        }
    }
}

/// The family's face for `style`, when it has one.
fn styled_face(family: &Family, style: TileStyle) -> Option<&Face> {
    match (style.bold, style.italic) {
        (false, false) => Some(&family.regular),
        (true, false) => family.bold.as_ref(),
        (false, true) => family.italic.as_ref(),
        (true, true) => family.bold_italic.as_ref(),
    }
}

/// Underline and strikethrough rows from the primary face's metrics (or a size-based guess).
fn line_positions(face: &Face, k: f32, baseline: f32, size_px: f32, cell_height: u32) -> Lines {
    let thickness = face
        .underline
        .map_or(size_px / 14.0, |(_, t)| t * k)
        .round()
        .max(1.0) as u32;
    let row = |pos_units: f32| {
        let centre = baseline - pos_units * k;
        let top = (centre - thickness as f32 / 2.0).round().max(0.0) as u32;
        (top.min(cell_height.saturating_sub(thickness)), thickness)
    };
    let underline = face.underline.map_or(-0.1 / k * size_px, |(p, _)| p);
    let strike = face.strikeout.map_or(0.3 / k * size_px, |(p, _)| p);
    Lines {
        underline: row(underline),
        strikethrough: row(strike),
        thickness,
    }
}

/// Bold for a family without a bold face: each pixel takes the larger of itself and its left
/// neighbour, so strokes grow one pixel to the right.
fn embolden(coverage: &mut [f32], width: u32) {
    let w = width as usize;
    for row in coverage.chunks_mut(w) {
        for x in (1..w).rev() {
            row[x] = row[x].max(row[x - 1]);
        }
    }
}

/// A drawn glyph at the cell's width: two-cell drawings squeezed into one cell, one-cell
/// drawings repeated in a wide cell so lines still reach both edges.
fn fit_width(g: Glyph, wide: bool) -> Glyph {
    match (g.wide, wide) {
        (true, false) => g.squeezed(),
        (false, true) => {
            let mut out = g;
            out.wide = true;
            for row in &mut out.rows {
                *row |= *row >> CELL_WIDTH;
            }
            out
        }
        _ => g,
    }
}

/// A 1-bit glyph stretched to `width`×`height` by nearest neighbour: full or no coverage.
fn scaled_bitmap(g: &Glyph, width: u32, height: u32) -> Vec<f32> {
    let gw = g.width() as u64;
    let gh = GLYPH_HEIGHT as u64;
    let mut out = Vec::with_capacity(width as usize * height as usize);
    for y in 0..u64::from(height) {
        let sy = (y * gh / u64::from(height)) as usize;
        for x in 0..u64::from(width) {
            let sx = (x * gw / u64::from(width)) as usize;
            out.push(if g.pixel(sx, sy) { 1.0 } else { 0.0 });
        }
    }
    out
}
