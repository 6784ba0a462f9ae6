//! Colour emoji: the PNG bitmaps (CBDT/CBLC or sbix) of a colour emoji font installed in
//! fontconfig's directories (Debian's `fonts-noto-color-emoji`), scaled into a two-cell slot,
//! composited over the cell's background and cut to a few colours. Without such a font, or for
//! a character it lacks, the caller draws the glyph as before.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::discovery;

/// Colours one emoji keeps besides its cell's background (median cut). An emoji drawn a dozen
/// pixels tall has up to a couple of hundred distinct ones (gradients, edges blended into the
/// background); emoji are flat drawings, and 16 look the same at this size.
pub const EMOJI_COLORS: usize = 16;

/// Colours all emoji of a recording share. A GIF palette holds 256 colours and antialiased text
/// needs a few per colour pair; a dozen emoji of 16 colours each would push every frame showing
/// them into a palette of its own. Each emoji's colours are snapped to ones earlier emoji
/// brought when close ([`SAME_COLOR`]), and past this many to the nearest of them.
pub const SHARED_EMOJI_COLORS: usize = 64;

/// Two colours this close (squared distance in RGB) are one for an emoji.
const SAME_COLOR: u32 = 3 * 16 * 16;

/// An emoji's pixels over one background, `width * height`, row-major.
pub type Tile = Rc<[u32]>;

/// A colour font's bytes. It is parsed again for each new glyph: parsing reads only the table
/// directory, and the tiles are cached.
struct EmojiFont {
    data: Vec<u8>,
    index: u32,
}

/// Emoji tiles of one slot size, from the colour font found on first use.
pub struct ColorEmoji {
    width: u32,
    height: u32,
    /// Where to look: `None` for [`discovery::font_dirs`].
    dirs: Option<Vec<PathBuf>>,
    /// `None` until looked for; `Some(None)` when there is no colour font.
    font: Option<Option<EmojiFont>>,
    /// Per background, per grapheme.
    tiles: HashMap<u32, HashMap<String, Option<Tile>>>,
    /// Per sequence: whether the font has one glyph for all of it.
    whole: HashMap<String, bool>,
    /// The colours emoji drawn so far use, in order of first use.
    shared: Vec<u32>,
}

impl std::fmt::Debug for ColorEmoji {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ColorEmoji")
            .field("slot", &(self.width, self.height))
            .field("found", &self.font.as_ref().map(Option::is_some))
            .field("cached", &self.tiles.len())
            .finish()
    }
}

impl ColorEmoji {
    /// Tiles of `width`×`height` pixels (a wide cell's), from a font in fontconfig's directories.
    pub fn new(width: u32, height: u32) -> ColorEmoji {
        ColorEmoji {
            width,
            height,
            dirs: None,
            font: None,
            tiles: HashMap::new(),
            whole: HashMap::new(),
            shared: Vec::new(),
        }
    }

    /// The same, looking for the font in `dirs` only.
    pub fn in_dirs(width: u32, height: u32, dirs: Vec<PathBuf>) -> ColorEmoji {
        ColorEmoji {
            dirs: Some(dirs),
            ..ColorEmoji::new(width, height)
        }
    }

    /// Whether a colour font was found (looking for it now if not yet done).
    pub fn available(&mut self) -> bool {
        self.font().is_some()
    }

    /// Whether the font draws all of `grapheme` (a sequence of several characters) as one
    /// glyph, not only its first character; false without a colour font.
    pub fn draws_whole(&mut self, grapheme: &str) -> bool {
        if let Some(known) = self.whole.get(grapheme) {
            return *known;
        }
        let found = self.font().is_some_and(|font| {
            ttf_parser::Face::parse(&font.data, font.index)
                .ok()
                .and_then(|face| sequence_glyph(&face, grapheme))
                .is_some()
        });
        self.whole.insert(grapheme.to_string(), found);
        found
    }

    /// `ch` in colour over `bg` (`0x00RRGGBB`) as `width * height` pixels, row-major, or `None`
    /// when there is no colour font or it has no bitmap for `ch`.
    pub fn tile(&mut self, ch: char, bg: u32) -> Option<Tile> {
        self.sequence_tile(ch.encode_utf8(&mut [0; 4]), bg)
    }

