//! The server's memory of recent watch events: every event any pane raised, kept for a while
//! (bounded in count and age), so `watch --since DURATION` can replay what happened before the
//! watcher arrived (the ask or the exit it would otherwise have missed).

use std::collections::VecDeque;
use std::time::Duration;

use phux_core::documents::WatchEventKind;
use phux_core::ids::PaneId;

/// At most this many events are kept.
pub const RING_EVENTS: usize = 16_384;
/// Events older than this are dropped.
pub const RING_AGE: Duration = Duration::from_secs(3600);

/// One remembered event: the pane, the event, and when it happened on both clocks.
#[derive(Debug, Clone)]
pub struct PastEvent {
    pub pane: PaneId,
    pub kind: WatchEventKind,
    /// Monotonic, since the server's epoch (as every bus event is stamped).
    pub t_ns: u64,
    /// The wall clock when it happened, in nanoseconds since the Unix epoch.
    pub ts_ns: Option<u64>,
}

#[derive(Debug, Default)]
pub struct EventRing {
    events: VecDeque<PastEvent>,
}

impl EventRing {
    /// Remembers `event`, forgetting the oldest beyond the count and those past the age.
    pub fn push(&mut self, event: PastEvent) {
        let horizon = event
            .t_ns
            .saturating_sub(u64::try_from(RING_AGE.as_nanos()).unwrap_or(u64::MAX));
        while self
            .events
            .front()
            .is_some_and(|e| e.t_ns < horizon || self.events.len() >= RING_EVENTS)
        {
            self.events.pop_front();
        }
        self.events.push_back(event);
    }

    /// The events at or after `from_ns` (monotonic), oldest first; of one pane when `pane`.
    pub fn since(&self, from_ns: u64, pane: Option<PaneId>) -> Vec<PastEvent> {
        self.events
            .iter()
            .filter(|e| e.t_ns >= from_ns && pane.is_none_or(|p| p == e.pane))
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(pane: u32, t_ns: u64) -> PastEvent {
        PastEvent {
            pane: PaneId(pane),
            kind: WatchEventKind::Bell,
            t_ns,
            ts_ns: None,
        }
    }

    #[test]
    fn replays_the_window_asked_for_and_of_the_pane_asked_for() {
        let mut ring = EventRing::default();
        for (pane, t) in [(1, 10), (2, 20), (1, 30)] {
            ring.push(event(pane, t));
        }
        let times = |v: Vec<PastEvent>| v.iter().map(|e| e.t_ns).collect::<Vec<_>>();
        assert_eq!(times(ring.since(15, None)), vec![20, 30]);
        assert_eq!(times(ring.since(0, Some(PaneId(1)))), vec![10, 30]);
        assert!(ring.since(31, None).is_empty());
    }

    #[test]
    fn forgets_beyond_its_count_and_its_age() {
        let mut ring = EventRing::default();
        for t in 0..(RING_EVENTS as u64 + 10) {
            ring.push(event(1, t));
        }
        assert_eq!(ring.events.len(), RING_EVENTS);
        assert_eq!(ring.events.front().map(|e| e.t_ns), Some(10));
        let late =
            u64::try_from(RING_AGE.as_nanos()).unwrap_or(u64::MAX) + RING_EVENTS as u64 + 1_000;
        ring.push(event(1, late));
        assert_eq!(ring.events.len(), 1, "everything older than the age went");
    }
}
