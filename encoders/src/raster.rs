//! Rasterizes screens into a persistent pixel canvas, redrawing only cells that changed and
//! reporting the exact bounding box of the pixels that changed.

use std::collections::HashMap;

use crate::error::EncodeError;
use crate::font::color_emoji::ColorEmoji;
use crate::font::options::{FontMode, FontOptions};
use crate::font::smooth::{SmoothFont, TileStyle};
use crate::font::{Glyph, GlyphCache, GlyphKind, CELL_WIDTH, GLYPH_HEIGHT};
use crate::screen::{CellAttrs, CellWidth, RenderCell, RenderScreen};
use crate::theme::{Rgb, Theme};

/// Largest supported `--scale`.
pub const MAX_SCALE: u8 = 16;

/// A pixel rectangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rect {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width, at least 1.
    pub width: u32,
    /// Height, at least 1.
    pub height: u32,
}

/// The image as `0x00RRGGBB` pixels, row-major.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Canvas {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height` pixels.
    pub pixels: Vec<u32>,
}

/// A value no real pixel has, so the first frame counts as changed everywhere.
const UNDRAWN: u32 = 0xFF00_0000;

impl Canvas {
    /// The pixel at (`x`, `y`) as a colour, or `None` outside the canvas.
    pub fn pixel(&self, x: u32, y: u32) -> Option<Rgb> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = y as usize * self.width as usize + x as usize;
        self.pixels.get(i).map(|p| Rgb::from_packed(*p))
    }

    /// Copies the pixels of `rect` (which must lie inside the canvas) row by row.
    pub fn extract(&self, rect: Rect) -> Vec<u32> {
        let mut out = Vec::with_capacity(rect.width as usize * rect.height as usize);
        for y in rect.y..rect.y + rect.height {
            let start = y as usize * self.width as usize + rect.x as usize;
            if let Some(row) = self.pixels.get(start..start + rect.width as usize) {
                out.extend_from_slice(row);
            }
        }
        out
    }
}

/// Everything that decides how one cell looks; a cell is redrawn only when this changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct CellLook {
    text: char,
    /// The grapheme when it is more than `text`: its number in [`Rasterizer::graphemes`]
    /// plus one, else 0.
    cluster: u32,
    wide: bool,
    fg: u32,
    bg: u32,
    attrs: CellAttrs,
}

/// The attributes that change a glyph's shape (colour-only ones are folded into fg/bg).
const SHAPE_ATTRS: u16 = CellAttrs::BOLD.0
    | CellAttrs::ITALIC.0
    | CellAttrs::UNDERLINE.0
    | CellAttrs::STRIKETHROUGH.0
    | CellAttrs::OVERLINE.0;

/// Accumulates the bounding box of changed pixels.
#[derive(Debug, Default)]
struct DirtyBox {
    bounds: Option<(u32, u32, u32, u32)>,
}

impl DirtyBox {
    fn add(&mut self, x0: u32, x1: u32, y: u32) {
        self.bounds = Some(match self.bounds {
            None => (x0, y, x1, y),
            Some((a, b, c, d)) => (a.min(x0), b.min(y), c.max(x1), d.max(y)),
        });
    }

    fn rect(&self) -> Option<Rect> {
        self.bounds.map(|(x0, y0, x1, y1)| Rect {
            x: x0,
            y: y0,
            width: x1 - x0 + 1,
            height: y1 - y0 + 1,
        })
    }
}

/// The largest canvas drawn, in pixels (4096×4096, 64 MB at 4 bytes a pixel). The encoder
/// keeps the canvas, a few changed rectangles in flight and one frame being compressed, so this
/// bounds its memory to a few hundred MB whatever the recording claims.
pub const MAX_CANVAS_PIXELS: u64 = 4096 * 4096;

/// How cells become pixels: the 1-bit bitmap font at an integer scale, or antialiased
/// TrueType glyphs.
#[derive(Debug)]
enum CellDrawing {
    Bitmap(GlyphCache),
    Smooth(SmoothFont),
}

/// Draws screens of a fixed grid size into one canvas.
#[derive(Debug)]
pub struct Rasterizer {
    theme: Theme,
    scale: u32,
    cell: (u32, u32),
    cols: u16,
    rows: u16,
    canvas: Canvas,
    drawn: Vec<Option<CellLook>>,
    drawing: CellDrawing,
    /// Wide emoji in colour, in either drawing, when a colour font is installed.
    emoji: ColorEmoji,
    /// Every grapheme of more than one character met so far, numbered in order, so a cell's
    /// look stays a small copyable value.
    graphemes: Vec<String>,
    grapheme_numbers: HashMap<String, u32>,
    row_buf: Vec<u32>,
}