    /// A whole grapheme in colour, as [`ColorEmoji::tile`]: the font's one glyph for the
    /// sequence (a flag from its two letters, a ZWJ sequence, a skin tone) when it has one,
    /// else the glyph of its first character.
    pub fn sequence_tile(&mut self, grapheme: &str, bg: u32) -> Option<Tile> {
        let keycap = grapheme.ends_with(KEYCAP);
        if !(keycap || grapheme.chars().next().is_some_and(might_be_emoji)) {
            return None;
        }
        if let Some(t) = self.tiles.get(&bg).and_then(|m| m.get(grapheme)) {
            return t.clone();
        }
        let (width, height) = (self.width, self.height);
        let image = self.font().and_then(|font| bitmap(font, grapheme, height));
        let tile = image.map(|image| {
            let mut pixels = composite(&image.fit(width, height), bg);
            reduce_colors(&mut pixels, bg, EMOJI_COLORS);
            self.share_colors(&mut pixels, bg);
            Rc::from(pixels)
        });
        let for_bg = self.tiles.entry(bg).or_default();
        for_bg.insert(grapheme.to_string(), tile.clone());
        tile
    }

    /// Replaces the colours of `pixels` other than `bg` by shared ones: the nearest when it is
    /// as good as the same or the budget is spent, else the colour itself, now shared.
    fn share_colors(&mut self, pixels: &mut [u32], bg: u32) {
        let mut mapped: HashMap<u32, u32> = HashMap::new();
        for p in pixels.iter_mut().filter(|p| **p != bg) {
            if let Some(m) = mapped.get(p) {
                *p = *m;
                continue;
            }
            let nearest = self
                .shared
                .iter()
                .map(|c| (distance(*c, *p), *c))
                .min_by_key(|(d, _)| *d);
            let m = match nearest {
                Some((d, c)) if d <= SAME_COLOR || self.shared.len() >= SHARED_EMOJI_COLORS => c,
                _ => {
                    self.shared.push(*p);
                    *p
                }
            };
            mapped.insert(*p, m);
            *p = m;
        }
    }

    fn font(&mut self) -> Option<&EmojiFont> {
        if self.font.is_none() {
            let dirs = self.dirs.clone().unwrap_or_else(discovery::font_dirs);
            self.font = Some(find_font(&dirs));
        }
        self.font.as_ref().and_then(Option::as_ref)
    }
}

/// The colour emoji font rendering would use (the first in fontconfig's directories whose
/// name says emoji and that has colour bitmaps), or `None`: emoji are then drawn as the text
/// font's outlines, in one colour. For `doctor` and `rec`'s warning.
pub fn installed_font() -> Option<PathBuf> {
    let mut files = Vec::new();
    for dir in discovery::font_dirs() {
        discovery::walk(&dir, 0, &mut files);
    }
    files.sort();
    files
        .into_iter()
        .filter(|p| names_emoji(p))
        .find(|path| load_font(path).is_some())
}

/// Whether `text` holds an emoji a colour font would draw: the pictograph planes and the two
/// common emoji of the symbol blocks. Narrower than [`might_be_emoji`] (which decides what to
/// look up at all) on purpose: the box drawing, arrows and dingbats of every full-screen
/// program lie in its ranges, and a recording of `top` is not a recording of emoji.
pub fn has_emoji(text: &str) -> bool {
    text.chars()
        .any(|c| matches!(u32::from(c), 0x1F000..=0x1FAFF) || c == '\u{2764}' || c == '\u{2705}')
}

/// Whether `ch` lies where emoji are encoded (symbols, dingbats, the CJK symbols an emoji font
/// carries, the supplementary planes' pictographs). Everything else (CJK text, kana, Hangul)
/// never loads the font, so a screen of Chinese costs nothing more.
fn might_be_emoji(ch: char) -> bool {
    matches!(u32::from(ch),
        0x2000..=0x2BFF | 0x3030 | 0x303D | 0x3297 | 0x3299 | 0x1F000..=0x1FAFF)
}

/// The first face with colour bitmaps in a font file whose name says emoji, in `dirs`. Only
/// those files are read: a colour font is ~10 MB, and every installed one names itself so.
fn find_font(dirs: &[PathBuf]) -> Option<EmojiFont> {
    let mut files = Vec::new();
    for dir in dirs {
        discovery::walk(dir, 0, &mut files);
    }
    files.sort();
    files
        .iter()
        .filter(|p| names_emoji(p))
        .find_map(|path| load_font(path))
}

fn names_emoji(path: &Path) -> bool {
    path.file_stem()
        .is_some_and(|s| s.to_string_lossy().to_ascii_lowercase().contains("emoji"))
}

