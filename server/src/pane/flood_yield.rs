//! Keystrokes before floods. A pane whose program floods output (`cat` of a big file) keeps
//! its reader (which also parses: see `command_loop`) and the program itself busy; on a
//! machine with few cores, a keystroke's echo in another pane (its shell, this server's
//! threads for that pane, the client drawing it) then waits for a core. A flooding pane's
//! reader makes way in three ways:
//! - it asks the scheduler for a long slice while the flood lasts (see
//!   `phux_core::sched_slice`): every other thread has a shorter one and, woken, takes its
//!   core at once instead of waiting for the next timer tick;
//! - it yields the core after every chunk, so a thread that is ready to run goes first;
//! - it stands aside for a moment after any input the server writes to any pane: it stops
//!   reading and parsing (which stops its program too, once the PTY is full) for
//!   [`ECHO_ROOM`] after the input;
//! - while input keeps coming, it reads no faster than someone typing leaves room for (see
//!   `typing_pace`).
//!
//! The flood loses nothing; a pane that is not flooding never waits.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How long a flood stands aside after input: an echo's whole way through the server and an
/// attached client takes well under a millisecond when a core is free.
const ECHO_ROOM: Duration = Duration::from_millis(2);
/// Output faster than this over one window is a flood.
const FLOOD_BYTES_PER_WINDOW: usize = 256 * 1024;
/// The window over which a pane's output rate is judged.
const WINDOW: Duration = Duration::from_millis(50);

/// When input was last written to any pane, in nanoseconds after [`epoch`] (0: never).
static LAST_INPUT_NS: AtomicU64 = AtomicU64::new(0);

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn now_ns() -> u64 {
    // Past the epoch by at least 1, so 0 keeps meaning "never".
    u64::try_from(epoch().elapsed().as_nanos())
        .unwrap_or(u64::MAX)
        .max(1)
}

/// Input is being written to a pane: floods stand aside for a moment.
pub fn input_arrived() {
    LAST_INPUT_NS.store(now_ns(), Ordering::Release);
}

/// Whether input was written to any pane less than `span` ago.
pub fn input_within(span: Duration) -> bool {
    let last = LAST_INPUT_NS.load(Ordering::Acquire);
    last != 0 && Duration::from_nanos(now_ns().saturating_sub(last)) < span
}

/// One thread's view of its pane's output rate.
#[derive(Debug)]
pub struct FloodGauge {
    window_start: Instant,
    bytes: usize,
    flooding: bool,
    slice: phux_core::sched_slice::FloodSlice,
    pace: super::typing_pace::TypingPace,
}

impl Default for FloodGauge {
    fn default() -> Self {
        FloodGauge {
            window_start: Instant::now(),
            bytes: 0,
            flooding: false,
            slice: phux_core::sched_slice::FloodSlice::default(),
            pace: super::typing_pace::TypingPace::default(),
        }
    }
}

impl FloodGauge {
    /// Counts `len` bytes of output; a window that holds a flood's worth makes the pane
    /// flooding, a window that closes with less makes it calm again.
    pub fn handled(&mut self, len: usize) {
        self.bytes += len;
        if self.bytes >= FLOOD_BYTES_PER_WINDOW {
            self.flooding = true;
        }
        if self.window_start.elapsed() >= WINDOW {
            self.flooding = self.bytes >= FLOOD_BYTES_PER_WINDOW;
            self.window_start = Instant::now();
            self.bytes = 0;
        }
        self.slice.set_flooding(self.flooding);
        self.pace.count(len, self.flooding);
    }

    #[cfg(test)]
    fn flooding(&self) -> bool {
        self.flooding
    }

    /// While flooding, lets a thread that is ready to run on this core go first, waits out
    /// what is left of [`ECHO_ROOM`] after the latest input, and then until what was read
    /// fits the typing pace.
    pub fn stand_aside(&self) {
        self.slice.make_way();
        let last = LAST_INPUT_NS.load(Ordering::Acquire);
        if let Some(left) = self.room_left(now_ns(), last) {
            std::thread::sleep(left);
        }
        if let Some(pause) = self.pace.pause(Instant::now()) {
            std::thread::sleep(pause);
        }
    }

    /// How long to stand aside at `now` when input last came at `last_input` (both in ns
    /// after the epoch; 0 is never): only while flooding, only inside [`ECHO_ROOM`].
    fn room_left(&self, now: u64, last_input: u64) -> Option<Duration> {
        if !self.flooding || last_input == 0 {
            return None;
        }
        let since = Duration::from_nanos(now.saturating_sub(last_input));
        ECHO_ROOM.checked_sub(since).filter(|left| !left.is_zero())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_stands_aside_just_after_input_and_calm_output_never_does() {
        let room = u64::try_from(ECHO_ROOM.as_nanos()).unwrap();
        let mut gauge = FloodGauge::default();
        gauge.handled(1024);
        assert!(!gauge.flooding());
        assert_eq!(
            gauge.room_left(1_000, 1_000),
            None,
            "calm output never waits"
        );

        gauge.handled(FLOOD_BYTES_PER_WINDOW);
        assert!(gauge.flooding());
        assert_eq!(gauge.room_left(1_000, 1_000), Some(ECHO_ROOM));
        assert_eq!(
            gauge.room_left(1_000 + room / 2, 1_000),
            Some(ECHO_ROOM / 2)
        );
        assert_eq!(
            gauge.room_left(1_000 + room, 1_000),
            None,
            "the room is over"
        );
        assert_eq!(gauge.room_left(1_000, 0), None, "no input yet");

        input_arrived();
        let last = LAST_INPUT_NS.load(Ordering::Acquire);
        assert!(last > 0 && last <= now_ns());
        assert!(input_within(Duration::from_secs(1)));
        assert!(
            !input_within(Duration::ZERO),
            "nothing is more recent than now"
        );

        let calm = FloodGauge::default();
        assert_eq!(calm.room_left(1_000, 1_000), None);
    }

    #[test]
    fn a_window_that_closes_with_little_output_ends_the_flood() {
        let mut gauge = FloodGauge::default();
        gauge.handled(FLOOD_BYTES_PER_WINDOW);
        assert!(gauge.flooding());
        std::thread::sleep(WINDOW);
        gauge.handled(10); // closes the flooding window: the flood goes on
        assert!(gauge.flooding());
        std::thread::sleep(WINDOW);
        gauge.handled(10); // closes a window of 10 bytes
        assert!(!gauge.flooding());
    }

    #[test]
    fn a_flooding_thread_takes_a_long_slice_and_a_calm_one_a_short_one() {
        use phux_core::sched_slice::{on_a_short_sliced_thread, slice_of, FLOOD, SHORT};
        on_a_short_sliced_thread(|| {
            let mut gauge = FloodGauge::default();
            gauge.handled(1024);
            assert_eq!(
                slice_of(0),
                Some(SHORT),
                "calm output keeps the short slice"
            );
            gauge.handled(FLOOD_BYTES_PER_WINDOW);
            assert_eq!(slice_of(0), Some(FLOOD), "a flood asks for a long one");
            std::thread::sleep(WINDOW);
            gauge.handled(10);
            std::thread::sleep(WINDOW);
            gauge.handled(10);
            assert_eq!(
                slice_of(0),
                Some(SHORT),
                "and gives it up when a window closes calm"
            );
        });
    }
}
