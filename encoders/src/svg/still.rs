//! `rec --still -o shot.svg`: one screen as a static SVG, drawn as a frame of the animation is
//! (the same grid, font, chrome and cursor), with no animation.

use std::path::Path;

use crate::error::EncodeError;
use crate::screen::RenderScreen;
use crate::summary::{EncodeOptions, EncodeSummary};

use super::svg_encoder::SvgEncoder;

/// Writes `screen` to `path` as a still SVG.
pub fn write_still_svg(
    screen: &RenderScreen,
    options: &EncodeOptions,
    path: &Path,
) -> Result<EncodeSummary, EncodeError> {
    SvgEncoder::create(path, screen.cols, screen.rows, options)?.still(screen)
}
