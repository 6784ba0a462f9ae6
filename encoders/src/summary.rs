//! What an encoder reports when it is done, and the options every encoder takes.

use std::path::PathBuf;

use crate::font::options::FontOptions;
use crate::format::OutputFormat;
use crate::frame_chrome::FrameChrome;
use crate::theme::Theme;

/// The byte limit when the caller does not choose one: 8 MiB.
pub const DEFAULT_MAX_BYTES: u64 = 8 * 1024 * 1024;

/// The result of a finished encode; the fields `phux rec --json` reports come from here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeSummary {
    /// Where the file was written.
    pub path: PathBuf,
    /// GIF or APNG.
    pub format: OutputFormat,
    /// Size of the file.
    pub bytes: u64,
    /// Animation frames written, each one image in the file: what a decoder counts.
    pub frames: u32,
    /// Sum of the written frames' delays, in milliseconds.
    pub duration_ms: u64,
    /// Image width.
    pub width_px: u32,
    /// Image height.
    pub height_px: u32,
    /// True when the byte limit cut the animation short (the file still plays).
    pub truncated: bool,
}

/// How to draw and how much to write.
#[derive(Debug, Clone, PartialEq)]
pub struct EncodeOptions {
    /// Colours.
    pub theme: Theme,
    /// Integer pixel multiplier (1..=16): 1 gives 8×16 px cells.
    pub scale: u8,
    /// Stop before the file would exceed this many bytes.
    pub max_bytes: u64,
    /// Replace whatever is at the output path (the path itself: a symlink there is replaced,
    /// never written through). Without it, the finished file is linked in only if nothing,
    /// not even a dangling symlink, has appeared at the path meanwhile.
    pub overwrite: bool,
    /// The font: the bitmap one (the default) or TrueType glyphs at a pixel size.
    pub font: FontOptions,
    /// Padding, margin, window bar and rounded corners around the grid.
    pub chrome: FrameChrome,
    /// Write pixels that did not change as transparent (GIF's transparent index, APNG's
    /// alpha 0 blended over), each frame after the first as the bounding box of its changes:
    /// the same images, far fewer bytes. Off only to compare.
    pub keep_unchanged_transparent: bool,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            theme: Theme::default(),
            scale: 1,
            max_bytes: DEFAULT_MAX_BYTES,
            overwrite: true,
            font: FontOptions::default(),
            chrome: FrameChrome::default(),
            keep_unchanged_transparent: true,
        }
    }
}
