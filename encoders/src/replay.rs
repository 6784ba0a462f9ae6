//! Renders a recording: replays the cast through the engine (so every frame is what the
//! terminal showed), applies the recorder's one idle clamp and the speed, and feeds the
//! screens to an animation encoder at most once per frame slot.

use crate::animation_encoder::AnimationEncoder;
use crate::animator::{Animator, FrameSink};
use crate::error::EncodeError;
use crate::screen_reader::ScreenReader;
use crate::summary::{EncodeOptions, EncodeSummary};
use crate::theme::Theme;
use phux_core::engine::{self, Terminal};
use phux_recorder::{Cast, EventKind, Timeline};
use std::path::Path;

/// How to turn a cast into an animation.
#[derive(Debug, Clone)]
pub struct RenderSettings {
    pub options: EncodeOptions,
    /// Take the colours from the cast's own theme when it has one.
    pub prefer_cast_theme: bool,
    pub fps: u32,
    pub speed: f64,
    /// Gaps longer than this play as this long; `None` keeps every gap.
    pub idle_limit: Option<f64>,
    pub last_frame_hold: f64,
}

/// Progress callbacks: called with (events done, events total).
pub type Progress<'a> = &'a mut dyn FnMut(usize, usize);

/// Renders `cast` to `output` (GIF or APNG by extension).
pub fn render_cast(
    cast: &Cast,
    output: &Path,
    settings: &RenderSettings,
    progress: Progress<'_>,
) -> Result<EncodeSummary, EncodeError> {
    let (cols, rows) = canvas_size(cast);
    let options = effective_options(cast, settings);
    let encoder = AnimationEncoder::create(output, cols, rows, &options)?;
    render_cast_into(cast, encoder, settings, progress)
}

/// The options a render uses: the cast's own theme replaces the given one when preferred.
pub fn effective_options(cast: &Cast, settings: &RenderSettings) -> EncodeOptions {
    let mut options = settings.options.clone();
    if settings.prefer_cast_theme {
        if let Some(theme) = cast_theme(cast) {
            options.theme = theme;
        }
    }
    options
}

/// Replays `cast` into any frame sink (made for the grid [`canvas_size`] gives, with
/// [`effective_options`]).
pub fn render_cast_into<S: FrameSink>(
    cast: &Cast,
    sink: S,
    settings: &RenderSettings,
    progress: Progress<'_>,
) -> Result<EncodeSummary, EncodeError> {
    let (cols, rows) = canvas_size(cast);
    let mut animator = Animator::new(sink, settings.fps);
    let mut screens = ScreenReader::default();
    let mut terminal =
        Terminal::new(cast.header.cols, cast.header.rows, 0).map_err(engine_error)?;
    let mut timeline = Timeline::new(settings.idle_limit, settings.speed)
        .map_err(|e| EncodeError::Timing(e.to_string()))?;
    let slot = 1.0 / f64::from(settings.fps.max(1));
    let mut pending: Option<f64> = Some(0.0);
    // The timeline's end: the last event's time, whatever it drew.
    let mut last_event = 0.0f64;
    let total = cast.events.len();
    for (done, event) in cast.events.iter().enumerate() {
        // Past --max-bytes nothing more is written: stop replaying at once.
        if animator.is_full() {
            break;
        }
        let t = timeline.playback_time(event.time);
        last_event = last_event.max(t);
        if let Some(start) = pending {
            if t >= start + slot {
                animator.push(start, screens.read(&terminal, cols, rows))?;
                pending = None;
            }
        }
        match &event.kind {
            EventKind::Output(text) => terminal.write(text.as_bytes()),
            EventKind::Resize { cols, rows } => {
                terminal.resize(*cols, *rows).map_err(engine_error)?
            }
            _ => continue,
        }
        let _ = terminal.take_replies();
        pending = pending.or(Some(t));
        if done % 256 == 0 {
            progress(done, total);
        }
    }
    if let Some(start) = pending {
        animator.push(start, screens.read(&terminal, cols, rows))?;
    }
    // The last frame lasts until the recording ends, then the hold: the file plays as long as
    // the recording's own timeline (`duration_ms`) plus the hold.
    animator.advance(last_event);
    progress(total, total);
    animator.finish(settings.last_frame_hold)
}

pub(crate) fn engine_error(error: engine::EngineError) -> EncodeError {
    EncodeError::Engine(error.to_string())
}

/// The terminal after the events up to `until` seconds (raw cast time; `None`: all of them).
pub fn replay_until(cast: &Cast, until: Option<f64>) -> Result<Terminal, EncodeError> {
    let mut terminal =
        Terminal::new(cast.header.cols, cast.header.rows, 0).map_err(engine_error)?;
    for event in &cast.events {
        if until.is_some_and(|t| event.time > t) {
            break;
        }
        match &event.kind {
            EventKind::Output(text) => terminal.write(text.as_bytes()),
            EventKind::Resize { cols, rows } => {
                terminal.resize(*cols, *rows).map_err(engine_error)?
            }
            _ => continue,
        }
        let _ = terminal.take_replies();
    }
    Ok(terminal)
}

/// The largest grid the cast ever has: the canvas every frame is drawn on.
pub fn canvas_size(cast: &Cast) -> (u16, u16) {
    cast.events.iter().fold(
        (cast.header.cols, cast.header.rows),
        |(c, r), event| match event.kind {
            EventKind::Resize { cols, rows } => (c.max(cols), r.max(rows)),
            _ => (c, r),
        },
    )
}

pub(crate) fn cast_theme(cast: &Cast) -> Option<Theme> {
    Theme::from_cast_theme(cast.header.theme.as_ref()?).ok()
}
