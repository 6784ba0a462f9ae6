//! The timing layer: turns screens pushed at event times into frames at most `fps` apart, each
//! lasting at least one frame slot on the sink's own grid of delays (a frame that would be
//! shorter is merged into the next: the later picture, from the earlier start).

use crate::error::EncodeError;
use crate::screen::RenderScreen;
use crate::summary::EncodeSummary;

/// Frames per second when the caller does not choose.
pub const DEFAULT_FPS: u32 = 30;
/// How long the last frame stays up when the caller does not choose, in seconds.
pub const DEFAULT_LAST_FRAME_HOLD_SECS: f64 = 3.0;

/// Whether a sink still takes frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SinkStatus {
    /// Keep sending.
    Accepting,
    /// The byte limit was reached; further frames are dropped and the output will be truncated.
    Full,
}

/// Something that turns timed screens into an animation file.
pub trait FrameSink {
    /// The highest frame rate the container times faithfully (GIF: 50, as it counts in 1/100 s).
    fn max_fps(&self) -> u32;

    /// What the container's delays count in a second (GIF: 100, APNG: 1000): every frame
    /// lasts at least a frame slot once its start and end are rounded to this grid.
    fn ticks_per_second(&self) -> u32 {
        1000
    }

    /// Adds a frame shown from `start_secs` (seconds since the first frame, non-decreasing)
    /// until the next frame's start.
    fn add_frame(
        &mut self,
        start_secs: f64,
        screen: &RenderScreen,
    ) -> Result<SinkStatus, EncodeError>;

    /// Ends the animation at `end_secs` and closes the file.
    fn finish(self, end_secs: f64) -> Result<EncodeSummary, EncodeError>;
}

/// Collapses screen changes into frames: a change within 1/fps of the pending frame's start
/// replaces it, an unchanged screen emits nothing, and the first push is time zero.
#[derive(Debug)]
pub struct Animator<S: FrameSink> {
    sink: S,
    min_gap: f64,
    /// The sink's grid of delays, and the fewest ticks of it a frame lasts.
    ticks_per_second: f64,
    min_ticks: u64,
    origin: Option<f64>,
    last_t: f64,
    open: Option<(f64, RenderScreen)>,
    full: bool,
}

impl<S: FrameSink> Animator<S> {
    /// An animator feeding `sink` at no more than `fps` frames per second (clamped to
    /// 1..=`sink.max_fps()`).
    pub fn new(sink: S, fps: u32) -> Animator<S> {
        let fps = fps.clamp(1, sink.max_fps().max(1));
        let ticks_per_second = f64::from(sink.ticks_per_second().max(1));
        // A slot's whole ticks (the tolerance keeps 1/50 s at 2 hundredths on float error).
        let min_ticks = ((ticks_per_second / f64::from(fps)) + 1e-6)
            .floor()
            .max(1.0) as u64;
        Animator {
            sink,
            min_gap: 1.0 / f64::from(fps),
            ticks_per_second,
            min_ticks,
            origin: None,
            last_t: 0.0,
            open: None,
            full: false,
        }
    }

    /// True once the sink refused a frame for the byte limit: nothing more will be encoded.
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// Records that the screen looked like `screen` from time `t_seconds` on. Times that go
    /// backwards (or are not finite) are taken as the latest time seen.
    pub fn push(&mut self, t_seconds: f64, screen: &RenderScreen) -> Result<(), EncodeError> {
        if self.full {
            return Ok(());
        }
        let t = self.relative_time(t_seconds);
        let Some((start, open_screen)) = &mut self.open else {
            self.open = Some((t, screen.clone()));
            return Ok(());
        };
        if open_screen == screen {
            return Ok(());
        }
        // The tolerance keeps events exactly 1/fps apart (like i/30 s) from merging on float
        // error; the ticks keep a frame that rounding would shorten below a slot from the file.
        let ticks = ticks_at(t, self.ticks_per_second) - ticks_at(*start, self.ticks_per_second);
        if t < *start + self.min_gap - 1e-9 || ticks < self.min_ticks {
            open_screen.clone_from(screen);
            return Ok(());
        }
        self.flush_open()?;
        if !self.full {
            self.open = Some((t, screen.clone()));
        }
        Ok(())
    }

    /// Records that the recording goes on until `t_seconds` without a new screen (its last
    /// events drew nothing, or were merged into the frame before): the last frame lasts at
    /// least until then.
    pub fn advance(&mut self, t_seconds: f64) {
        self.relative_time(t_seconds);
    }