fn load_font(path: &Path) -> Option<EmojiFont> {
    let data = std::fs::read(path).ok()?;
    let count = ttf_parser::fonts_in_collection(&data).unwrap_or(1);
    let index = (0..count).find(|i| {
        ttf_parser::Face::parse(&data, *i).is_ok_and(|face| {
            let tables = face.tables();
            tables.cbdt.is_some() || tables.sbix.is_some()
        })
    })?;
    Some(EmojiFont { data, index })
}

/// An image as premultiplied RGBA in `0.0..=1.0`, row-major.
struct Premultiplied {
    width: u32,
    height: u32,
    pixels: Vec<[f32; 4]>,
}

/// The PNG bitmap of `grapheme`'s glyph at the strike closest to `ppem`, decoded.
fn bitmap(font: &EmojiFont, grapheme: &str, ppem: u32) -> Option<Premultiplied> {
    let face = ttf_parser::Face::parse(&font.data, font.index).ok()?;
    let id = glyph_of(&face, grapheme)?;
    let ppem = u16::try_from(ppem).unwrap_or(u16::MAX);
    let raster = face.glyph_raster_image(id, ppem)?;
    if raster.format != ttf_parser::RasterImageFormat::PNG {
        return None;
    }
    decode_png(raster.data)
}

/// The glyph of a grapheme: the ligature of all its characters, or of all but its variation
/// selectors (emoji fonts tend to list sequences without VS16), else its first character's.
fn glyph_of(face: &ttf_parser::Face<'_>, grapheme: &str) -> Option<ttf_parser::GlyphId> {
    let first = grapheme.chars().next()?;
    sequence_glyph(face, grapheme).or_else(|| face.glyph_index(first))
}