impl Rasterizer {
    /// A rasterizer for a `cols`×`rows` grid at integer `scale` (1..=16), in the bitmap font.
    pub fn new(cols: u16, rows: u16, theme: Theme, scale: u8) -> Result<Rasterizer, EncodeError> {
        Rasterizer::with_font(cols, rows, theme, scale, &FontOptions::default())
    }

    /// A rasterizer drawing with `font` (the bitmap font, or TrueType glyphs at a pixel size;
    /// `scale` multiplies either).
    pub fn with_font(
        cols: u16,
        rows: u16,
        theme: Theme,
        scale: u8,
        font: &FontOptions,
    ) -> Result<Rasterizer, EncodeError> {
        if scale == 0 || scale > MAX_SCALE {
            return Err(EncodeError::BadScale(scale));
        }
        let s = u32::from(scale);
        let (drawing, cell) = match font.mode(scale)? {
            FontMode::Bitmap => (
                CellDrawing::Bitmap(GlyphCache::new()),
                (CELL_WIDTH as u32 * s, GLYPH_HEIGHT as u32 * s),
            ),
            FontMode::Smooth(spec) => {
                let smooth = SmoothFont::new(&spec)?;
                let cell = smooth.cell_size();
                (CellDrawing::Smooth(smooth), cell)
            }
        };
        let width = u32::from(cols) * cell.0;
        let height = u32::from(rows) * cell.1;
        if width == 0 || height == 0 {
            return Err(EncodeError::BadDimensions {
                width: width.into(),
                height: height.into(),
                max: u64::from(u16::MAX),
            });
        }
        // Before the canvas is allocated: a cast's header alone could ask for terabytes.
        let pixels = u64::from(width) * u64::from(height);
        if pixels > MAX_CANVAS_PIXELS {
            return Err(EncodeError::CanvasTooLarge {
                cols,
                rows,
                scale,
                width: width.into(),
                height: height.into(),
            });
        }
        Ok(Rasterizer {
            theme,
            scale: s,
            cell,
            cols,
            rows,
            canvas: Canvas {
                width,
                height,
                pixels: vec![UNDRAWN; width as usize * height as usize],
            },
            drawn: vec![None; usize::from(cols) * usize::from(rows)],
            drawing,
            emoji: ColorEmoji::new(2 * cell.0, cell.1),
            graphemes: Vec::new(),
            grapheme_numbers: HashMap::new(),
            row_buf: Vec::new(),
        })
    }

    /// The current image.
    pub fn canvas(&self) -> &Canvas {
        &self.canvas
    }

    /// Draws `screen` over the previous one and returns the bounding box of the pixels that
    /// changed, or `None` when the image is identical. Cells outside `screen` are blank.
    pub fn draw(&mut self, screen: &RenderScreen) -> Option<Rect> {
        let mut dirty = DirtyBox::default();
        let cursor = cursor_head(screen);
        for y in 0..self.rows {
            let mut x = 0;
            while x < self.cols {
                let joined = screen
                    .cell(x, y)
                    .is_some_and(crate::emoji_join::may_start)
                    .then(|| self.draw_joined(screen, x, y, cursor, &mut dirty))
                    .flatten();
                if let Some(span) = joined {
                    x = x.saturating_add(span);
                    continue;
                }
                let span = self.draw_cell(screen, x, y, cursor == Some((x, y)), &mut dirty);
                x = x.saturating_add(span);
            }
        }
        dirty.rect()
    }

    /// Draws cell (`x`, `y`) if its look changed; returns how many columns it covers.
    fn draw_cell(
        &mut self,
        screen: &RenderScreen,
        x: u16,
        y: u16,
        cursor: bool,
        dirty: &mut DirtyBox,
    ) -> u16 {
        let blank = RenderCell::blank();
        let cell = screen.cell(x, y).unwrap_or(&blank);
        let wide = cell.wide == CellWidth::Wide && x + 1 < self.cols;
        let mut look = self.look(cell, wide, cursor);
        if let Some(grapheme) = screen.grapheme(cell).filter(|_| wide) {
            look.cluster = self.grapheme_number(grapheme);
        }
        self.repaint(look, x, y, dirty);
        if wide {
            2
        } else {
            1
        }
    }

    /// Paints `look` at (`x`, `y`) unless the cell already shows it.
    fn repaint(&mut self, look: CellLook, x: u16, y: u16, dirty: &mut DirtyBox) {
        let index = usize::from(y) * usize::from(self.cols) + usize::from(x);
        if self.drawn[index] != Some(look) {
            self.paint(look, x, y, dirty);
            self.drawn[index] = Some(look);
            if look.wide {
                // The spacer is painted by this cell; forget it so it repaints when uncovered.
                self.drawn[index + 1] = None;
            }
        }
    }

