//! Converts frame start/end times in seconds into integer delays whose rounding error is carried
//! forward, so a long recording keeps its length.

/// Rounds each frame's start and end on one absolute grid of `units_per_second`; a frame's delay
/// is the difference, so errors never accumulate.
#[derive(Debug, Clone, Copy)]
pub struct DelayClock {
    units_per_second: f64,
    total: u64,
}

impl DelayClock {
    /// A clock counting in 1/`units_per_second` seconds (100 for GIF, 1000 for APNG).
    pub fn new(units_per_second: u32) -> DelayClock {
        DelayClock {
            units_per_second: f64::from(units_per_second),
            total: 0,
        }
    }

    /// The delay, in units, of a frame shown from `start` to `end` seconds.
    pub fn peek(&self, start: f64, end: f64) -> u64 {
        self.units_at(end).saturating_sub(self.units_at(start))
    }

    /// Records that a frame with `delay` units was written.
    pub fn commit(&mut self, delay: u64) {
        self.total += delay;
    }

    /// Sum of committed delays.
    pub fn total_units(&self) -> u64 {
        self.total
    }

    fn units_at(&self, secs: f64) -> u64 {
        units_at(secs, self.units_per_second)
    }
}

/// `secs` as whole units of 1/`units_per_second` s, rounded to the nearest: the one grid every
/// frame's start and end are placed on, so the delays sum to the rounded end.
pub fn units_at(secs: f64, units_per_second: f64) -> u64 {
    let v = (secs.max(0.0) * units_per_second).round();
    if v.is_finite() {
        v as u64
    } else {
        0
    }
}

/// How many slots of a constant `fps` rate have begun by `secs` (a frame starting then takes
/// the next one): what a video, and a directory of its frames, repeat a frame until.
pub fn slots_until(secs: f64, fps: u32) -> u64 {
    let v = (secs.max(0.0) * f64::from(fps.max(1))).round();
    if v.is_finite() {
        v as u64
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_fps_for_a_minute_sums_to_a_minute() {
        let mut clock = DelayClock::new(100);
        let frames = 60 * 30;
        for i in 0..frames {
            let (a, b) = (f64::from(i) / 30.0, f64::from(i + 1) / 30.0);
            let d = clock.peek(a, b);
            assert!(d == 3 || d == 4, "{d}");
            clock.commit(d);
        }
        assert_eq!(clock.total_units(), 6000);
    }
}
