//! How cells are drawn: the crisp Unifont bitmap, or antialiased TrueType glyphs at a pixel size.
//! One struct, filled from flags (`--font`, `--font-size`, `--line-height`, `--letter-spacing`),
//! a config file's `[defaults]` or a tape's `FontFamily`/`FontSize`/... alike.

use crate::error::EncodeError;

/// The name that selects the 8×16 Unifont bitmap mode (`--font unifont`).
pub const BITMAP_FONT_NAME: &str = "unifont";
/// Font size of the smooth mode when only `--font` is given, in pixels (agg's default too).
pub const DEFAULT_FONT_SIZE_PX: f32 = 14.0;
/// Cell height as a multiple of the font size when none is given (agg's default too).
pub const DEFAULT_LINE_HEIGHT: f32 = 1.4;
/// Coverage levels of an antialiased pixel, background and foreground included at the ends.
pub const DEFAULT_COVERAGE_LEVELS: u8 = 8;

/// Largest `--font-size`, in pixels.
pub const MAX_FONT_SIZE_PX: f32 = 200.0;

/// The font settings of an animation. All `None`/empty (`Default`): the bitmap mode, which the
/// library keeps as its default; `phux rec` with no font flag uses [`FontOptions::smooth`].
#[derive(Debug, Clone, PartialEq)]
pub struct FontOptions {
    /// Family names or font files, in fallback order (`--font`, repeatable). `unifont` first
    /// selects the bitmap mode; the bundled JetBrains Mono and then Unifont end every chain.
    pub fonts: Vec<String>,
    /// Font size in pixels (the em square), before `--scale`.
    pub size_px: Option<f32>,
    /// Cell height as a multiple of the font size.
    pub line_height: Option<f32>,
    /// Pixels added to (or, negative, taken from) each cell's width.
    pub letter_spacing: Option<f32>,
    /// Coverage levels an antialiased pixel may take (2..=32, both ends included).
    pub coverage_levels: u8,
}

impl Default for FontOptions {
    fn default() -> Self {
        FontOptions {
            fonts: Vec::new(),
            size_px: None,
            line_height: None,
            letter_spacing: None,
            coverage_levels: DEFAULT_COVERAGE_LEVELS,
        }
    }
}

/// What [`FontOptions`] asks for, with every default filled in.
#[derive(Debug, Clone, PartialEq)]
pub enum FontMode {
    /// Unifont 8×16 cells at the integer `--scale`.
    Bitmap,
    /// TrueType glyphs, antialiased with quantized coverage.
    Smooth(SmoothSpec),
}

/// The smooth mode's settings, resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct SmoothSpec {
    /// Requested fonts in order (the bundled font and Unifont are appended when drawing).
    pub fonts: Vec<String>,
    /// Font size in pixels, `--scale` applied.
    pub size_px: f32,
    /// Cell height as a multiple of the font size.
    pub line_height: f32,
    /// Extra pixels per cell, `--scale` applied.
    pub letter_spacing: f32,
    /// Coverage levels, 2..=32.
    pub coverage_levels: u8,
}

impl FontOptions {
    /// The smooth mode with the bundled font at its default size.
    pub fn smooth() -> FontOptions {
        FontOptions {
            size_px: Some(DEFAULT_FONT_SIZE_PX),
            ..FontOptions::default()
        }
    }

    /// A CSS-style family list (a VHS tape's `Set FontFamily "JetBrains Mono, 'Noto Sans CJK'"`)
    /// as a fallback chain: split on commas, quotes and spaces around each name dropped.
    pub fn family_list(text: &str) -> Vec<String> {
        text.split(',')
            .map(|f| f.trim().trim_matches(|c| c == '"' || c == '\'').trim())
            .filter(|f| !f.is_empty())
            .map(str::to_string)
            .collect()
    }

    /// True when the bitmap font was asked for by name (`--font unifont`).
    pub fn names_bitmap(&self) -> bool {
        self.fonts
            .first()
            .is_some_and(|f| f.eq_ignore_ascii_case(BITMAP_FONT_NAME))
    }

