//! Who is tapping each pane's input (`tap_input`, for `phux tape record`), and handing each
//! write to them. A tap is a queue of bus events held to `TAP_QUEUE`: one that stops reading is
//! told it lagged and dropped, so a stuck recorder never grows the server. A pane without a
//! tap costs one uncontended lock per write.

use std::sync::{Arc, Mutex, Weak};

use crossbeam_channel::Sender;
use phux_core::ids::PaneId;

use crate::bus::BusEvent;

/// Writes a tap may have queued before it is dropped (a person types a few a second).
pub const TAP_QUEUE: usize = 4096;

/// What was written to a pane: typed bytes, or a paste's text.
pub enum Written<'a> {
    Typed(&'a [u8]),
    Pasted(&'a str),
}

struct Tap {
    pane: PaneId,
    tx: Sender<BusEvent>,
    /// Gone once the stream that reads the tap ends, whatever pane is written next.
    reader: Weak<()>,
}

#[derive(Default)]
pub struct InputTaps {
    taps: Mutex<Vec<Tap>>,
}

impl InputTaps {
    /// Starts handing `pane`'s writes to `tx`, for as long as the returned token is held.
    pub fn add(&self, pane: PaneId, tx: Sender<BusEvent>) -> Arc<()> {
        let reader = Arc::new(());
        self.lock().push(Tap {
            pane,
            tx,
            reader: Arc::downgrade(&reader),
        });
        reader
    }

    /// Whether anyone taps `pane`'s input.
    pub fn taps(&self, pane: PaneId) -> bool {
        self.lock()
            .iter()
            .any(|tap| tap.pane == pane && tap.reader.strong_count() > 0)
    }

    /// Hands one write to `pane`'s taps, made at `t_ns`.
    pub fn publish(&self, pane: PaneId, t_ns: u64, written: Written<'_>) {
        let mut taps = self.lock();
        if taps.is_empty() {
            return;
        }
        let (bytes, paste): (Arc<[u8]>, Option<Arc<str>>) = match written {
            Written::Typed(bytes) => (Arc::from(bytes), None),
            Written::Pasted(text) => (Arc::from(&b""[..]), Some(Arc::from(text))),
        };
        let event = BusEvent::Input {
            pane,
            t_ns,
            bytes,
            paste,
        };
        taps.retain(|tap| {
            if tap.reader.strong_count() == 0 {
                return false;
            }
            if tap.pane != pane {
                return true;
            }
            if tap.tx.len() >= TAP_QUEUE {
                let _ = tap.tx.try_send(BusEvent::Lagged { pane, dropped: 1 });
                return false;
            }
            tap.tx.try_send(event.clone()).is_ok()
        });
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Tap>> {
        self.taps
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bus::watch_channel;

    #[test]
    fn a_write_reaches_its_pane_s_taps_only_and_a_paste_carries_its_text() {
        let taps = InputTaps::default();
        let (tx, rx) = watch_channel();
        let _reader = taps.add(PaneId(1), tx);
        assert!(taps.taps(PaneId(1)) && !taps.taps(PaneId(2)));
        taps.publish(PaneId(2), 1, Written::Typed(b"other"));
        taps.publish(PaneId(1), 2, Written::Typed(b"ls\r"));
        taps.publish(PaneId(1), 3, Written::Pasted("a\nb"));
        let got: Vec<_> = rx.try_iter().collect();
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(
            matches!(&got[0], BusEvent::Input { t_ns: 2, bytes, paste: None, .. }
            if &bytes[..] == b"ls\r")
        );
        assert!(
            matches!(&got[1], BusEvent::Input { t_ns: 3, paste: Some(text), .. }
            if &text[..] == "a\nb")
        );
    }

    #[test]
    fn a_tap_ends_with_its_reader_and_a_stuck_one_is_told_it_lagged() {
        let taps = InputTaps::default();
        let (tx, _rx) = watch_channel();
        let reader = taps.add(PaneId(1), tx);
        drop(reader);
        assert!(!taps.taps(PaneId(1)));
        taps.publish(PaneId(3), 1, Written::Typed(b"x"));
        assert!(
            taps.lock().is_empty(),
            "a tap whose reader ended is removed"
        );
        let (tx, rx) = watch_channel();
        let _reader = taps.add(PaneId(1), tx);
        for t in 0..=TAP_QUEUE as u64 {
            taps.publish(PaneId(1), t, Written::Typed(b"k"));
        }
        assert!(!taps.taps(PaneId(1)), "dropped at the queue's limit");
        assert!(matches!(
            rx.try_iter().last(),
            Some(BusEvent::Lagged { .. })
        ));
    }
}
