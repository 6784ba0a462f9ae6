//! One type for "whichever animation format the output path asks for".

use std::path::Path;

use crate::animator::{FrameSink, SinkStatus};
use crate::apng_encoder::ApngEncoder;
use crate::error::EncodeError;
use crate::format::{resolve_output, OutputFormat};
use crate::gif_encoder::GifEncoder;
use crate::screen::RenderScreen;
use crate::summary::{EncodeOptions, EncodeSummary};
use crate::svg::SvgEncoder;

/// A GIF, APNG or SVG encoder chosen from the output path.
#[derive(Debug)]
pub enum AnimationEncoder {
    /// `.gif` (or no extension: `.gif` is appended).
    Gif(GifEncoder),
    /// `.png` or `.apng`.
    Apng(ApngEncoder),
    /// `.svg`.
    Svg(SvgEncoder),
}

impl AnimationEncoder {
    /// Picks the format from `path` (see [`resolve_output`]); a `.cast` path is refused.
    pub fn create(
        path: &Path,
        cols: u16,
        rows: u16,
        options: &EncodeOptions,
    ) -> Result<AnimationEncoder, EncodeError> {
        let out = resolve_output(path)?;
        match out.format {
            OutputFormat::Gif => GifEncoder::create(&out.path, cols, rows, options).map(Self::Gif),
            OutputFormat::Apng => {
                ApngEncoder::create(&out.path, cols, rows, options).map(Self::Apng)
            }
            OutputFormat::Svg => SvgEncoder::create(&out.path, cols, rows, options).map(Self::Svg),
            OutputFormat::Cast | OutputFormat::Html => Err(EncodeError::NotAnAnimation(out.path)),
        }
    }
}

impl FrameSink for AnimationEncoder {
    fn max_fps(&self) -> u32 {
        match self {
            Self::Gif(e) => e.max_fps(),
            Self::Apng(e) => e.max_fps(),
            Self::Svg(e) => e.max_fps(),
        }
    }

    fn ticks_per_second(&self) -> u32 {
        match self {
            Self::Gif(e) => e.ticks_per_second(),
            Self::Apng(e) => e.ticks_per_second(),
            Self::Svg(e) => e.ticks_per_second(),
        }
    }

    fn add_frame(
        &mut self,
        start_secs: f64,
        screen: &RenderScreen,
    ) -> Result<SinkStatus, EncodeError> {
        match self {
            Self::Gif(e) => e.add_frame(start_secs, screen),
            Self::Apng(e) => e.add_frame(start_secs, screen),
            Self::Svg(e) => e.add_frame(start_secs, screen),
        }
    }

    fn finish(self, end_secs: f64) -> Result<EncodeSummary, EncodeError> {
        match self {
            Self::Gif(e) => e.finish(end_secs),
            Self::Apng(e) => e.finish(end_secs),
            Self::Svg(e) => e.finish(end_secs),
        }
    }
}
