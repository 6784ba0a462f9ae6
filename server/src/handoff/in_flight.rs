//! Requests in flight across `phux upgrade`: the hand-off waits (a moment) for the requests
//! connections are serving to be answered before the exec, and a request read after the
//! hand-off began is refused, saying nothing was done, so its client asks the new process.
//! Without this, a write the old process had taken but not answered was cut by the exec, and
//! its client could not tell whether it had been done.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

static SERVING: AtomicUsize = AtomicUsize::new(0);
static HANDING_OVER: AtomicBool = AtomicBool::new(false);

/// How long a hand-off waits for the requests in flight.
const DRAIN_WAIT: Duration = Duration::from_secs(1);

/// A request being served; counted until it is dropped (after its answer is written).
pub struct Serving(());

impl Drop for Serving {
    fn drop(&mut self) {
        SERVING.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A request read now is served (`Some`), unless a hand-off began (`None`: refuse it).
pub fn request_begins() -> Option<Serving> {
    SERVING.fetch_add(1, Ordering::AcqRel);
    let serving = Serving(());
    (!HANDING_OVER.load(Ordering::Acquire)).then_some(serving)
}

/// The hand-off begins: no request is served from now on, and those in flight (but `own`, the
/// upgrade's) are waited for, up to a second. Returns how many were still in flight.
pub fn drain(own: usize) -> usize {
    HANDING_OVER.store(true, Ordering::Release);
    let deadline = Instant::now() + DRAIN_WAIT;
    loop {
        let serving = SERVING.load(Ordering::Acquire).saturating_sub(own);
        if serving == 0 || Instant::now() >= deadline {
            return serving;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The hand-off failed: requests are served again.
pub fn resume() {
    HANDING_OVER.store(false, Ordering::Release);
}
