//! The one idle clamp every consumer applies (encoders, player, transcoder), and the playback
//! timeline built on it, so a cast, its GIF and its playback agree on every event's time.

use crate::error::RecorderError;
use crate::event::Event;

/// Streams raw event times into clamped ones: any gap longer than the limit (including the gap
/// from the start to the first event) plays as exactly the limit, and every later event moves
/// earlier by what was cut.
///
/// Only a finite, positive limit clamps; `None`, zero, negative or NaN leave times unchanged.
/// Times that go backwards (which the reader refuses) are held at the previous time.
#[derive(Debug, Clone)]
pub struct IdleClamp {
    limit: Option<f64>,
    last_raw: f64,
    last_clamped: f64,
}

impl IdleClamp {
    pub fn new(limit: Option<f64>) -> Self {
        Self {
            limit: limit.filter(|l| l.is_finite() && *l > 0.0),
            last_raw: 0.0,
            last_clamped: 0.0,
        }
    }

    /// The clamped time of the next event, given its raw time. Call it for events in order.
    pub fn apply(&mut self, raw_time: f64) -> f64 {
        let gap = (raw_time - self.last_raw).max(0.0);
        let gap = self.limit.map_or(gap, |limit| gap.min(limit));
        self.last_raw = self.last_raw.max(raw_time);
        self.last_clamped += gap;
        self.last_clamped
    }
}

/// The time of the last event after the clamp: how long the cast plays at speed 1.
pub fn clamped_duration(events: &[Event], limit: Option<f64>) -> f64 {
    let mut clamp = IdleClamp::new(limit);
    events.iter().fold(0.0, |_, event| clamp.apply(event.time))
}

/// Raw event times → when to show them during playback: `clamped / speed`.
#[derive(Debug, Clone)]
pub struct Timeline {
    clamp: IdleClamp,
    speed: f64,
}

impl Timeline {
    /// `speed` must be finite and greater than 0 (2.0 plays twice as fast).
    pub fn new(limit: Option<f64>, speed: f64) -> Result<Self, RecorderError> {
        if !(speed.is_finite() && speed > 0.0) {
            return Err(RecorderError::InvalidSpeed(speed));
        }
        Ok(Self {
            clamp: IdleClamp::new(limit),
            speed,
        })
    }

    /// Seconds since playback started at which the event with this raw time is shown.
    pub fn playback_time(&mut self, raw_time: f64) -> f64 {
        self.clamp.apply(raw_time) / self.speed
    }

    pub fn speed(&self) -> f64 {
        self.speed
    }
}

/// How long playing `events` takes with this clamp and speed.
pub fn playback_duration(
    events: &[Event],
    limit: Option<f64>,
    speed: f64,
) -> Result<f64, RecorderError> {
    let mut timeline = Timeline::new(limit, speed)?;
    Ok(events
        .iter()
        .fold(0.0, |_, event| timeline.playback_time(event.time)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clamp_all(limit: Option<f64>, raw: &[f64]) -> Vec<f64> {
        let mut clamp = IdleClamp::new(limit);
        raw.iter().map(|&t| clamp.apply(t)).collect()
    }

    #[test]
    fn long_gaps_play_as_the_limit_and_later_events_move_earlier() {
        let out = clamp_all(Some(2.0), &[0.5, 1.0, 11.0, 11.5, 30.0]);
        assert_eq!(out, [0.5, 1.0, 3.0, 3.5, 5.5]);
    }

    #[test]
    fn the_gap_before_the_first_event_is_clamped_too() {
        assert_eq!(clamp_all(Some(1.0), &[60.0]), [1.0]);
    }

    #[test]
    fn gap_equal_to_limit_is_kept() {
        assert_eq!(clamp_all(Some(2.0), &[2.0, 4.0]), [2.0, 4.0]);
    }

    #[test]
    fn no_limit_or_nonsense_limit_changes_nothing() {
        let raw = [0.25, 100.0, 1000.0];
        for limit in [None, Some(0.0), Some(-1.0), Some(f64::NAN)] {
            assert_eq!(clamp_all(limit, &raw), raw, "limit {limit:?}");
        }
    }

    #[test]
    fn clamped_duration_is_last_clamped_time() {
        let events: Vec<_> = [1.0, 10.0, 10.5]
            .iter()
            .map(|&t| Event::output(t, ""))
            .collect();
        assert_eq!(clamped_duration(&events, Some(3.0)), 4.5);
        assert_eq!(clamped_duration(&events, None), 10.5);
        assert_eq!(clamped_duration(&[], Some(3.0)), 0.0);
    }

    #[test]
    fn timeline_divides_clamped_time_by_speed() {
        let mut timeline = Timeline::new(Some(1.0), 2.0).unwrap();
        assert_eq!(timeline.playback_time(0.5), 0.25);
        assert_eq!(timeline.playback_time(10.0), 0.75);
        let events = [Event::output(0.5, ""), Event::output(10.0, "")];
        assert_eq!(playback_duration(&events, Some(1.0), 2.0).unwrap(), 0.75);
        assert!(Timeline::new(None, 0.0).is_err());
        assert!(Timeline::new(None, f64::INFINITY).is_err());
    }
}
