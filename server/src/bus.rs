//! The per-pane event bus: what a pane core publishes (watch events, output with the time the
//! server read it, resizes, screen changes) and the subscribers that receive it. Every
//! subscriber has a bounded queue; one that cannot keep up is dropped (watchers, observers) or
//! coalesced (change listeners), so no subscriber can make the server's memory grow.

use crossbeam_channel::{Receiver, Sender, TrySendError};
use phux_core::documents::{WatchEventKind, WatchEventName};
use phux_core::ids::PaneId;
use std::sync::Arc;

/// Queue length of a watch subscription before it is dropped as too slow.
pub const WATCH_QUEUE: usize = 4096;
/// Output chunks an observer (recorder) may have queued before it is told it lagged and dropped.
pub const OBSERVER_QUEUE: usize = 4096;

/// A watcher's channel, held to `WATCH_QUEUE` events by `Subscriber::deliver`. Not a bounded
/// channel: one allocates and writes every slot up front (about 0.5 MB for 4096 bus events),
/// and every pane has a watcher (its agent supervisor) that is nearly always empty; this one
/// takes room a block of slots at a time, as events wait (issue 41).
pub fn watch_channel() -> (Sender<BusEvent>, Receiver<BusEvent>) {
    crossbeam_channel::unbounded()
}

/// An observer's channel, held to `OBSERVER_QUEUE` chunks and the lag notice after them.
pub fn observer_channel() -> (Sender<BusEvent>, Receiver<BusEvent>) {
    crossbeam_channel::unbounded()
}

/// One thing that happened in a pane.
#[derive(Debug, Clone)]
pub enum BusEvent {
    /// A watch event (bell, title, command start/finish, dirty/idle, spawn/close, cwd, ask).
    Watch {
        pane: PaneId,
        kind: WatchEventKind,
        t_ns: u64,
    },
    /// Program output exactly as read, stamped with the monotonic read time.
    Output {
        pane: PaneId,
        seq: u64,
        t_ns: u64,
        bytes: Arc<[u8]>,
    },
    /// The grid changed size.
    Resized {
        pane: PaneId,
        cols: u16,
        rows: u16,
        t_ns: u64,
    },
    /// The screen changed; re-read it (coalesced: at most one is ever queued).
    Changed { pane: PaneId },
    /// The observer fell behind and was dropped; `dropped` is the size of the first chunk it
    /// did not get (everything after it is lost to it too).
    Lagged { pane: PaneId, dropped: u64 },
    /// A write to the pane (typed bytes, or a paste's text), for its input taps only: never
    /// published on a bus, so no watcher or observer sees it.
    Input {
        pane: PaneId,
        t_ns: u64,
        bytes: Arc<[u8]>,
        paste: Option<Arc<str>>,
    },
}

/// What a subscriber wants.
#[derive(Debug, Clone)]
pub enum Interest {
    /// Watch events of these names (all when empty).
    Watch(Vec<WatchEventName>),
    /// Output and resizes (a recorder).
    Observe,
    /// Screen-changed notifications plus every watch event (wait / run).
    Changes,
}

/// How long a pane's end waits for room in a change listener's queue.
const END_DELIVERY: std::time::Duration = std::time::Duration::from_secs(1);

pub struct Subscriber {
    pub interest: Interest,
    pub tx: Sender<BusEvent>,
}

impl Subscriber {
    /// Whether the queue holds all it may: a bounded channel says so itself, an unbounded one
    /// (`watch_channel`, `observer_channel`) by the length its interest allows.
    fn is_full(&self) -> bool {
        let limit = match self.interest {
            Interest::Watch(_) => WATCH_QUEUE,
            Interest::Observe => OBSERVER_QUEUE,
            Interest::Changes => 1,
        };
        self.tx.capacity().is_none() && self.tx.len() >= limit
    }

    fn wants(&self, event: &BusEvent) -> bool {
        match (&self.interest, event) {
            (Interest::Watch(names), BusEvent::Watch { kind, .. }) => {
                names.is_empty() || names.iter().any(|n| n.as_str() == kind.name())
            }
            (Interest::Observe, BusEvent::Output { .. } | BusEvent::Resized { .. }) => true,
            (
                Interest::Observe,
                BusEvent::Watch {
                    kind: WatchEventKind::PaneClosed { .. },
                    ..
                },
            ) => true,
            (Interest::Changes, BusEvent::Changed { .. } | BusEvent::Watch { .. }) => true,
            _ => false,
        }
    }

