//! How an animation draws text (`--font`, `--font-size`, `--line-height`, `--letter-spacing`),
//! shared by `rec` (and `rec --from`) and `attach --rec`, which passes them on to `rec --from`.
//!
//! With none of them an animation is smooth: the bundled JetBrains Mono at 14 px. On the sample
//! casts that is >100x agg's frames per second, a tenth of its bytes per frame per megapixel and
//! a tenth of its peak RSS (`cargo run --release -p phux-encoders --example font_bench`), so it
//! costs nothing worth keeping the 8x16 bitmap font as the default; `--font unifont` selects it.

use phux_core::error_code::ErrorCode;
use phux_encoders::{FontMode, FontOptions};

use crate::failure::Failure;

/// The font flags; with none of them an animation uses the bundled font at 14 px.
#[derive(Debug, Clone, Default)]
pub struct FontChoice {
    /// TrueType font of an animation: a family name or a .ttf/.otf/.ttc file; repeat it for a
    /// fallback chain (the bundled JetBrains Mono, then Unifont, end every chain). `unifont`
    /// selects the 8x16 bitmap font [default: JetBrains Mono]
    pub fonts: Vec<String>,
    /// Font size of an animation in pixels, multiplied by --scale [default: 14]
    pub font_size: Option<f32>,
    /// Cell height as a multiple of the font size [default: 1.4]
    pub line_height: Option<f32>,
    /// Pixels added to each cell's width (negative: narrower) [default: 0]
    pub letter_spacing: Option<f32>,
}

impl FontChoice {
    /// True when no font flag was given.
    pub fn is_empty(&self) -> bool {
        self.fonts.is_empty()
            && self.font_size.is_none()
            && self.line_height.is_none()
            && self.letter_spacing.is_none()
    }

    /// The encoder's font options: the smooth default when no flag was given.
    pub fn options(&self) -> FontOptions {
        if self.is_empty() {
            return FontOptions::smooth();
        }
        FontOptions {
            fonts: self.fonts.clone(),
            size_px: self.font_size,
            line_height: self.line_height,
            letter_spacing: self.letter_spacing,
            ..FontOptions::default()
        }
    }

    /// Checks the values and that every named font exists, before anything is recorded.
    pub fn check(&self, scale: u8) -> Result<(), Failure> {
        let invalid = |e: phux_encoders::EncodeError, remedy: &str| {
            Failure::new(ErrorCode::InvalidArgument, e.to_string(), remedy).with_exit_code(2)
        };
        let mode = self.options().mode(scale).map_err(|e| {
            invalid(
                e,
                "e.g. --font-size 14 --line-height 1.2 --letter-spacing 0",
            )
        })?;
        if let FontMode::Smooth(spec) = mode {
            for name in &spec.fonts {
                phux_encoders::font::discovery::resolve(name).map_err(|e| {
                    invalid(
                        e,
                        "name an installed family (`fc-list : family` lists them) or a font \
                         file; the bundled one is \"JetBrains Mono\"",
                    )
                })?;
            }
        }
        Ok(())
    }

    /// The flags as words for `phux rec --from` (how `attach --rec` renders its animation).
    pub fn to_words(&self) -> Vec<String> {
        let mut words = Vec::new();
        for font in &self.fonts {
            words.extend(["--font".to_string(), font.clone()]);
        }
        let numbers = [
            ("--font-size", self.font_size),
            ("--line-height", self.line_height),
            ("--letter-spacing", self.letter_spacing),
        ];
        for (flag, value) in numbers {
            if let Some(v) = value {
                words.extend([flag.to_string(), v.to_string()]);
            }
        }
        words
    }
}
