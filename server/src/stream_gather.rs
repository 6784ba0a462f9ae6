//! When a stream's writer lets output gather before a write. Under a flood (a pane's output
//! arriving faster than [`FLOOD_BYTES`] per [`WINDOW`]) each write first waits
//! [`FLOOD_GATHER`] for more, so a recorder's stream costs a few hundred wake-ups a second on
//! both sides instead of one per PTY read; interactive output (an echo, a prompt) goes at once.
//!
//! The flood is judged by the rate written, not by the size of the last write: a stream that
//! keeps up with the reads writes one small chunk per wake-up and would never see a large
//! write, staying in the costly one-write-per-read mode for the whole flood (what made
//! `phux rec -- cat` of 200 MB take 1.5x the CPU in some runs and 3.6x in others).

use std::time::{Duration, Instant};

/// Output at least this large within one window is a flood (3.2 MB/s).
const FLOOD_BYTES: usize = 64 * 1024;
/// The window over which the rate is judged.
const WINDOW: Duration = Duration::from_millis(20);
/// How long a write under a flood waits for more output (well inside the observer queue: at
/// 100 MB/s, 400 KB of 4096-byte reads).
pub const FLOOD_GATHER: Duration = Duration::from_millis(4);

/// One stream's view of how fast it writes.
#[derive(Debug)]
pub struct StreamGather {
    window_start: Instant,
    bytes: usize,
    flooding: bool,
}

impl Default for StreamGather {
    fn default() -> Self {
        StreamGather {
            window_start: Instant::now(),
            bytes: 0,
            flooding: false,
        }
    }
}

impl StreamGather {
    /// How long to let output gather before the next write: [`FLOOD_GATHER`] under a flood.
    pub fn wait(&self) -> Option<Duration> {
        self.flooding.then_some(FLOOD_GATHER)
    }

    /// Counts a write of `len` bytes at `now`: a window holding a flood's worth makes the
    /// stream flooding at once; a window that closes with less makes it calm again.
    pub fn wrote(&mut self, len: usize, now: Instant) {
        if now.duration_since(self.window_start) >= WINDOW {
            self.flooding = self.bytes >= FLOOD_BYTES;
            self.window_start = now;
            self.bytes = 0;
        }
        self.bytes += len;
        if self.bytes >= FLOOD_BYTES {
            self.flooding = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream that keeps up (one 4 KiB read per write) gathers once the rate says flood.
    #[test]
    fn many_small_writes_make_a_flood() {
        let mut gather = StreamGather::default();
        let start = Instant::now();
        assert_eq!(gather.wait(), None);
        for i in 0..16 {
            gather.wrote(4096, start + Duration::from_micros(70 * i));
        }
        assert_eq!(gather.wait(), Some(FLOOD_GATHER), "16 reads in about 1 ms");
    }

    /// Typing and prompts never gather, and a flood that ends is calm after one quiet window.
    #[test]
    fn interactive_output_goes_at_once() {
        let mut gather = StreamGather::default();
        let start = Instant::now();
        for i in 0..100 {
            gather.wrote(64, start + Duration::from_millis(10 * i));
        }
        assert_eq!(gather.wait(), None);
        gather.wrote(FLOOD_BYTES, start + Duration::from_millis(1_000));
        assert!(gather.wait().is_some());
        gather.wrote(10, start + Duration::from_millis(1_030));
        gather.wrote(10, start + Duration::from_millis(1_060));
        assert_eq!(gather.wait(), None, "calm again");
    }
}
