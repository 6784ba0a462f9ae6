//! Acknowledged input: a write that carries an operation id is answered only once its bytes are
//! in the PTY, so the client knows what happened to them. Nothing written (`input_not_written`,
//! safe to retry) and not known (`delivery_unknown`, never resend) are told apart, and an id
//! seen before is answered from the ledger instead of being typed twice.

use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};
use phux_core::error_code::ErrorCode;

use crate::pane::PaneError;
use crate::request_error::RequestError;

/// How long the server waits for the writer before it stops vouching for the bytes.
pub const COMPLETION_WAIT: Duration = Duration::from_secs(5);
/// How long a hand-off waits for the writes in flight to end before it carries them as not
/// known.
const SEAL_WAIT: Duration = Duration::from_millis(500);
/// How long an operation id is remembered.
const REMEMBERED_FOR: Duration = Duration::from_secs(600);
/// How many operation ids are remembered at most (the oldest are forgotten first).
const REMEMBERED_IDS: usize = 65_536;
/// An operation id is at most this long (a 128-bit id is 32 hex digits).
const MAX_ID_LEN: usize = 128;

/// What became of an acknowledged write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// Still being written by another request with the same id.
    InFlight,
    /// Every byte reached the PTY.
    Written,
    /// Some bytes may have reached the PTY, or it is not known whether they did.
    Unknown,
}

/// The operation ids seen lately and what became of their writes.
#[derive(Default)]
pub struct Ledger {
    seen: Mutex<Seen>,
    /// Signalled when a failed hand-off unseals the ledger, and when a write ends.
    changed: Condvar,
}

#[derive(Default)]
struct Seen {
    outcomes: HashMap<String, Outcome>,
    order: VecDeque<(Instant, String)>,
    /// A hand-off is under way: the ledger went into the manifest, so nothing more is typed
    /// here (an id the next server does not know was never typed).
    sealed: bool,
    /// This server took the ledger over from the one before it (an upgrade): an id it does
    /// not know, asked again after that server went away, was never typed.
    carried: bool,
}

/// An operation id an upgrade carries to the next server, and whether its bytes were all
/// written (else it is not known, and never typed again).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CarriedOperation {
    pub id: String,
    pub written: bool,
}

impl Seen {
    fn forget_old(&mut self, now: Instant) {
        while let Some((at, _)) = self.order.front() {
            let expired = now.duration_since(*at) > REMEMBERED_FOR;
            if !expired && self.order.len() <= REMEMBERED_IDS {
                break;
            }
            if let Some((_, id)) = self.order.pop_front() {
                self.outcomes.remove(&id);
            }
        }
    }

    fn record(&mut self, id: &str, outcome: Outcome) {
        if self.outcomes.insert(id.to_owned(), outcome).is_none() {
            self.order.push_back((Instant::now(), id.to_owned()));
        }
    }
}

impl Ledger {
    fn lock(&self) -> MutexGuard<'_, Seen> {
        self.seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Stops typing (a hand-off): returns every id remembered, those still being written as
    /// not known. What asks to type after this waits: the exec ends the wait (its client asks
    /// the next server, which types it, knowing it was never typed here), or a failed hand-off
    /// does (this server types it).
    pub fn seal(&self) -> Vec<CarriedOperation> {
        let mut seen = self.lock();
        seen.sealed = true;
        // A write already handed to its pane's writer is done in moments: waited for (a while
        // at most), so the next server knows it was typed rather than that it may have been.
        let give_up = Instant::now() + SEAL_WAIT;
        while seen.outcomes.values().any(|o| *o == Outcome::InFlight) {
            let left = give_up.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            seen = (self.changed.wait_timeout(seen, left))
                .map_or_else(|e| e.into_inner().0, |(guard, _)| guard);
        }
        seen.order
            .iter()
            .filter_map(|(_, id)| {
                let outcome = seen.outcomes.get(id)?;
                Some(CarriedOperation {
                    id: id.clone(),
                    written: *outcome == Outcome::Written,
                })
            })
            .collect()
    }