    /// Checks the numbers and decides the mode: smooth when any font other than `unifont`, a
    /// size, a line height or a letter spacing is given; the bitmap font otherwise.
    pub fn mode(&self, scale: u8) -> Result<FontMode, EncodeError> {
        self.validate()?;
        let asks_smooth = !self.fonts.is_empty()
            || self.size_px.is_some()
            || self.line_height.is_some()
            || self.letter_spacing.is_some();
        if self.names_bitmap() || !asks_smooth {
            return Ok(FontMode::Bitmap);
        }
        let s = f32::from(scale.max(1));
        Ok(FontMode::Smooth(SmoothSpec {
            fonts: self.fonts.clone(),
            size_px: self.size_px.unwrap_or(DEFAULT_FONT_SIZE_PX) * s,
            line_height: self.line_height.unwrap_or(DEFAULT_LINE_HEIGHT),
            letter_spacing: self.letter_spacing.unwrap_or(0.0) * s,
            coverage_levels: self.coverage_levels,
        }))
    }

    /// Range checks, each naming the option and what it accepts.
    pub fn validate(&self) -> Result<(), EncodeError> {
        let bad = |option: &'static str, value: f32, accepted: &'static str| {
            Err(EncodeError::BadFontOption {
                option,
                value: value.to_string(),
                accepted,
            })
        };
        if let Some(size) = self.size_px {
            if !(size.is_finite() && (4.0..=MAX_FONT_SIZE_PX).contains(&size)) {
                return bad("--font-size", size, "a pixel size from 4 to 200, e.g. 14");
            }
        }
        if let Some(h) = self.line_height {
            if !(h.is_finite() && (0.5..=4.0).contains(&h)) {
                return bad(
                    "--line-height",
                    h,
                    "a multiple of the font size from 0.5 to 4, e.g. 1.2",
                );
            }
        }
        if let Some(sp) = self.letter_spacing {
            if !(sp.is_finite() && (-8.0..=32.0).contains(&sp)) {
                return bad("--letter-spacing", sp, "pixels from -8 to 32, e.g. 1");
            }
        }
        if !(2..=32).contains(&self.coverage_levels) {
            return bad(
                "coverage levels",
                f32::from(self.coverage_levels),
                "2 to 32 levels",
            );
        }
        if let Some(empty) = self.fonts.iter().find(|f| f.trim().is_empty()) {
            return Err(EncodeError::BadFontOption {
                option: "--font",
                value: empty.clone(),
                accepted: "a family name (e.g. \"JetBrains Mono\") or a .ttf/.otf/.ttc file",
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_css_family_list_is_a_chain() {
        assert_eq!(
            FontOptions::family_list(" JetBrains Mono, 'Noto Sans CJK JP' ,,\"x.ttf\""),
            vec!["JetBrains Mono", "Noto Sans CJK JP", "x.ttf"]
        );
    }

    #[test]
    fn nothing_given_is_the_bitmap_mode() {
        assert_eq!(FontOptions::default().mode(1).unwrap(), FontMode::Bitmap);
    }

    #[test]
    fn unifont_first_is_the_bitmap_mode_even_with_a_size() {
        let o = FontOptions {
            fonts: vec!["Unifont".into()],
            size_px: Some(20.0),
            ..FontOptions::default()
        };
        assert_eq!(o.mode(1).unwrap(), FontMode::Bitmap);
    }

    #[test]
    fn a_size_alone_is_smooth_with_scale_applied() {
        let o = FontOptions {
            size_px: Some(10.0),
            letter_spacing: Some(1.0),
            ..FontOptions::default()
        };
        let FontMode::Smooth(spec) = o.mode(2).unwrap() else {
            panic!("not smooth")
        };
        assert_eq!(spec.size_px, 20.0);
        assert_eq!(spec.letter_spacing, 2.0);
        assert_eq!(spec.line_height, DEFAULT_LINE_HEIGHT);
    }

    #[test]
    fn out_of_range_values_name_the_option() {
        let o = FontOptions {
            size_px: Some(0.0),
            ..FontOptions::default()
        };
        let e = o.mode(1).unwrap_err().to_string();
        assert!(e.contains("--font-size") && e.contains("4 to 200"), "{e}");
        let o = FontOptions {
            line_height: Some(f32::NAN),
            ..FontOptions::default()
        };
        assert!(o.mode(1).unwrap_err().to_string().contains("--line-height"));
    }
}
