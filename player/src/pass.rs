//! One pass over a recording's events: the part before the starting point written at once,
//! the rest at deadlines measured from one anchor; and `play_cast`, which repeats passes with a
//! soft reset between them.

use std::io::Write;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use phux_recorder::{Cast, Event, EventKind, Timeline};

use crate::clock::Clock;
use crate::error::PlayError;
use crate::options::{Passes, PlayOptions, StartPoint};

/// Written between passes: DECSTR (soft reset: modes, margins, SGR), home, clear the screen and
/// the scrollback. Never RIS, which would also reset what the pane's owner set up.
pub const SOFT_RESET_AND_CLEAR: &[u8] = b"\x1b[!p\x1b[H\x1b[2J\x1b[3J";

/// Where a playback goes: `o` data through `Write` (flushed after every event), `r` events
/// through `resize`, called after everything before them was flushed.
pub trait PlaybackSink: Write {
    fn resize(&mut self, cols: u16, rows: u16);
}

/// Plays `cast` into `sink` as `options` say, passes included, and returns when the last pass
/// ended (never, for `Passes::Forever`, unless writing fails).
pub fn play_cast(
    cast: &Cast,
    options: &PlayOptions,
    sink: &mut dyn PlaybackSink,
    clock: &mut dyn Clock,
) -> Result<(), PlayError> {
    options.check()?;
    if let StartPoint::Marker(name) = &options.start {
        let found = cast
            .events
            .iter()
            .any(|e| matches!(&e.kind, EventKind::Marker(label) if label == name));
        if !found {
            return Err(PlayError::NoSuchMarker(name.clone()));
        }
    }
    let header_size = (cast.header.cols, cast.header.rows);
    let end_size = cast
        .events
        .iter()
        .rev()
        .find_map(|e| match e.kind {
            EventKind::Resize { cols, rows } => Some((cols, rows)),
            _ => None,
        })
        .unwrap_or(header_size);
    let mut done = 0u32;
    loop {
        if done > 0 {
            write(sink, SOFT_RESET_AND_CLEAR)?;
            if end_size != header_size {
                sink.resize(header_size.0, header_size.1);
            }
        }
        let mut pass = Pass::new(options, StartRule::from(&options.start))?;
        for event in &cast.events {
            pass.play(event, sink, clock)?;
        }
        done = done.saturating_add(1);
        if let Passes::Count(n) = options.passes {
            if done >= n {
                return Ok(());
            }
        }
    }
}

/// How long one pass takes, in seconds: from the starting point to the last event, after the
/// idle clamp and the speed. The same timeline the playback uses, so the two agree.
pub fn pass_duration(events: &[Event], options: &PlayOptions) -> Result<f64, PlayError> {
    let mut timeline = Timeline::new(options.idle_limit, options.speed)
        .map_err(|e| PlayError::Options(e.to_string()))?;
    let times: Vec<f64> = events
        .iter()
        .map(|e| timeline.playback_time(e.time))
        .collect();
    let end = times.last().copied().unwrap_or(0.0);
    let start = match &options.start {
        StartPoint::Beginning => 0.0,
        StartPoint::At(secs) => secs / options.speed,
        StartPoint::Marker(name) => events
            .iter()
            .zip(&times)
            .find(|(e, _)| matches!(&e.kind, EventKind::Marker(label) if label == name))
            .map(|(_, &t)| t)
            .ok_or_else(|| PlayError::NoSuchMarker(name.clone()))?,
    };
    Ok((end - start).max(0.0))
}

/// When the paced part of a pass begins.
#[derive(Debug)]
pub(crate) enum StartRule {
    /// At this playback time (seconds after clamp and speed).
    At(f64),
    /// At the first marker with this label.
    Marker(String),
    /// When the followed file was first read to its end: the moment stored there.
    Live(Arc<OnceLock<Instant>>),
}

impl From<&StartPoint> for StartRule {
    fn from(start: &StartPoint) -> Self {
        match start {
            StartPoint::Beginning => Self::At(0.0),
            // Converted to playback time by `Pass::new`, which knows the speed.
            StartPoint::At(secs) => Self::At(*secs),
            StartPoint::Marker(name) => Self::Marker(name.clone()),
        }
    }
}

/// A wall-clock instant and the playback time it stands for.
#[derive(Debug, Clone, Copy)]
struct Anchor {
    wall: Instant,
    t: f64,
}

impl Anchor {
    fn deadline(self, t: f64) -> Instant {
        let ahead = (t - self.t).max(0.0);
        // `ahead` is finite: playback times are sums of finite gaps over a speed >= 0.01.
        self.wall + Duration::from_secs_f64(ahead)
    }
}

/// The state of one pass.
pub(crate) struct Pass {
    timeline: Timeline,
    start: StartRule,
    /// `None` while writing the part before the starting point.
    anchor: Option<Anchor>,
    /// Playback time of the last event handled.
    last_t: f64,
}

impl Pass {
    pub(crate) fn new(options: &PlayOptions, start: StartRule) -> Result<Self, PlayError> {
        let timeline = Timeline::new(options.idle_limit, options.speed)
            .map_err(|e| PlayError::Options(e.to_string()))?;
        let start = match start {
            // Seconds at speed 1 → seconds of playback.
            StartRule::At(secs) => StartRule::At(secs / options.speed),
            other => other,
        };
        Ok(Self {
            timeline,
            start,
            anchor: None,
            last_t: 0.0,
        })
    }

    /// Handles one event: waits for its deadline once past the starting point, then writes
    /// `o` data or passes an `r` on; other events only move the clock.
    pub(crate) fn play(
        &mut self,
        event: &Event,
        sink: &mut dyn PlaybackSink,
        clock: &mut dyn Clock,
    ) -> Result<(), PlayError> {
        let t = self.timeline.playback_time(event.time);
        if self.anchor.is_none() {
            self.anchor = self.anchor_at(event, t, clock);
        }
        if let Some(anchor) = self.anchor {
            clock.sleep_until(anchor.deadline(t));
        }
        match &event.kind {
            EventKind::Output(text) => write(sink, text.as_bytes())?,
            EventKind::Resize { cols, rows } => sink.resize(*cols, *rows),
            EventKind::Input(_) | EventKind::Marker(_) | EventKind::Exit(_) => {}
        }
        self.last_t = t;
        Ok(())
    }

    /// The anchor, if `event` (at playback time `t`) is where the paced part begins.
    fn anchor_at(&self, event: &Event, t: f64, clock: &mut dyn Clock) -> Option<Anchor> {
        match &self.start {
            StartRule::At(start) => (t >= *start).then(|| Anchor {
                wall: clock.now(),
                t: *start,
            }),
            StartRule::Marker(name) => {
                matches!(&event.kind, EventKind::Marker(label) if label == name).then(|| Anchor {
                    wall: clock.now(),
                    t,
                })
            }
            // The last event read before the file ran dry plays at the moment it did.
            StartRule::Live(caught_up) => caught_up.get().map(|&wall| Anchor {
                wall,
                t: self.last_t,
            }),
        }
    }
}

fn write(sink: &mut dyn PlaybackSink, bytes: &[u8]) -> Result<(), PlayError> {
    sink.write_all(bytes)
        .and_then(|()| sink.flush())
        .map_err(PlayError::Write)
}

#[cfg(test)]
mod tests;
