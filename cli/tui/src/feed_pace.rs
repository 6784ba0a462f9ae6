//! A pane feed's share of the scheduler. While its pane floods, the feed's thread receives a
//! keyframe per frame interval (33 ms) and parses each one whole: heavy, steady work beside
//! which a keystroke's echo (the stdin thread, the event loop, the typed pane's feed) must
//! never wait. So while large frames keep coming the thread takes a long scheduler slice (see
//! `phux_core::sched_slice`: any thread woken on its core takes it at once) and yields its core
//! after each frame; when they stop, it takes a short slice again. One large frame (a
//! program's full redraw) is not a flood.

use std::time::{Duration, Instant};

use phux_core::sched_slice::FloodSlice;

/// Large frames this close together make a flood: a flood's keyframes come every 33 ms.
const FLOOD_FRAMES: usize = 3;
const FLOOD_SPAN: Duration = Duration::from_millis(100);

#[derive(Debug, Default)]
pub struct FeedPace {
    /// When the latest large frames came, oldest first.
    recent_large: Vec<Instant>,
    slice: FloodSlice,
}

impl FeedPace {
    /// A frame is about to be applied; `large` when it is a keyframe or a full redraw.
    pub fn frame(&mut self, large: bool) {
        let now = Instant::now();
        if large {
            if self.recent_large.len() == FLOOD_FRAMES {
                self.recent_large.remove(0);
            }
            self.recent_large.push(now);
        }
        let flooding = self.recent_large.len() == FLOOD_FRAMES
            && self
                .recent_large
                .first()
                .is_some_and(|oldest| now.duration_since(*oldest) < FLOOD_SPAN);
        self.slice.set_flooding(flooding);
    }

    /// The frame is applied: while flooding, a thread ready to run on this core goes first.
    pub fn applied(&self) {
        self.slice.make_way();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use phux_core::sched_slice::{on_a_short_sliced_thread, slice_of, FLOOD, SHORT};

    #[test]
    fn a_run_of_large_frames_takes_a_long_slice_until_it_stops() {
        on_a_short_sliced_thread(|| {
            let mut pace = FeedPace::default();
            pace.frame(false);
            assert_eq!(slice_of(0), Some(SHORT), "an echo keeps the short slice");
            pace.frame(true);
            pace.frame(true);
            assert_eq!(slice_of(0), Some(SHORT), "a redraw or two is not a flood");
            pace.frame(true);
            assert_eq!(
                slice_of(0),
                Some(FLOOD),
                "a run of keyframes takes the long one"
            );
            pace.frame(false);
            assert_eq!(
                slice_of(0),
                Some(FLOOD),
                "small frames inside a flood keep it"
            );
            std::thread::sleep(FLOOD_SPAN);
            pace.frame(false);
            assert_eq!(
                slice_of(0),
                Some(SHORT),
                "and the first after it gives it back"
            );
        });
    }
}