    /// Flushes the pending frame and closes the file; the last frame stays up for
    /// `last_frame_hold_secs` after the last push (or [`Animator::advance`]), and at least a
    /// frame slot.
    pub fn finish(mut self, last_frame_hold_secs: f64) -> Result<EncodeSummary, EncodeError> {
        let last_start = self.open.as_ref().map(|(start, _)| *start);
        if !self.full {
            self.flush_open()?;
        }
        let hold = if last_frame_hold_secs.is_finite() {
            last_frame_hold_secs.max(0.0)
        } else {
            0.0
        };
        let mut end = self.last_t + hold;
        if let Some(start) = last_start.filter(|_| !self.full) {
            let shortest = ticks_at(start, self.ticks_per_second) + self.min_ticks;
            if ticks_at(end, self.ticks_per_second) < shortest {
                end = shortest as f64 / self.ticks_per_second;
            }
        }
        self.sink.finish(end)
    }

    fn relative_time(&mut self, t_seconds: f64) -> f64 {
        let origin = *self.origin.get_or_insert(if t_seconds.is_finite() {
            t_seconds
        } else {
            0.0
        });
        let t = t_seconds - origin;
        if t.is_finite() && t > self.last_t {
            self.last_t = t;
        }
        self.last_t
    }

    fn flush_open(&mut self) -> Result<(), EncodeError> {
        if let Some((start, screen)) = self.open.take() {
            if self.sink.add_frame(start, &screen)? == SinkStatus::Full {
                self.full = true;
            }
        }
        Ok(())
    }
}

/// `secs` on a grid of `ticks_per_second`, rounded as the writers' [`crate::timing::DelayClock`]
/// rounds a frame's start and end.
fn ticks_at(secs: f64, ticks_per_second: f64) -> u64 {
    crate::timing::units_at(secs, ticks_per_second)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::OutputFormat;

    /// Records what the animator hands over.
    #[derive(Default)]
    struct Recorder {
        frames: Vec<(f64, char)>,
        end: Option<f64>,
    }

    impl FrameSink for &mut Recorder {
        fn max_fps(&self) -> u32 {
            50
        }
        fn add_frame(&mut self, start: f64, s: &RenderScreen) -> Result<SinkStatus, EncodeError> {
            self.frames.push((start, s.cells[0].text));
            Ok(SinkStatus::Accepting)
        }
        fn finish(self, end: f64) -> Result<EncodeSummary, EncodeError> {
            self.end = Some(end);
            Ok(EncodeSummary {
                path: std::path::PathBuf::new(),
                format: OutputFormat::Gif,
                bytes: 0,
                frames: 0,
                duration_ms: 0,
                width_px: 0,
                height_px: 0,
                truncated: false,
            })
        }
    }

    fn screen(ch: char) -> RenderScreen {
        let mut s = RenderScreen::blank(2, 1);
        s.cells[0].text = ch;
        s
    }

    #[test]
    fn changes_within_one_slot_replace_the_pending_frame() {
        let mut rec = Recorder::default();
        let mut a = Animator::new(&mut rec, 10);
        a.push(5.0, &screen('a')).unwrap();
        a.push(5.05, &screen('b')).unwrap();
        a.push(5.2, &screen('c')).unwrap();
        a.push(5.25, &screen('c')).unwrap();
        a.push(5.5, &screen('c')).unwrap();
        a.finish(1.0).unwrap();
        assert_eq!(rec.frames.len(), 2);
        assert_eq!(rec.frames[0].1, 'b');
        assert!((rec.frames[1].0 - 0.2).abs() < 1e-9);
        assert!((rec.end.unwrap() - 1.5).abs() < 1e-9);
    }

    #[test]
    fn fps_is_clamped_to_the_sink() {
        let mut rec = Recorder::default();
        let mut a = Animator::new(&mut rec, 1000);
        for i in 0..10 {
            let ch = char::from(b'a' + i);
            a.push(f64::from(i) * 0.01, &screen(ch)).unwrap();
        }
        a.finish(0.0).unwrap();
        let starts: Vec<f64> = rec.frames.iter().map(|f| f.0).collect();
        for pair in starts.windows(2) {
            assert!(pair[1] - pair[0] >= 0.02 - 1e-9, "{starts:?}");
        }
    }

    #[test]
    fn time_going_backwards_is_clamped() {
        let mut rec = Recorder::default();
        let mut a = Animator::new(&mut rec, 30);
        a.push(1.0, &screen('a')).unwrap();
        a.push(0.5, &screen('b')).unwrap();
        a.push(f64::NAN, &screen('c')).unwrap();
        a.finish(0.0).unwrap();
        assert_eq!(rec.frames, vec![(0.0, 'c')]);
    }
}
