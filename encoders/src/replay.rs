//! Renders a recording: replays the cast through the engine (so every frame is what the
//! terminal showed), applies the recorder's one idle clamp and the speed, and feeds the
//! screens to an animation encoder at most once per frame slot.

use crate::animation_encoder::AnimationEncoder;
use crate::animator::{Animator, FrameSink};
use crate::error::EncodeError;
use crate::screen::{CellAttrs, CellWidth, RenderCell, RenderCursor, RenderScreen};
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
    let mut terminal =
        Terminal::new(cast.header.cols, cast.header.rows, 0).map_err(engine_error)?;
    let mut timeline = Timeline::new(settings.idle_limit, settings.speed)
        .map_err(|e| EncodeError::Timing(e.to_string()))?;
    let slot = 1.0 / f64::from(settings.fps.max(1));
    let mut pending: Option<f64> = Some(0.0);
    let total = cast.events.len();
    for (done, event) in cast.events.iter().enumerate() {
        // Past --max-bytes nothing more is written: stop replaying at once.
        if animator.is_full() {
            break;
        }
        let t = timeline.playback_time(event.time);
        if let Some(start) = pending {
            if t >= start + slot {
                animator.push(start, &screen_of(&terminal, cols, rows))?;
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
        animator.push(start, &screen_of(&terminal, cols, rows))?;
    }
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

/// The engine's screen as the rasterizer's input, on a `cols`×`rows` canvas.
pub fn screen_of(terminal: &Terminal, cols: u16, rows: u16) -> RenderScreen {
    let mut screen = RenderScreen::blank(cols, rows);
    let (term_cols, term_rows) = terminal.size();
    for y in 0..term_rows.min(rows) {
        for (x, cell) in terminal
            .viewport_row_cells(y)
            .into_iter()
            .enumerate()
            .take(usize::from(term_cols.min(cols)))
        {
            if let Some(target) = screen.cell_mut(x as u16, y) {
                *target = render_cell(&cell);
            }
            if cell.text.chars().nth(1).is_some() {
                screen.clusters.push(cell.text);
                let n = u32::try_from(screen.clusters.len()).unwrap_or(0);
                if let Some(target) = screen.cell_mut(x as u16, y) {
                    target.cluster = n;
                }
            }
        }
    }
    let cursor = terminal.cursor();
    screen.cursor = Some(RenderCursor {
        x: cursor.x,
        y: cursor.y,
        visible: cursor.visible,
    });
    screen
}

fn render_cell(cell: &engine::CellData) -> RenderCell {
    let style = &cell.style;
    let mut attrs = CellAttrs::default();
    for (on, flag) in [
        (style.bold, CellAttrs::BOLD),
        (style.faint, CellAttrs::FAINT),
        (style.italic, CellAttrs::ITALIC),
        (style.underline, CellAttrs::UNDERLINE),
        (style.blink, CellAttrs::BLINK),
        (style.inverse, CellAttrs::INVERSE),
        (style.invisible, CellAttrs::INVISIBLE),
        (style.strikethrough, CellAttrs::STRIKETHROUGH),
        (style.overline, CellAttrs::OVERLINE),
    ] {
        if on {
            attrs |= flag;
        }
    }
    RenderCell {
        text: cell.text.chars().next().unwrap_or(' '),
        wide: match cell.width {
            engine::CellWidth::Wide => CellWidth::Wide,
            engine::CellWidth::SpacerTail => CellWidth::SpacerTail,
            _ => CellWidth::Narrow,
        },
        fg: style.fg,
        bg: style.bg,
        attrs,
        cluster: 0,
    }
}
