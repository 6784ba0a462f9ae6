//! A flood paced while a person types. Stepping aside after each keystroke (`flood_yield`)
//! frees the cores once the keystroke reached the server, but not before: on its way there it
//! wakes a kernel worker and the client's reader, and on its way back out the client's drawing
//! and the kernel worker again, each of which waits for a core while a flood keeps every core
//! busy. So while input keeps coming (it came less than [`TYPING`] ago), a flooding pane's
//! reader reads at most [`TYPING_RATE`] (it counts each read here and waits in
//! `FloodGauge::stand_aside`): the program waits on its full PTY, and a core stays free most
//! of the time for whatever a keystroke wakes.
//!
//! The rate is still more than a person can read and more than tmux shows a flood at; a
//! flood nobody types beside runs at full speed.

use std::time::{Duration, Instant};

/// Input this recent means someone is typing.
const TYPING: Duration = Duration::from_secs(1);

/// Bytes a second a flood is read at while someone types.
const TYPING_RATE: f64 = 32.0 * 1024.0 * 1024.0;

/// The longest one pause lasts (a big read is paid for over several).
const MAX_PAUSE: Duration = Duration::from_millis(20);

/// Credit a paced reader may bank while its program was quiet, and spend in one burst.
const MAX_CREDIT: Duration = Duration::from_millis(50);

/// A reader's account of the bytes it read since pacing started.
#[derive(Debug, Default)]
pub struct TypingPace {
    since: Option<Instant>,
    bytes: f64,
}

impl TypingPace {
    /// Counts `len` bytes just read. Output that is not a flood, or that comes while nobody
    /// types, starts the count again.
    pub fn count(&mut self, len: usize, flooding: bool) {
        if flooding && super::flood_yield::input_within(TYPING) {
            self.add(len, Instant::now());
        } else {
            *self = TypingPace::default();
        }
    }

    /// How long the reader waits at `now` for the bytes counted to fit [`TYPING_RATE`].
    pub fn pause(&self, now: Instant) -> Option<Duration> {
        let since = self.since?;
        let pause = self
            .due()
            .saturating_sub(now.saturating_duration_since(since));
        (!pause.is_zero()).then(|| pause.min(MAX_PAUSE))
    }

    fn add(&mut self, len: usize, now: Instant) {
        // After a quiet spell, counting starts again rather than allowing a burst.
        let quiet = |since: Instant| now.saturating_duration_since(since) > self.due() + MAX_CREDIT;
        if self.since.is_none_or(quiet) {
            (self.since, self.bytes) = (Some(now), 0.0);
        }
        self.bytes += len as f64;
    }

    /// How long the bytes counted take at [`TYPING_RATE`].
    fn due(&self) -> Duration {
        Duration::from_secs_f64(self.bytes / TYPING_RATE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(start: Instant, ms: u64) -> Instant {
        start + Duration::from_millis(ms)
    }

    #[test]
    fn reads_faster_than_the_typing_rate_wait_and_slower_ones_do_not() {
        let start = Instant::now();
        let mut pace = TypingPace::default();
        let one_ms_of_bytes = (TYPING_RATE / 1000.0) as usize;
        pace.add(0, start);
        assert_eq!(pace.pause(start), None, "nothing read yet");
        pace.add(4 * one_ms_of_bytes, start);
        let pause = pace.pause(start).expect("4 ms ahead");
        assert!(
            (Duration::from_micros(3_900)..=Duration::from_micros(4_100)).contains(&pause),
            "{pause:?}"
        );
        pace.add(one_ms_of_bytes, at(start, 6));
        assert_eq!(
            pace.pause(at(start, 6)),
            None,
            "5 ms of bytes over 6 ms is within the rate"
        );
        pace.add(100 * one_ms_of_bytes, at(start, 6));
        let big = pace.pause(at(start, 6)).unwrap();
        assert_eq!(big, MAX_PAUSE, "one pause never exceeds {MAX_PAUSE:?}");
    }

    #[test]
    fn a_quiet_spell_banks_no_more_than_a_little_credit() {
        let start = Instant::now();
        let mut pace = TypingPace::default();
        let one_ms_of_bytes = (TYPING_RATE / 1000.0) as usize;
        pace.add(one_ms_of_bytes, start);
        // Two seconds without output, then a burst: paced from the burst on.
        pace.add(30 * one_ms_of_bytes, at(start, 2_000));
        let pause = pace.pause(at(start, 2_000));
        assert!(
            pause.is_some_and(|p| p >= Duration::from_millis(19)),
            "{pause:?}"
        );
    }

    #[test]
    fn calm_output_starts_the_count_again() {
        let mut pace = TypingPace::default();
        let one_ms_of_bytes = (TYPING_RATE / 1000.0) as usize;
        let start = Instant::now();
        pace.add(100 * one_ms_of_bytes, start);
        assert_eq!(pace.pause(start), Some(MAX_PAUSE));
        let before = Instant::now();
        pace.count(one_ms_of_bytes, false);
        assert!(before.elapsed() < MAX_PAUSE, "calm output never waits");
        assert_eq!(pace.pause(Instant::now()), None, "nor does what follows it");
        let now = Instant::now();
        pace.add(one_ms_of_bytes, now);
        let pause = pace.pause(now);
        assert!(
            pause.is_some_and(|p| p <= Duration::from_micros(1_100)),
            "only the new millisecond's bytes count: {pause:?}"
        );
    }
}
