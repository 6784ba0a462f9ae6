//! `--font`, `--font-size`, `--line-height`, `--letter-spacing`: how an animation draws text,
//! shared by `rec` (and `rec --from`) and `attach --rec`, which passes them on to `rec --from`.

use phux_core::error_code::ErrorCode;
use phux_encoders::{FontMode, FontOptions};

use crate::failure::Failure;

/// The font flags; with none of them an animation uses the 8x16 bitmap font.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct FontFlags {
    /// TrueType font of an animation: a family name or a .ttf/.otf/.ttc file; repeat it for a
    /// fallback chain (the bundled JetBrains Mono, then Unifont, end every chain). `unifont`
    /// selects the 8x16 bitmap font
    #[arg(long = "font", value_name = "NAME|FILE")]
    pub fonts: Vec<String>,
    /// Font size of an animation in pixels (a TrueType font; default 14 when --font is given)
    #[arg(long, value_name = "PX")]
    pub font_size: Option<f32>,
    /// Cell height as a multiple of the font size [default: 1.4]
    #[arg(long, value_name = "X", allow_negative_numbers = true)]
    pub line_height: Option<f32>,
    /// Pixels added to each cell's width (negative: narrower) [default: 0]
    #[arg(long, value_name = "PX", allow_negative_numbers = true)]
    pub letter_spacing: Option<f32>,
}

impl FontFlags {
    /// The encoder's font options.
    pub fn options(&self) -> FontOptions {
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
