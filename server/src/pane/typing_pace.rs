//! A flood paced while a person types. Stepping aside after each keystroke (`flood_yield`)
//! frees the cores once the keystroke reached the server, but not before: on its way there it
//! wakes a kernel worker and the client's reader, and on its way back out the client's drawing
//! and the kernel worker again, each of which waits for a core while a flood keeps every core
//! busy. So while input keeps coming (it came less than [`TYPING`] ago), a flooding pane's
//! reader reads at most [`TYPING_RATE`]: the program waits on its full PTY, the actor on the
//! reader, and a core stays free most of the time for whatever a keystroke wakes.
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
    /// Counts `len` bytes just read and, while the pane floods and someone types, waits until
    /// they fit [`TYPING_RATE`].
    pub fn after_read(&mut self, len: usize, flooding: bool) {
        if !flooding || !super::flood_yield::input_within(TYPING) {
            *self = TypingPace::default();
            return;
        }
        if let Some(pause) = self.pause(len, Instant::now()) {
            std::thread::sleep(pause);
        }
    }

    /// How long to wait at `now` after reading `len` more bytes.
    fn pause(&mut self, len: usize, now: Instant) -> Option<Duration> {
        let since = *self.since.get_or_insert(now);
        let elapsed = now.saturating_duration_since(since);
        let due = Duration::from_secs_f64(self.bytes / TYPING_RATE);
        if elapsed > due + MAX_CREDIT {
            // Quiet for a while: start counting again rather than burst.
            self.since = Some(now);
            self.bytes = 0.0;
        }
        self.bytes += len as f64;
        let since = self.since.unwrap_or(now);
        let due = Duration::from_secs_f64(self.bytes / TYPING_RATE);
        let pause = due.saturating_sub(now.saturating_duration_since(since));
        (!pause.is_zero()).then(|| pause.min(MAX_PAUSE))
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
        assert_eq!(pace.pause(0, start), None, "nothing read yet");
        let pause = pace.pause(4 * one_ms_of_bytes, start).expect("4 ms ahead");
        assert!(
            (Duration::from_micros(3_900)..=Duration::from_micros(4_100)).contains(&pause),
            "{pause:?}"
        );
        assert_eq!(
            pace.pause(one_ms_of_bytes, at(start, 6)),
            None,
            "5 ms of bytes over 6 ms is within the rate"
        );
        let big = pace.pause(100 * one_ms_of_bytes, at(start, 6)).unwrap();
        assert_eq!(big, MAX_PAUSE, "one pause never exceeds {MAX_PAUSE:?}");
    }

    #[test]
    fn a_quiet_spell_banks_no_more_than_a_little_credit() {
        let start = Instant::now();
        let mut pace = TypingPace::default();
        let one_ms_of_bytes = (TYPING_RATE / 1000.0) as usize;
        pace.pause(one_ms_of_bytes, start);
        // Two seconds without output, then a burst: paced from the burst on.
        let pause = pace.pause(30 * one_ms_of_bytes, at(start, 2_000));
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
        assert_eq!(pace.pause(100 * one_ms_of_bytes, start), Some(MAX_PAUSE));
        let before = Instant::now();
        pace.after_read(one_ms_of_bytes, false);
        assert!(before.elapsed() < MAX_PAUSE, "calm output never waits");
        let pause = pace.pause(one_ms_of_bytes, Instant::now());
        assert!(
            pause.is_some_and(|p| p <= Duration::from_micros(1_100)),
            "only the new millisecond's bytes count: {pause:?}"
        );
    }
}
