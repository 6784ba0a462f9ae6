//! phux-encoders: terminal screens → 1-bit raster → animated GIF / APNG, or → animated SVG.
//!
//! The flow is [`RenderScreen`] (filled from the engine by the caller) → [`Animator`] (frame
//! rate and timing) → a [`FrameSink`] ([`GifEncoder`], [`ApngEncoder`], [`SvgEncoder`] or
//! [`AnimationEncoder`]); the raster formats rasterize with [`Rasterizer`] and compress on the
//! other cores, the SVG keeps text as text.
//!
//! ```no_run
//! use phux_encoders::{AnimationEncoder, Animator, EncodeOptions, RenderScreen, CellColor};
//! # fn main() -> Result<(), phux_encoders::EncodeError> {
//! let encoder = AnimationEncoder::create("demo.gif".as_ref(), 80, 24, &EncodeOptions::default())?;
//! let mut animator = Animator::new(encoder, 30);
//! let mut screen = RenderScreen::blank(80, 24);
//! animator.push(0.0, &screen)?;
//! screen.put_str(0, 0, "hello", CellColor::Default, CellColor::Default);
//! animator.push(0.5, &screen)?;
//! let summary = animator.finish(3.0)?;
//! println!("{} bytes, {} frames", summary.bytes, summary.frames);
//! # Ok(()) }
//! ```

#![forbid(unsafe_code)]
// Tests may panic on the unexpected; library code may not (see the workspace lints).
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

mod animation_encoder;
mod animator;
mod apng_encoder;
mod apng_frame;
mod changed_bounds;
mod compress_pool;
mod emoji_join;
mod error;
pub mod font;
mod format;
mod frame_chrome;
mod gif_encoder;
mod gif_frame_compress;
mod gif_lzw;
mod gif_palette;
mod gif_way_sample;
mod html_player;
mod output_file;
mod pipeline;
mod png_frames;
mod raster;
mod raw_frames;
mod replay;
mod screen;
mod screen_reader;
mod still;
mod summary;
mod svg;
#[cfg(test)]
mod test_support;
mod theme;
mod timing;

pub use animation_encoder::AnimationEncoder;
pub use animator::{Animator, FrameSink, SinkStatus, DEFAULT_FPS, DEFAULT_LAST_FRAME_HOLD_SECS};
pub use apng_encoder::ApngEncoder;
pub use error::EncodeError;
pub use font::options::{FontMode, FontOptions, BITMAP_FONT_NAME};
pub use format::{resolve_output, OutputFormat, ResolvedOutput};
pub use frame_chrome::{
    Compositor, FrameChrome, Layout, Placed, WindowBar, DEFAULT_PADDING, DEFAULT_WINDOW_BAR_SIZE,
};
pub use gif_encoder::GifEncoder;
pub use html_player::{write_html, HtmlOptions, HtmlSummary};
pub use png_frames::{write_png, write_screenshot, PngFrames};
pub use raster::{blend_levels, Canvas, Rasterizer, Rect, MAX_CANVAS_PIXELS, MAX_SCALE};
pub use raw_frames::RawFrames;
pub use replay::{
    canvas_size, effective_options, render_cast, render_cast_into, replay_until, Progress,
    RenderSettings,
};
pub use screen::{CellAttrs, CellColor, CellWidth, RenderCell, RenderCursor, RenderScreen};
pub use screen_reader::{screen_of, ScreenReader};
pub use still::{render_still, StillFrame};
pub use summary::{EncodeOptions, EncodeSummary, DEFAULT_MAX_BYTES};
pub use svg::{write_still_svg, SvgEncoder};
pub use theme::{Rgb, Theme};