/// The font's one glyph for all of a grapheme of several characters, if it has one.
fn sequence_glyph(face: &ttf_parser::Face<'_>, grapheme: &str) -> Option<ttf_parser::GlyphId> {
    let first = grapheme.chars().next()?;
    if grapheme.len() > first.len_utf8() {
        let every: Vec<char> = grapheme.chars().collect();
        let bare: Vec<char> = every.iter().copied().filter(|c| *c != VS16).collect();
        let tries = if bare == every {
            vec![every]
        } else {
            vec![every, bare]
        };
        for chars in tries {
            let ids: Option<Vec<_>> = chars.iter().map(|c| face.glyph_index(*c)).collect();
            match ids.as_deref() {
                Some([one]) => return Some(*one),
                Some(ids) if ids.len() > 1 => {
                    if let Some(g) = ligature(face, ids) {
                        return Some(g);
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// The combining enclosing keycap that makes `1`, `#` or `*` (and VS16) the emoji `1️⃣`.
const KEYCAP: char = '\u{20E3}';

/// Variation selector 16: "draw the preceding character as an emoji".
const VS16: char = '\u{FE0F}';

/// The glyph a ligature substitution of the font's GSUB makes of exactly `ids`, if any.
fn ligature(
    face: &ttf_parser::Face<'_>,
    ids: &[ttf_parser::GlyphId],
) -> Option<ttf_parser::GlyphId> {
    use ttf_parser::gsub::SubstitutionSubtable;
    let (first, rest) = ids.split_first()?;
    let gsub = face.tables().gsub?;
    for lookup in gsub.lookups {
        for subtable in lookup.subtables.into_iter::<SubstitutionSubtable>() {
            let SubstitutionSubtable::Ligature(table) = subtable else {
                continue;
            };
            let Some(set) = table
                .coverage
                .get(*first)
                .and_then(|i| table.ligature_sets.get(i))
            else {
                continue;
            };
            let found = set.into_iter().find(|l| {
                usize::from(l.components.len()) == rest.len()
                    && l.components.into_iter().eq(rest.iter().copied())
            });
            if let Some(l) = found {
                return Some(l.glyph);
            }
        }
    }
    None
}

fn decode_png(data: &[u8]) -> Option<Premultiplied> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(data));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().ok()?;
    let mut buf = vec![0; reader.output_buffer_size()?];
    let info = reader.next_frame(&mut buf).ok()?;
    let channels = match info.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => return None,
    };
    let unit = |v: u8| f32::from(v) / 255.0;
    let pixels = buf[..info.buffer_size()]
        .chunks_exact(channels)
        .map(|p| {
            let (rgb, a) = match p {
                [l] => ([*l; 3], 255),
                [l, a] => ([*l; 3], *a),
                [r, g, b] => ([*r, *g, *b], 255),
                [r, g, b, a, ..] => ([*r, *g, *b], *a),
                [] => ([0; 3], 0),
            };
            let a = unit(a);
            [unit(rgb[0]) * a, unit(rgb[1]) * a, unit(rgb[2]) * a, a]
        })
        .collect();
    Some(Premultiplied {
        width: info.width,
        height: info.height,
        pixels,
    })
}

impl Premultiplied {
    /// The image scaled to fit `width`×`height` with its aspect kept, centred on a clear slot.
    /// Each output pixel averages the source pixels it covers (weighted by the overlap), which
    /// is what shrinking a 136 px drawing to a dozen pixels needs to keep thin lines.
    fn fit(&self, width: u32, height: u32) -> Premultiplied {
        let (iw, ih) = (self.width.max(1), self.height.max(1));
        let k = (width as f32 / iw as f32).min(height as f32 / ih as f32);
        let sw = ((iw as f32 * k).round() as u32).clamp(1, width.max(1));
        let sh = ((ih as f32 * k).round() as u32).clamp(1, height.max(1));
        let (x0, y0) = (width.saturating_sub(sw) / 2, height.saturating_sub(sh) / 2);
        let (xs, ys) = (spans(iw, sw), spans(ih, sh));
        let mut pixels = vec![[0.0; 4]; width as usize * height as usize];
        for (oy, ry) in ys.iter().enumerate() {
            for (ox, rx) in xs.iter().enumerate() {
                let mut acc = [0.0f32; 4];
                for &(sy, wy) in ry {
                    for &(sx, wx) in rx {
                        let src = self.pixels[sy * iw as usize + sx];
                        for c in 0..4 {
                            acc[c] += src[c] * wx * wy;
                        }
                    }
                }
                let at = (y0 as usize + oy) * width as usize + x0 as usize + ox;
                pixels[at] = acc;
            }
        }
        Premultiplied {
            width,
            height,
            pixels,
        }
    }
}

/// For each of `dst` output pixels along an axis, the `src` pixels it covers and their weights
/// (summing to 1).
fn spans(src: u32, dst: u32) -> Vec<Vec<(usize, f32)>> {
    let step = src as f32 / dst as f32;
    (0..dst)
        .map(|i| {
            let (a, b) = (i as f32 * step, (i + 1) as f32 * step);
            let mut out = Vec::new();
            let mut j = a.floor() as u32;
            while (j as f32) < b && j < src {
                let overlap = b.min(j as f32 + 1.0) - a.max(j as f32);
                if overlap > 0.0 {
                    out.push((j as usize, overlap / step));
                }
                j += 1;
            }
            out
        })
        .collect()
}

/// `image` drawn over `bg`: a clear pixel is exactly `bg`.
fn composite(image: &Premultiplied, bg: u32) -> Vec<u32> {
    let channel = |shift: u32| ((bg >> shift) & 0xFF) as f32;
    let bg_rgb = [channel(16), channel(8), channel(0)];
    image
        .pixels
        .iter()
        .map(|p| {
            let clear = 1.0 - p[3].clamp(0.0, 1.0);
            let mix =
                |c: usize| (p[c] * 255.0 + bg_rgb[c] * clear).round().clamp(0.0, 255.0) as u32;
            (mix(0) << 16) | (mix(1) << 8) | mix(2)
        })
        .collect()
}

/// Cuts the colours of `pixels` other than `keep` to at most `max` by median cut: the box of
/// colours with the widest channel is split at its pixel-weighted median until there are
/// `max` boxes, and each colour becomes its box's weighted mean. `keep` (the background) stays
/// exact, so the cell still matches its neighbours.
fn reduce_colors(pixels: &mut [u32], keep: u32, max: usize) {
    let mut counts: HashMap<u32, u64> = HashMap::new();
    for &p in pixels.iter().filter(|p| **p != keep) {
        *counts.entry(p).or_default() += 1;
    }
    if counts.len() <= max {
        return;
    }
    let mut colours: Vec<(u32, u64)> = counts.into_iter().collect();
    colours.sort_unstable();
    let mut boxes = vec![colours];
    while boxes.len() < max {
        let widest = boxes
            .iter()
            .enumerate()
            .filter(|(_, b)| b.len() > 1)
            .map(|(i, b)| (widest_channel(b), i))
            .max_by(|a, b| a.0 .1.cmp(&b.0 .1).then(b.1.cmp(&a.1)));
        let Some(((shift, _), i)) = widest else {
            break;
        };
        let mut lower = boxes.swap_remove(i);
        lower.sort_by_key(|(c, _)| ((c >> shift) & 0xFF, *c));
        let total: u64 = lower.iter().map(|(_, n)| n).sum();
        let mut seen = 0;
        let cut = lower
            .iter()
            .position(|(_, n)| {
                seen += n;
                2 * seen >= total
            })
            .map_or(1, |p| p + 1)
            .clamp(1, lower.len() - 1);
        let upper = lower.split_off(cut);
        boxes.push(lower);
        boxes.push(upper);
    }
    let mut mapped: HashMap<u32, u32> = HashMap::new();
    for b in &boxes {
        let mean = weighted_mean(b);
        mapped.extend(b.iter().map(|(c, _)| (*c, mean)));
    }
    for p in pixels.iter_mut() {
        if let Some(m) = mapped.get(p) {
            *p = *m;
        }
    }
}

/// The channel (as its bit shift in `0x00RRGGBB`) with the widest range in `b`, and the range.
fn widest_channel(b: &[(u32, u64)]) -> (u32, u32) {
    [16, 8, 0]
        .into_iter()
        .map(|shift| {
            let values = b.iter().map(|(c, _)| (c >> shift) & 0xFF);
            let (lo, hi) = values.fold((255, 0), |(lo, hi), v| (v.min(lo), v.max(hi)));
            (shift, hi.saturating_sub(lo))
        })
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
        .unwrap_or((16, 0))
}

/// Squared distance of two `0x00RRGGBB` colours.
fn distance(a: u32, b: u32) -> u32 {
    [16, 8, 0]
        .iter()
        .map(|s| ((a >> s) & 0xFF).abs_diff((b >> s) & 0xFF).pow(2))
        .sum()
}

fn weighted_mean(b: &[(u32, u64)]) -> u32 {
    let total: u64 = b.iter().map(|(_, n)| n).sum::<u64>().max(1);
    let channel = |shift: u32| {
        let sum: u64 = b
            .iter()
            .map(|(c, n)| u64::from((c >> shift) & 0xFF) * n)
            .sum();
        ((sum + total / 2) / total) as u32
    };
    (channel(16) << 16) | (channel(8) << 8) | channel(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_cover_each_output_pixel_with_weights_summing_to_one() {
        for (src, dst) in [(136, 16), (128, 15), (7, 3), (3, 7)] {
            for span in spans(src, dst) {
                let sum: f32 = span.iter().map(|(_, w)| w).sum();
                assert!((sum - 1.0).abs() < 1e-4, "{src}->{dst}: {span:?}");
            }
        }
    }

    #[test]
    fn median_cut_keeps_the_background_and_at_most_max_other_colours() {
        let bg = 0x0012_3456;
        let mut pixels: Vec<u32> = (0..500u32).map(|i| i * 7919 % 0x00FF_FFFF).collect();
        pixels.extend([bg; 40]);
        reduce_colors(&mut pixels, bg, 16);
        let distinct: std::collections::HashSet<u32> = pixels.iter().copied().collect();
        assert!(distinct.len() <= 17, "{}", distinct.len());
        assert_eq!(pixels.iter().filter(|p| **p == bg).count(), 40);
    }

    #[test]
    fn a_clear_pixel_is_exactly_the_background() {
        let image = Premultiplied {
            width: 2,
            height: 1,
            pixels: vec![[0.0; 4], [1.0, 0.0, 0.0, 1.0]],
        };
        assert_eq!(
            composite(&image, 0x0010_2030),
            vec![0x0010_2030, 0x00FF_0000]
        );
    }

    #[test]
    fn no_font_in_the_directories_means_no_tile() {
        let dir = tempfile::tempdir().unwrap();
        let mut emoji = ColorEmoji::in_dirs(16, 16, vec![dir.path().to_path_buf()]);
        assert!(emoji.tile('😀', 0).is_none());
        assert!(!emoji.available());
    }

    #[test]
    fn text_outside_the_emoji_blocks_never_looks_for_the_font() {
        let mut emoji = ColorEmoji::in_dirs(16, 16, vec![PathBuf::from("/nonexistent")]);
        assert!(emoji.tile('中', 0).is_none() && emoji.tile('A', 0).is_none());
        assert!(emoji.font.is_none(), "not looked for");
    }
}