    /// The hand-off failed: this server types again.
    pub fn unseal(&self) {
        self.lock().sealed = false;
        self.changed.notify_all();
    }

    /// Takes over the ledger an upgrade carried.
    pub fn restore(&self, carried: Vec<CarriedOperation>) {
        let mut seen = self.lock();
        seen.carried = true;
        for operation in carried {
            let outcome = if operation.written {
                Outcome::Written
            } else {
                Outcome::Unknown
            };
            seen.record(&operation.id, outcome);
        }
    }

    /// Writes once for `id`: `write` queues the bytes (`None`: there were none to write) and the
    /// answer waits until the writer has taken them, at most [`COMPLETION_WAIT`]. `retry`: the
    /// client asks again because the server it first asked went away before answering; an id
    /// this server does not know is then typed only if it took the ledger over from that
    /// server (an upgrade), else whether it was typed is not known.
    pub fn deliver(
        &self,
        id: &str,
        write: impl FnOnce() -> Result<Option<Receiver<usize>>, PaneError>,
        len: usize,
        retry: bool,
    ) -> Result<(), RequestError> {
        check_id(id)?;
        {
            let mut seen = self.lock();
            while seen.sealed {
                seen = (self.changed.wait(seen)).unwrap_or_else(std::sync::PoisonError::into_inner);
            }
            seen.forget_old(Instant::now());
            match seen.outcomes.get(id) {
                Some(Outcome::Written) => return Ok(()),
                Some(Outcome::InFlight | Outcome::Unknown) => return Err(unknown(id)),
                None if retry && !seen.carried => return Err(lost_with_its_server(id)),
                None => seen.record(id, Outcome::InFlight),
            }
        }
        let result = match write() {
            Ok(None) => Ok(()),
            Ok(Some(written)) => await_writer(&written, len, id),
            Err(PaneError::Gone) => Err(not_written(
                "the pane closed before the input was handed to it",
            )),
            Err(e) => Err(RequestError::Pane(e)),
        };
        let mut seen = self.lock();
        match &result {
            Ok(()) => seen.record(id, Outcome::Written),
            Err(RequestError::Refused {
                code: ErrorCode::DeliveryUnknown,
                ..
            }) => seen.record(id, Outcome::Unknown),
            // Nothing was written: the same id may try again.
            Err(_) => {
                seen.outcomes.remove(id);
            }
        }
        self.changed.notify_all();
        result
    }
}

fn await_writer(written: &Receiver<usize>, len: usize, id: &str) -> Result<(), RequestError> {
    match written.recv_timeout(COMPLETION_WAIT) {
        Ok(n) if n == len => Ok(()),
        Ok(0) | Err(RecvTimeoutError::Disconnected) => Err(not_written(
            "the pane closed before any of the input reached it",
        )),
        Ok(_) => Err(unknown(id)),
        Err(RecvTimeoutError::Timeout) => Err(unknown(id)),
    }
}

fn check_id(id: &str) -> Result<(), RequestError> {
    let valid = !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if valid {
        return Ok(());
    }
    Err(RequestError::refused(
        ErrorCode::InvalidArgument,
        format!("{id:?} is not an operation id"),
        "use up to 128 letters, digits, '-' or '_' (a 128-bit id in hex is 32 digits)",
    ))
}

fn not_written(why: &str) -> RequestError {
    RequestError::refused(
        ErrorCode::InputNotWritten,
        format!("{why}; nothing was written"),
        "retry is safe, under this operation id or a new one",
    )
}

fn lost_with_its_server(id: &str) -> RequestError {
    RequestError::refused(
        ErrorCode::DeliveryUnknown,
        format!(
            "operation {id}: the server first asked went away before it answered, and this one \
             cannot know whether it typed the input"
        ),
        "do not send it again; read the screen (`phux snapshot`) to see what arrived",
    )
}

