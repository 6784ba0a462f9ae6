//! One still image of a recording: the cast replayed through the engine up to the frame asked
//! for (its last screen, or the screen after its first N events) and written as a plain PNG
//! (or a static SVG), not an animation, drawn as the animation's frames are (font, padding,
//! window bar, margin).

use std::path::Path;

use phux_core::engine::Terminal;
use phux_recorder::{Cast, EventKind};

use crate::error::EncodeError;
use crate::format::{resolve_output, OutputFormat};
use crate::pipeline::WholeImage;
use crate::replay::{canvas_size, cast_theme, engine_error};
use crate::screen_reader::screen_of;
use crate::summary::{EncodeOptions, EncodeSummary};

/// Which screen of a recording a still shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StillFrame {
    /// The screen at the end of the recording.
    Last,
    /// The screen after the first N screen events (output or resize) of the cast, from 1.
    Event(usize),
    /// The screen as it stood at this many seconds into the cast (its own timestamps).
    At(f64),
}

/// Writes `frame` of `cast` to `output` as one PNG, or a static SVG when `output` ends in
/// `.svg`. `Event(N)` past the cast's screen events is `FrameOutOfRange`, naming how many
/// there are.
pub fn render_still(
    cast: &Cast,
    output: &Path,
    options: &EncodeOptions,
    prefer_cast_theme: bool,
    frame: StillFrame,
) -> Result<EncodeSummary, EncodeError> {
    let (cols, rows) = canvas_size(cast);
    let theme = match cast_theme(cast).filter(|_| prefer_cast_theme) {
        Some(theme) => theme,
        None => options.theme,
    };
    // Drawn as every frame of an animation is: the font, padding, window bar and margin.
    let options = EncodeOptions {
        theme,
        ..options.clone()
    };
    let svg = resolve_output(output).is_ok_and(|o| o.format == OutputFormat::Svg);
    // The canvas is checked before the cast is replayed, as for an animation: a 72-byte cast
    // declaring a huge grid took the engine past 4 GB before the size was refused.
    let mut image = if svg {
        crate::svg::check_grid(cols, rows, &options)?;
        None
    } else {
        Some(WholeImage::new(cols, rows, &options)?)
    };
    let (screen, time) = screen_at(cast, frame, cols, rows)?;
    let mut summary = match image.as_mut() {
        None => crate::svg::write_still_svg(&screen, &options, output)?,
        Some(image) => {
            image.draw(&screen);
            let image = image.image();
            let (width_px, height_px) = (image.width, image.height);
            let bytes = crate::png_frames::write_still(image, output, options.overwrite)?;
            EncodeSummary {
                path: output.to_path_buf(),
                format: OutputFormat::Apng,
                bytes,
                frames: 1,
                duration_ms: 0,
                width_px,
                height_px,
                truncated: false,
            }
        }
    };
    summary.duration_ms = (time * 1000.0).round() as u64;
    Ok(summary)
}

/// The screen `frame` names, and its time in seconds (the cast's own).
fn screen_at(
    cast: &Cast,
    frame: StillFrame,
    cols: u16,
    rows: u16,
) -> Result<(crate::screen::RenderScreen, f64), EncodeError> {
    let mut terminal =
        Terminal::new(cast.header.cols, cast.header.rows, 0).map_err(engine_error)?;
    let screen_events = cast
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Output(_) | EventKind::Resize { .. }));
    let wanted = match frame {
        StillFrame::Last | StillFrame::At(_) => usize::MAX,
        StillFrame::Event(n) => n,
    };
    let until = match frame {
        StillFrame::At(secs) => secs,
        _ => f64::INFINITY,
    };
    let (mut applied, mut time) = (0usize, 0.0f64);
    for event in screen_events.take(wanted).take_while(|e| e.time <= until) {
        match &event.kind {
            EventKind::Output(text) => terminal.write(text.as_bytes()),
            EventKind::Resize { cols, rows } => {
                terminal.resize(*cols, *rows).map_err(engine_error)?
            }
            _ => {}
        }
        let _ = terminal.take_replies();
        applied += 1;
        time = event.time;
    }
    if let StillFrame::Event(n) = frame {
        if n == 0 || applied < n {
            return Err(EncodeError::FrameOutOfRange {
                asked: n,
                available: applied,
            });
        }
    }
    let time = time
        .max(0.0)
        .max(if until.is_finite() { until } else { 0.0 });
    Ok((screen_of(&terminal, cols, rows), time))
}
