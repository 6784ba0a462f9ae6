//! What a playback is asked to do: speed, idle clamp, passes and where to begin.

use crate::error::PlayError;

pub const MIN_SPEED: f64 = 0.01;
pub const MAX_SPEED: f64 = 100.0;

/// How many times the recording plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Passes {
    Count(u32),
    /// Until the process is ended.
    Forever,
}

impl Passes {
    /// `None` for `Forever`, as `PlayJson.passes` spells it.
    pub fn count(self) -> Option<u32> {
        match self {
            Self::Count(n) => Some(n),
            Self::Forever => None,
        }
    }
}

/// Where each pass begins. Everything before it is written at once, so the screen at the
/// starting point is the one the recording had there.
#[derive(Debug, Clone, PartialEq)]
pub enum StartPoint {
    Beginning,
    /// Seconds into the clamped timeline at speed 1: the position a viewer of the playback
    /// would read on a clock, whatever `speed` is.
    At(f64),
    /// The first `m` event with this label.
    Marker(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct PlayOptions {
    /// 2.0 plays twice as fast; between [`MIN_SPEED`] and [`MAX_SPEED`].
    pub speed: f64,
    /// Gaps longer than this play as this long; `None` keeps every gap.
    pub idle_limit: Option<f64>,
    pub passes: Passes,
    pub start: StartPoint,
}

impl PlayOptions {
    /// Speed 1, one pass from the beginning, with the given clamp.
    pub fn new(idle_limit: Option<f64>) -> Self {
        Self {
            speed: 1.0,
            idle_limit,
            passes: Passes::Count(1),
            start: StartPoint::Beginning,
        }
    }

    /// Refuses values that would make playback meaningless, with a message naming the flag.
    pub fn check(&self) -> Result<(), PlayError> {
        let refuse = |m: String| Err(PlayError::Options(m));
        if !(MIN_SPEED..=MAX_SPEED).contains(&self.speed) {
            return refuse(format!(
                "--speed {} is outside {MIN_SPEED}..={MAX_SPEED}",
                self.speed
            ));
        }
        if let Some(limit) = self.idle_limit {
            if !(limit.is_finite() && limit > 0.0) {
                return refuse(format!(
                    "--idle-limit {limit} is not a positive number of seconds"
                ));
            }
        }
        if self.passes == Passes::Count(0) {
            return refuse("--loop 0 would play nothing; give at least 1".to_owned());
        }
        if let StartPoint::At(secs) = self.start {
            if !(secs.is_finite() && secs >= 0.0) {
                return refuse(format!("--start {secs} is not a number of seconds from 0"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_outside_the_range_is_refused() {
        for speed in [0.0, 0.009, 100.1, f64::NAN, -1.0] {
            let options = PlayOptions {
                speed,
                ..PlayOptions::new(None)
            };
            assert!(options.check().is_err(), "{speed}");
        }
        for speed in [0.01, 1.0, 100.0] {
            let options = PlayOptions {
                speed,
                ..PlayOptions::new(None)
            };
            assert!(options.check().is_ok(), "{speed}");
        }
    }

    #[test]
    fn zero_passes_a_bad_limit_and_a_negative_start_are_refused() {
        let base = PlayOptions::new(None);
        let zero = PlayOptions {
            passes: Passes::Count(0),
            ..base.clone()
        };
        assert!(zero.check().is_err());
        assert!(PlayOptions::new(Some(0.0)).check().is_err());
        let start = PlayOptions {
            start: StartPoint::At(-1.0),
            ..base
        };
        assert!(start.check().is_err());
    }
}
