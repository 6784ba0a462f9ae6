//! Where playback gets the time and how it waits: the system clock in use, a virtual one in
//! tests, so pacing is checked exactly without a single timed assertion.

use std::time::Instant;

/// The time source of a playback.
pub trait Clock {
    fn now(&mut self) -> Instant;
    /// Returns at `deadline` or later; at once when it has passed.
    fn sleep_until(&mut self, deadline: Instant);
}

/// The monotonic clock and `thread::sleep`.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&mut self) -> Instant {
        Instant::now()
    }

    fn sleep_until(&mut self, deadline: Instant) {
        // A sleep can end early on some platforms; loop until the deadline really passed.
        loop {
            let now = Instant::now();
            if now >= deadline {
                return;
            }
            std::thread::sleep(deadline - now);
        }
    }
}
