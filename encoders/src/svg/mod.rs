//! Animated SVG output (`rec -o demo.svg`): text as text on the cell grid, colours from the
//! theme the raster formats use, box drawing as paths, each distinct row drawn once and
//! shown by CSS keyframes on the GIF's timeline. No script.

mod chrome;
mod document;
mod drawn_glyphs;
mod film;
mod layer;
mod metrics;
mod row_look;
mod still;
mod style_sheet;
mod svg_encoder;

pub use still::write_still_svg;
pub use svg_encoder::SvgEncoder;

use crate::error::EncodeError;
use crate::summary::EncodeOptions;

/// Refuses a grid the SVG could not be drawn for (bad scale or font, too many pixels), before
/// a cast is replayed for it.
pub(crate) fn check_grid(cols: u16, rows: u16, options: &EncodeOptions) -> Result<(), EncodeError> {
    let metrics = metrics::SvgMetrics::of(options, cols, rows)?;
    options.chrome.layout(
        u32::from(cols) * metrics.cell_w,
        u32::from(rows) * metrics.cell_h,
    )?;
    Ok(())
}