    /// Draws the emoji sequence whose parts start at (`x`, `y`) in cells of their own (see
    /// `emoji_join`) as the colour font's one glyph, in the first part's two columns, and
    /// the other parts' cells blank; returns the columns covered. `None` (draw cell by cell)
    /// when no sequence starts there, the font has no glyph for it, or the cursor is on it.
    fn draw_joined(
        &mut self,
        screen: &RenderScreen,
        x: u16,
        y: u16,
        cursor: Option<(u16, u16)>,
        dirty: &mut DirtyBox,
    ) -> Option<u16> {
        let (text, span) = crate::emoji_join::candidates(screen, x, y)
            .into_iter()
            .find(|(text, _)| self.emoji.draws_whole(text))?;
        if x.checked_add(span)? > self.cols
            || cursor.is_some_and(|(cx, cy)| cy == y && (x..x + span).contains(&cx))
        {
            return None;
        }
        let blank = RenderCell::blank();
        let mut look = self.look(screen.cell(x, y).unwrap_or(&blank), true, false);
        look.cluster = self.grapheme_number(&text);
        self.repaint(look, x, y, dirty);
        for col in (x + 2..x + span).step_by(2) {
            let part = screen.cell(col, y).unwrap_or(&blank);
            let hidden = RenderCell {
                text: ' ',
                cluster: 0,
                ..*part
            };
            let look = self.look(&hidden, true, false);
            self.repaint(look, col, y, dirty);
        }
        Some(span)
    }

    fn grapheme_number(&mut self, grapheme: &str) -> u32 {
        if let Some(n) = self.grapheme_numbers.get(grapheme) {
            return *n;
        }
        self.graphemes.push(grapheme.to_string());
        let n = u32::try_from(self.graphemes.len()).unwrap_or(0);
        self.grapheme_numbers.insert(grapheme.to_string(), n);
        n
    }

    /// Resolves colours and attributes: inverse and the cursor swap, faint blends, invisible hides.
    fn look(&self, cell: &RenderCell, wide: bool, cursor: bool) -> CellLook {
        let (fg, bg) = cell_colors(&self.theme, cell, cursor);
        let text = match cell.wide {
            CellWidth::SpacerTail => ' ',
            _ => cell.text,
        };
        CellLook {
            text,
            cluster: 0,
            wide,
            fg: fg.packed(),
            bg: bg.packed(),
            attrs: CellAttrs(cell.attrs.0 & SHAPE_ATTRS),
        }
    }

    /// One cell's size in pixels.
    pub fn cell_size(&self) -> (u32, u32) {
        self.cell
    }

    /// Writes one cell's pixels into the canvas, recording which pixels changed.
    fn paint(&mut self, look: CellLook, x: u16, y: u16, dirty: &mut DirtyBox) {
        let px0 = u32::from(x) * self.cell.0;
        let py0 = u32::from(y) * self.cell.1;
        // Only wide cells: a narrow one holds the text form (a digit, `©`, a `❤` without
        // VS16), which emoji fonts carry too. fg == bg is invisible text, drawn as such.
        if look.wide && look.fg != look.bg {
            let grapheme = usize::try_from(look.cluster)
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| self.graphemes.get(i));
            let tile = match grapheme {
                Some(g) => self.emoji.sequence_tile(g, look.bg),
                None => self.emoji.tile(look.text, look.bg),
            };
            if let Some(tile) = tile {
                let width = 2 * self.cell.0 as usize;
                for (ty, row) in tile.chunks(width).enumerate() {
                    self.write_row(px0, py0 + ty as u32, row, dirty);
                }
                return;
            }
        }
        let glyph = match &mut self.drawing {
            CellDrawing::Bitmap(glyphs) => styled_glyph(glyphs, look),
            CellDrawing::Smooth(font) => {
                let tile = font.tile(look.text, look.wide, tile_style(look.attrs));
                let blends = blend_levels(look.fg, look.bg, font.max_level());
                let mut row = std::mem::take(&mut self.row_buf);
                for (ty, levels) in tile.levels.chunks(tile.width as usize).enumerate() {
                    row.clear();
                    row.extend(levels.iter().map(|l| blends[usize::from(*l)]));
                    self.write_row(px0, py0 + ty as u32, &row, dirty);
                }
                self.row_buf = row;
                return;
            }
        };
        let s = self.scale;
        let gw = glyph.width() as u32;
        let mut row = std::mem::take(&mut self.row_buf);
        for (gy, bits) in glyph.rows.iter().enumerate() {
            row.clear();
            for gx in 0..gw {
                let on = bits & (0x8000 >> gx) != 0;
                let color = if on { look.fg } else { look.bg };
                row.extend(std::iter::repeat_n(color, s as usize));
            }
            for sy in 0..s {
                self.write_row(px0, py0 + gy as u32 * s + sy, &row, dirty);
            }
        }
        self.row_buf = row;
    }

    /// Overwrites a run of pixels starting at (`x`, `y`) and records the changed span.
    fn write_row(&mut self, x: u32, y: u32, row: &[u32], dirty: &mut DirtyBox) {
        let start = y as usize * self.canvas.width as usize + x as usize;
        let Some(dst) = self.canvas.pixels.get_mut(start..start + row.len()) else {
            return;
        };
        let first = dst.iter().zip(row).position(|(a, b)| a != b);
        if let Some(first) = first {
            let last = dst
                .iter()
                .zip(row)
                .rposition(|(a, b)| a != b)
                .unwrap_or(first);
            dst.copy_from_slice(row);
            dirty.add(x + first as u32, x + last as u32, y);
        }
    }
}

