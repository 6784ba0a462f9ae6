//! Each pane's one `run` slot: a `run` types a command and reads its end from the shell, so two
//! at once on one pane would type into each other's command and read each other's result.
//! A run claims the slot on its connection before it types anything; another connection's
//! claim is refused with `target_busy` naming the run in flight; the slot is given back when
//! the run releases it or its connection ends (a client killed mid-run frees it too).

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;

use crate::request_error::RequestError;

#[derive(Debug)]
struct Holder {
    connection: u64,
    command: String,
    since: Instant,
}

#[derive(Debug, Default)]
pub struct RunSlots {
    held: Mutex<HashMap<PaneId, Holder>>,
}

impl RunSlots {
    fn lock(&self) -> MutexGuard<'_, HashMap<PaneId, Holder>> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes `pane`'s slot for `connection` (again, if it holds it already).
    pub fn claim(&self, pane: PaneId, connection: u64, command: &str) -> Result<(), RequestError> {
        let mut held = self.lock();
        if let Some(holder) = held.get(&pane).filter(|h| h.connection != connection) {
            return Err(RequestError::refused(
                ErrorCode::TargetBusy,
                format!(
                    "{pane} has a `run` in flight ({:?}, for {:.1} s); nothing was typed",
                    holder.command,
                    holder.since.elapsed().as_secs_f64()
                ),
                format!(
                    "run one command at a time per pane: wait for that run to return, or use another pane (`phux spawn`); `phux wait --idle 500 {pane}` waits for the pane to settle"
                ),
            ));
        }
        held.insert(
            pane,
            Holder {
                connection,
                command: command.to_owned(),
                since: Instant::now(),
            },
        );
        Ok(())
    }

    /// Gives back `pane`'s slot if `connection` holds it.
    pub fn release(&self, pane: PaneId, connection: u64) {
        let mut held = self.lock();
        if held.get(&pane).is_some_and(|h| h.connection == connection) {
            held.remove(&pane);
        }
    }

    /// Gives back every slot `connection` holds: it ended.
    pub fn release_all(&self, connection: u64) {
        self.lock().retain(|_, h| h.connection != connection);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_connection_is_refused_until_the_first_lets_go() {
        let slots = RunSlots::default();
        slots.claim(PaneId(1), 1, "sleep 2").unwrap();
        let refused = slots.claim(PaneId(1), 2, "true").unwrap_err();
        assert!(refused.to_string().contains("sleep 2"), "{refused}");
        slots.claim(PaneId(2), 2, "true").unwrap();
        slots.release(PaneId(1), 2);
        assert!(slots.claim(PaneId(1), 2, "true").is_err());
        slots.release_all(1);
        slots.claim(PaneId(1), 2, "true").unwrap();
    }
}
