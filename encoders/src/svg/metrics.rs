//! The SVG's grid in pixels and the font its text is set in: the same cell size as the raster
//! formats (the bitmap font's 8×16 cells at `--scale`, or the smooth font's measured cells), so
//! an SVG and a GIF of one recording have one size, and the CSS font stack that names the
//! chosen fonts first.

use crate::error::EncodeError;
use crate::font::options::FontMode;
use crate::font::smooth::SmoothFont;
use crate::font::{CELL_WIDTH, GLYPH_HEIGHT};
use crate::raster::{MAX_CANVAS_PIXELS, MAX_SCALE};
use crate::summary::EncodeOptions;

/// Monospace families most systems have, tried after the chosen ones: the text keeps the grid
/// whichever is found (every run is stretched to its cells with `textLength`).
const FALLBACK_FAMILIES: [&str; 7] = [
    "JetBrains Mono",
    "DejaVu Sans Mono",
    "Menlo",
    "Consolas",
    "Liberation Mono",
    "Noto Sans Mono",
    "Noto Color Emoji",
];

/// What the text of an SVG frame is set in, and on what grid.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SvgMetrics {
    /// One cell, in pixels.
    pub cell_w: u32,
    pub cell_h: u32,
    /// The font size in pixels.
    pub font_size: f32,
    /// The baseline's distance from a cell's top, in pixels.
    pub baseline: f32,
    /// The families named first (the user's fonts), before [`FALLBACK_FAMILIES`].
    pub families: Vec<String>,
}

impl SvgMetrics {
    /// The metrics `options` give a `cols`×`rows` grid, refused as the raster formats refuse it
    /// (a bad scale or font option, no cells, more pixels than phux draws).
    pub fn of(options: &EncodeOptions, cols: u16, rows: u16) -> Result<SvgMetrics, EncodeError> {
        if options.scale == 0 || options.scale > MAX_SCALE {
            return Err(EncodeError::BadScale(options.scale));
        }
        let metrics = match options.font.mode(options.scale)? {
            FontMode::Bitmap => {
                let s = u32::from(options.scale);
                let (cell_w, cell_h) = (CELL_WIDTH as u32 * s, GLYPH_HEIGHT as u32 * s);
                // Most monospace faces advance 0.6 em: that size fills the bitmap's cell.
                let font_size = cell_w as f32 / 0.6;
                SvgMetrics {
                    cell_w,
                    cell_h,
                    font_size,
                    // Unifont's baseline: 13 of its 16 rows above it.
                    baseline: cell_h as f32 * 13.0 / 16.0,
                    families: Vec::new(),
                }
            }
            FontMode::Smooth(spec) => {
                let font = SmoothFont::new(&spec)?;
                let (cell_w, cell_h) = font.cell_size();
                SvgMetrics {
                    cell_w,
                    cell_h,
                    font_size: font.size_px(),
                    baseline: font.baseline(),
                    families: font
                        .family_names()
                        .filter(|name| is_family_name(name))
                        .map(str::to_string)
                        .collect(),
                }
            }
        };
        let width = u64::from(cols) * u64::from(metrics.cell_w);
        let height = u64::from(rows) * u64::from(metrics.cell_h);
        if width == 0 || height == 0 {
            return Err(EncodeError::BadDimensions {
                width,
                height,
                max: u64::from(u16::MAX),
            });
        }
        // The raster formats' limit, so every format takes the same recordings.
        if width * height > MAX_CANVAS_PIXELS {
            return Err(EncodeError::CanvasTooLarge {
                cols,
                rows,
                scale: options.scale,
                width,
                height,
            });
        }
        Ok(metrics)
    }

    /// The CSS `font-family` value: the chosen families, then the common monospace ones, then
    /// the generic `monospace`.
    pub fn font_family(&self) -> String {
        let mut names: Vec<&str> = self.families.iter().map(String::as_str).collect();
        for fallback in FALLBACK_FAMILIES {
            if !names.iter().any(|n| n.eq_ignore_ascii_case(fallback)) {
                names.push(fallback);
            }
        }
        let mut css: Vec<String> = names
            .iter()
            .map(|name| format!("'{}'", name.replace(['\'', '\\', '<', '>', '&'], "")))
            .collect();
        css.push("monospace".into());
        css.join(",")
    }
}

/// A font asked for by its family name rather than a file (a file's path means nothing to the
/// SVG's viewer).
fn is_family_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    !name.contains('/') && ![".ttf", ".otf", ".ttc"].iter().any(|e| lower.ends_with(e))
}

/// `v` with at most two decimals and no trailing zeros: how lengths are written.
pub(crate) fn number(v: f32) -> String {
    let text = format!("{:.2}", v);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::font::options::FontOptions;

    #[test]
    fn the_bitmap_grid_is_the_gif_grid() {
        let options = EncodeOptions {
            scale: 2,
            ..EncodeOptions::default()
        };
        let m = SvgMetrics::of(&options, 80, 24).unwrap();
        assert_eq!((m.cell_w, m.cell_h), (16, 32));
        assert!(m.font_family().ends_with(",monospace"));
    }

    #[test]
    fn the_smooth_font_is_named_first_and_measured_as_the_raster_measures_it() {
        let options = EncodeOptions {
            font: FontOptions::smooth(),
            ..EncodeOptions::default()
        };
        let m = SvgMetrics::of(&options, 10, 2).unwrap();
        let raster =
            crate::raster::Rasterizer::with_font(10, 2, options.theme, 1, &FontOptions::smooth())
                .unwrap();
        assert_eq!((m.cell_w, m.cell_h), raster.cell_size());
        assert!(
            m.font_family().starts_with("'JetBrains Mono'"),
            "{}",
            m.font_family()
        );
    }

    #[test]
    fn a_huge_grid_is_refused_as_the_raster_refuses_it() {
        let options = EncodeOptions::default();
        let e = SvgMetrics::of(&options, 10_000, 10_000).unwrap_err();
        assert!(matches!(e, EncodeError::CanvasTooLarge { .. }), "{e}");
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(number(13.333_333), "13.33");
        assert_eq!(number(16.0), "16");
        assert_eq!(number(12.5), "12.5");
    }
}
