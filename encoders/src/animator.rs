//! The timing layer: turns screens pushed at event times into frames at most `fps` apart.

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
        Animator {
            sink,
            min_gap: 1.0 / f64::from(fps),
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
        // The tolerance keeps events exactly 1/fps apart (like i/30 s) from merging on float error.
        if t < *start + self.min_gap - 1e-9 {
            open_screen.clone_from(screen);
            return Ok(());
        }
        self.flush_open()?;
        if !self.full {
            self.open = Some((t, screen.clone()));
        }
        Ok(())
    }

    /// Flushes the pending frame and closes the file; the last frame stays up for
    /// `last_frame_hold_secs` after the last push.
    pub fn finish(mut self, last_frame_hold_secs: f64) -> Result<EncodeSummary, EncodeError> {
        if !self.full {
            self.flush_open()?;
        }
        let hold = if last_frame_hold_secs.is_finite() {
            last_frame_hold_secs.max(0.0)
        } else {
            0.0
        };
        self.sink.finish(self.last_t + hold)
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