/// A cell's foreground and background as drawn: inverse and the cursor swap them (a theme's
/// cursor colour fills the block instead), faint blends the foreground halfway to the
/// background, invisible hides it. Every image format resolves a cell's colours here.
pub(crate) fn cell_colors(theme: &Theme, cell: &RenderCell, cursor: bool) -> (Rgb, Rgb) {
    let mut fg = theme.resolve_fg(cell.fg);
    let mut bg = theme.resolve_bg(cell.bg);
    match theme.cursor.filter(|_| cursor) {
        Some(block) => (fg, bg) = (bg, block),
        None if cell.attrs.contains(CellAttrs::INVERSE) != cursor => {
            std::mem::swap(&mut fg, &mut bg);
        }
        None => {}
    }
    if cell.attrs.contains(CellAttrs::FAINT) {
        fg = fg.midpoint(bg);
    }
    if cell.attrs.contains(CellAttrs::INVISIBLE) {
        fg = bg;
    }
    (fg, bg)
}

/// The cell the cursor is drawn on: the head of a wide glyph when it sits on the spacer.
pub(crate) fn cursor_head(screen: &RenderScreen) -> Option<(u16, u16)> {
    let c = screen.cursor.filter(|c| c.visible)?;
    let on_tail = screen
        .cell(c.x, c.y)
        .is_some_and(|cell| cell.wide == CellWidth::SpacerTail);
    if on_tail && c.x > 0 {
        Some((c.x - 1, c.y))
    } else {
        Some((c.x, c.y))
    }
}

/// The shape-changing attributes of a smooth tile.
fn tile_style(attrs: CellAttrs) -> TileStyle {
    TileStyle {
        bold: attrs.contains(CellAttrs::BOLD),
        italic: attrs.contains(CellAttrs::ITALIC),
        underline: attrs.contains(CellAttrs::UNDERLINE),
        strikethrough: attrs.contains(CellAttrs::STRIKETHROUGH),
        overline: attrs.contains(CellAttrs::OVERLINE),
    }
}

/// The colours of coverage levels `0..=max` between `bg` (0) and `fg` (max), per channel
/// `bg + (fg - bg) * l / max`, rounded: the only colours a smooth cell has.
pub fn blend_levels(fg: u32, bg: u32, max: u8) -> Vec<u32> {
    let (f, b) = (Rgb::from_packed(fg), Rgb::from_packed(bg));
    let m = i32::from(max.max(1));
    let mix = |f: u8, b: u8, l: i32| {
        let (f, b) = (i32::from(f), i32::from(b));
        let v = b + ((f - b) * l * 2 + m * (f - b).signum()) / (2 * m);
        v.clamp(0, 255) as u8
    };
    (0..=m)
        .map(|l| Rgb(mix(f.0, b.0, l), mix(f.1, b.1, l), mix(f.2, b.2, l)).packed())
        .collect()
}

/// The glyph for a look, with bold/italic applied to font glyphs and the lines drawn over it.
fn styled_glyph(glyphs: &mut GlyphCache, look: CellLook) -> Glyph {
    let mut g = if look.text == ' ' || look.text == '\0' {
        Glyph::empty(look.wide, GlyphKind::Text)
    } else {
        glyphs.glyph(look.text, look.wide)
    };
    if g.kind == GlyphKind::Text {
        if look.attrs.contains(CellAttrs::BOLD) {
            g = g.emboldened();
        }
        if look.attrs.contains(CellAttrs::ITALIC) {
            g = g.slanted();
        }
    }
    let full: u16 = if g.wide { 0xFFFF } else { 0xFF00 };
    let lines = [
        (CellAttrs::OVERLINE, 0),
        (CellAttrs::STRIKETHROUGH, 8),
        (CellAttrs::UNDERLINE, 14),
    ];
    for (attr, row) in lines {
        if look.attrs.contains(attr) {
            g.rows[row] = full;
        }
    }
    g
}