fn unknown(id: &str) -> RequestError {
    RequestError::refused(
        ErrorCode::DeliveryUnknown,
        format!(
            "operation {id}: the input may or may not have reached the program (it did not \
             take it within {}s)",
            COMPLETION_WAIT.as_secs()
        ),
        "do not send it again; read the screen (`phux snapshot`) to see what arrived",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossbeam_channel::bounded;

    fn acked(written: usize) -> Result<Option<Receiver<usize>>, PaneError> {
        let (tx, rx) = bounded(1);
        tx.send(written).unwrap();
        Ok(Some(rx))
    }

    fn code(result: Result<(), RequestError>) -> String {
        result.unwrap_err().body().code
    }

    #[test]
    fn an_id_written_once_is_not_written_again() {
        let ledger = Ledger::default();
        ledger.deliver("op1", || acked(3), 3, false).unwrap();
        ledger
            .deliver("op1", || panic!("typed twice"), 3, false)
            .unwrap();
    }

    #[test]
    fn nothing_written_may_be_retried_but_a_part_never() {
        let ledger = Ledger::default();
        assert_eq!(
            code(ledger.deliver("a", || acked(0), 3, false)),
            ErrorCode::InputNotWritten.as_str()
        );
        ledger.deliver("a", || acked(3), 3, false).unwrap();
        assert_eq!(
            code(ledger.deliver("b", || acked(1), 3, false)),
            ErrorCode::DeliveryUnknown.as_str()
        );
        assert_eq!(
            code(ledger.deliver("b", || panic!("resent"), 3, false)),
            ErrorCode::DeliveryUnknown.as_str()
        );
    }

    #[test]
    fn a_write_the_writer_dropped_is_not_written_and_bad_ids_are_refused() {
        let ledger = Ledger::default();
        let dropped = || {
            let (_, rx) = bounded::<usize>(1);
            Ok(Some(rx))
        };
        assert_eq!(
            code(ledger.deliver("c", dropped, 3, false)),
            ErrorCode::InputNotWritten.as_str()
        );
        assert_eq!(
            code(ledger.deliver("c", || Err(PaneError::Gone), 3, false)),
            ErrorCode::InputNotWritten.as_str()
        );
        assert_eq!(
            code(ledger.deliver("no spaces", || acked(1), 1, false)),
            ErrorCode::InvalidArgument.as_str()
        );
        assert_eq!(
            code(ledger.deliver("", || acked(1), 1, false)),
            ErrorCode::InvalidArgument.as_str()
        );
    }

    /// An upgrade carries the ledger: what the old server typed is not typed again, what it
    /// never took is typed on a retry, and while sealed nothing is typed. A server that did
    /// not take a ledger over cannot vouch for a retried id it does not know.
    #[test]
    fn a_sealed_ledger_types_nothing_and_its_successor_knows_what_was_typed() {
        let old = Ledger::default();
        old.deliver("typed", || acked(3), 3, false).unwrap();
        let carried = old.seal();
        std::thread::scope(|scope| {
            // A write asked for while sealed waits; unsealed (a failed hand-off), it is typed.
            let late = scope.spawn(|| old.deliver("waited", || acked(2), 2, false));
            std::thread::sleep(std::time::Duration::from_millis(50));
            assert!(!late.is_finished(), "typed while sealed");
            old.unseal();
            late.join().unwrap().unwrap();
        });
        let next = Ledger::default();
        next.restore(carried);
        next.deliver("typed", || panic!("typed twice"), 3, true)
            .unwrap();
        next.deliver("late", || acked(3), 3, true).unwrap();

        let fresh = Ledger::default();
        assert_eq!(
            code(fresh.deliver("typed", || panic!("guessed"), 3, true)),
            ErrorCode::DeliveryUnknown.as_str()
        );
    }
}
