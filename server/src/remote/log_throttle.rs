//! Rate-limited log lines for what a crowd of strangers can cause at will (refused and dropped
//! connections before a token is shown): the first of each kind is logged at once, the rest
//! are counted and logged as one line per [`INTERVAL`]. 256 connections reopened in a loop used
//! to write 151,755 lines (13.9 MB) in 40 s.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// At most one line per kind per interval.
pub const INTERVAL: Duration = Duration::from_secs(10);

#[derive(Default)]
pub struct LogThrottle {
    kinds: Mutex<HashMap<&'static str, Kind>>,
}

struct Kind {
    /// When its last line was written.
    logged: Instant,
    /// How many happened since, not yet logged.
    unlogged: u64,
}

impl LogThrottle {
    /// Notes one event of `kind`; logs `message()` at once when no line of that kind was
    /// written for an interval, else only counts it.
    pub fn note(&self, kind: &'static str, message: impl FnOnce() -> String) {
        let now = Instant::now();
        let mut kinds = self.kinds.lock().unwrap_or_else(PoisonError::into_inner);
        match kinds.get_mut(kind) {
            Some(seen) if now.duration_since(seen.logged) < INTERVAL => {
                seen.unlogged += 1;
            }
            Some(seen) => {
                let unlogged = std::mem::take(&mut seen.unlogged);
                seen.logged = now;
                drop(kinds);
                crate::log::line(&with_count(&message(), unlogged));
            }
            None => {
                kinds.insert(
                    kind,
                    Kind {
                        logged: now,
                        unlogged: 0,
                    },
                );
                drop(kinds);
                crate::log::line(&message());
            }
        }
    }

    /// Writes one line per kind with events not yet logged, once its interval has passed
    /// (called every interval, so a burst that stops is still counted in the log).
    pub fn flush(&self) {
        let now = Instant::now();
        let mut lines = Vec::new();
        {
            let mut kinds = self.kinds.lock().unwrap_or_else(PoisonError::into_inner);
            for (kind, seen) in kinds.iter_mut() {
                if seen.unlogged > 0 && now.duration_since(seen.logged) >= INTERVAL {
                    lines.push(format!(
                        "remote: {} more: {kind} in the last {} s",
                        seen.unlogged,
                        INTERVAL.as_secs()
                    ));
                    seen.unlogged = 0;
                    seen.logged = now;
                }
            }
        }
        for line in lines {
            crate::log::line(&line);
        }
    }
}

fn with_count(message: &str, unlogged: u64) -> String {
    if unlogged == 0 {
        return message.to_owned();
    }
    format!(
        "{message} (and {unlogged} more like it in the last {} s)",
        INTERVAL.as_secs()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_one_line_then_counted() {
        let throttle = LogThrottle::default();
        let mut made = 0;
        for _ in 0..1000 {
            throttle.note("refused", || {
                made += 1;
                "remote: refused".into()
            });
        }
        assert_eq!(made, 1, "one line for the burst");
        let kinds = throttle.kinds.lock().unwrap();
        assert_eq!(kinds["refused"].unlogged, 999);
    }
}