    /// Delivers `event`; false when this subscriber must be removed.
    fn deliver(&self, event: &BusEvent) -> bool {
        if !self.wants(event) {
            return true;
        }
        if let (Interest::Observe, BusEvent::Output { pane, bytes, .. }) = (&self.interest, event) {
            if self.tx.len() >= OBSERVER_QUEUE {
                // The spare slot holds the notice, so a recorder learns why its stream ended.
                let lagged = BusEvent::Lagged {
                    pane: *pane,
                    dropped: bytes.len() as u64,
                };
                let _ = self.tx.try_send(lagged);
                return false;
            }
        }
        let sent = if self.is_full() {
            Err(TrySendError::Full(event.clone()))
        } else {
            self.tx.try_send(event.clone())
        };
        match sent {
            Ok(()) => true,
            // A change listener's one queued notice already says "re-read": coalescing loses
            // nothing it needs, so a full queue never drops it. The pane's end is the exception:
            // it carries the status `run` reports, so it waits (briefly) for room.
            Err(TrySendError::Full(event)) => match (&self.interest, &event) {
                (
                    Interest::Changes,
                    BusEvent::Watch {
                        kind: WatchEventKind::PaneClosed { .. },
                        ..
                    },
                ) => self.tx.send_timeout(event, END_DELIVERY).is_ok(),
                (Interest::Changes, _) => true,
                _ => false,
            },
            Err(TrySendError::Disconnected(_)) => false,
        }
    }
}

/// A list of subscribers.
#[derive(Default)]
pub struct Bus {
    subscribers: Vec<Subscriber>,
}

impl Bus {
    pub fn add(&mut self, subscriber: Subscriber) {
        self.subscribers.push(subscriber);
    }

    pub fn publish(&mut self, event: &BusEvent) {
        self.subscribers.retain(|s| s.deliver(event));
    }

    pub fn is_empty(&self) -> bool {
        self.subscribers.is_empty()
    }

    pub fn has_changes_listener(&self) -> bool {
        self.subscribers
            .iter()
            .any(|s| matches!(s.interest, Interest::Changes))
    }
}

/// Monotonic nanoseconds since the server started; every PTY read is stamped with it.
pub fn now_ns(epoch: std::time::Instant) -> u64 {
    epoch.elapsed().as_nanos() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossbeam_channel::bounded;

    // Regression: a change listener whose one-slot queue was full was dropped when a watch event
    // arrived, silently ending `wait` / `run` streams.
    #[test]
    fn a_full_change_listener_is_coalesced_not_dropped() {
        let (tx, rx) = bounded(1);
        let mut bus = Bus::default();
        bus.add(Subscriber {
            interest: Interest::Changes,
            tx,
        });
        let pane = PaneId(1);
        bus.publish(&BusEvent::Changed { pane });
        bus.publish(&BusEvent::Watch {
            pane,
            kind: WatchEventKind::Bell,
            t_ns: 1,
        });
        bus.publish(&BusEvent::Changed { pane });
        assert!(!bus.is_empty(), "the listener stays subscribed");
        assert!(rx.try_recv().is_ok());
    }

    #[test]
    fn a_stuck_observer_is_told_it_lagged_then_dropped() {
        let (tx, rx) = observer_channel();
        let mut bus = Bus::default();
        bus.add(Subscriber {
            interest: Interest::Observe,
            tx,
        });
        let chunk = |seq| BusEvent::Output {
            pane: PaneId(1),
            seq,
            t_ns: seq,
            bytes: Arc::from(&b"abc"[..]),
        };
        for seq in 0..=OBSERVER_QUEUE as u64 {
            bus.publish(&chunk(seq));
        }
        assert!(bus.is_empty(), "dropped once its queue was full");
        let last = rx.try_iter().last();
        assert!(
            matches!(last, Some(BusEvent::Lagged { dropped: 3, .. })),
            "{last:?}"
        );
    }

    // Regression (issue 41): the watch channel became unbounded so an idle watcher costs no
    // preallocated slots; it must still drop a watcher that stops reading at WATCH_QUEUE.
    #[test]
    fn a_stuck_watcher_on_a_watch_channel_is_dropped_at_the_queue_limit() {
        let (tx, rx) = watch_channel();
        let mut bus = Bus::default();
        bus.add(Subscriber {
            interest: Interest::Watch(Vec::new()),
            tx,
        });
        for t_ns in 0..=WATCH_QUEUE as u64 {
            bus.publish(&BusEvent::Watch {
                pane: PaneId(1),
                kind: WatchEventKind::Bell,
                t_ns,
            });
        }
        assert!(bus.is_empty(), "dropped once its queue was full");
        assert_eq!(rx.len(), WATCH_QUEUE);
    }

    #[test]
    fn a_stuck_watcher_is_dropped_instead_of_growing() {
        let (tx, _rx) = bounded(2);
        let mut bus = Bus::default();
        bus.add(Subscriber {
            interest: Interest::Watch(Vec::new()),
            tx,
        });
        for t_ns in 0..3 {
            bus.publish(&BusEvent::Watch {
                pane: PaneId(1),
                kind: WatchEventKind::Bell,
                t_ns,
            });
        }
        assert!(bus.is_empty());
    }
}
