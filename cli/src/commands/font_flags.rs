//! `--font`, `--font-size`, `--line-height`, `--letter-spacing`: how an animation draws text,
//! shared by `rec` (and `rec --from`) and `attach --rec`, which passes them on to `rec --from`.
//! What they mean is `phux_client::verbs::font::FontChoice`'s.

use phux_client::verbs::font::FontChoice;

#[derive(Debug, Clone, Default, clap::Args)]
pub struct FontFlags {
    /// TrueType font of an animation: a family name or a .ttf/.otf/.ttc file; repeat it for a
    /// fallback chain (the bundled JetBrains Mono, then Unifont, end every chain). `unifont`
    /// selects the 8x16 bitmap font [default: JetBrains Mono]
    #[arg(long = "font", value_name = "NAME|FILE")]
    pub fonts: Vec<String>,
    /// Font size of an animation in pixels, multiplied by --scale [default: 14]
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
    /// The choice the flags make.
    pub fn choice(&self) -> FontChoice {
        FontChoice {
            fonts: self.fonts.clone(),
            font_size: self.font_size,
            line_height: self.line_height,
            letter_spacing: self.letter_spacing,
        }
    }
}
