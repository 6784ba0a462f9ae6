//! Input leases (`phux take` / `phux give`): while a pane's lease is held, only its holder's
//! input reaches the pane; everyone else's write is refused with `input_lease_held`, naming the
//! holder and since when, before a byte is written (retrying is safe). A lease ends when given
//! back, at its TTL (counted from its holder's last write: typing renews it), when the process
//! it was taken for has died (`phux take`'s shell or script), or, when taken by an attached
//! client, with that client's connection.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;
use phux_core::state_view::LeaseView;

use phux_core::process_identity::ProcessIdentity;

use crate::request_error::RequestError;

/// The longest a lease may be taken for.
pub const MAX_TTL: Duration = Duration::from_secs(24 * 60 * 60);

#[derive(Debug, Clone)]
struct Held {
    holder: String,
    since_unix: u64,
    ends_at: Option<Instant>,
    expires_unix: Option<u64>,
    /// How long it lasts after its holder's last write.
    ttl: Option<Duration>,
    connection: Option<u64>,
    process: Option<ProcessIdentity>,
}

/// What a take or give changed, for the `lease` watch event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    Taken,
    Seized,
    Given,
    Expired,
    Unchanged,
}

impl Change {
    pub fn action(&self) -> Option<&'static str> {
        Some(match self {
            Change::Taken => "taken",
            Change::Seized => "seized",
            Change::Given => "given",
            Change::Expired => "expired",
            Change::Unchanged => return None,
        })
    }
}

/// A lease as `phux upgrade` carries it to the next process (times as wall-clock seconds).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CarriedLease {
    pub holder: String,
    pub since_unix: u64,
    pub expires_unix: Option<u64>,
}

#[derive(Debug, Default)]
pub struct Leases {
    held: Mutex<HashMap<PaneId, Held>>,
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl Held {
    fn view(&self) -> LeaseView {
        LeaseView {
            holder: self.holder.clone(),
            since: self.since_unix,
            expires: self.expires_unix,
        }
    }
}

impl Leases {
    fn lock(&self) -> MutexGuard<'_, HashMap<PaneId, Held>> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Drops leases past their TTL; returns the panes whose lease expired.
    pub fn expire(&self) -> Vec<PaneId> {
        let now = Instant::now();
        let mut held = self.lock();
        let gone: Vec<PaneId> = held
            .iter()
            .filter(|(_, h)| {
                h.ends_at.is_some_and(|at| at <= now) || h.process.is_some_and(|p| !p.is_alive())
            })
            .map(|(p, _)| *p)
            .collect();
        for pane in &gone {
            held.remove(pane);
        }
        gone
    }

    /// The lease on `pane`, if one is held.
    pub fn view(&self, pane: PaneId) -> Option<LeaseView> {
        let now = Instant::now();
        self.lock()
            .get(&pane)
            .filter(|h| h.ends_at.is_none_or(|at| at > now))
            .map(Held::view)
    }

    /// Refuses a write to `pane` by `actor` while someone else holds its lease; the holder's
    /// own write renews its TTL.
    pub fn check(&self, pane: PaneId, actor: Option<&str>) -> Result<(), RequestError> {
        let Some(lease) = self.view(pane) else {
            return Ok(());
        };
        if actor == Some(lease.holder.as_str()) {
            self.renew(pane);
            return Ok(());
        }
        let held_for = unix_now().saturating_sub(lease.since);
        Err(RequestError::refused(
            ErrorCode::InputLeaseHeld,
            format!(
                "{pane} is taken by {} (for {held_for} s, since {}); nothing was written",
                lease.holder, lease.since
            ),
            format!(
                "wait until it is given back (`phux watch --until lease {pane}`); its holder gives \
                 it back with `phux give {pane}`, and the pane's owner may take it over with \
                 `phux take {pane} --seize`"
            ),
        ))
    }

    /// The holder wrote: its lease lasts its TTL from now.
    fn renew(&self, pane: PaneId) {
        let mut held = self.lock();
        if let Some(lease) = held.get_mut(&pane) {
            if let Some(ttl) = lease.ttl {
                lease.ends_at = Some(Instant::now() + ttl);
                lease.expires_unix = Some(unix_now() + ttl.as_secs());
            }
        }
    }

    /// Takes `pane`'s lease for `holder` (cooperative unless `seize`); it ends with
    /// `connection` or `process` too, when given.
    pub fn take(
        &self,
        pane: PaneId,
        (holder, process): (&str, Option<ProcessIdentity>),
        seize: bool,
        ttl: Option<Duration>,
        connection: Option<u64>,
    ) -> Result<(Change, LeaseView), RequestError> {
        self.expire();
        let mut held = self.lock();
        let change = match held.get(&pane) {
            Some(current) if current.holder != holder && !seize => {
                return Err(RequestError::refused(
                    ErrorCode::InputLeaseHeld,
                    format!(
                        "{pane} is taken by {} since {}; it was not taken",
                        current.holder, current.since_unix
                    ),
                    format!("wait for `phux give {pane}`, or take it over with --seize"),
                ))
            }
            Some(current) if current.holder != holder => Change::Seized,
            _ => Change::Taken,
        };
        let since_unix = match held.get(&pane) {
            Some(current) if current.holder == holder => current.since_unix,
            _ => unix_now(),
        };
        let lease = Held {
            holder: holder.to_owned(),
            since_unix,
            ends_at: ttl.map(|t| Instant::now() + t),
            expires_unix: ttl.map(|t| unix_now() + t.as_secs()),
            ttl,
            connection,
            process,
        };
        let view = lease.view();
        held.insert(pane, lease);
        Ok((change, view))
    }

    /// Gives `pane`'s lease back if `holder` holds it; otherwise nothing changes.
    pub fn give(&self, pane: PaneId, holder: &str) -> (Change, Option<LeaseView>) {
        let mut held = self.lock();
        match held.get(&pane) {
            Some(current) if current.holder == holder => {
                held.remove(&pane);
                (Change::Given, None)
            }
            other => (Change::Unchanged, other.map(Held::view)),
        }
    }

    /// Ends the leases taken with `connection`; returns their panes.
    pub fn end_connection(&self, connection: u64) -> Vec<PaneId> {
        let mut held = self.lock();
        let gone: Vec<PaneId> = held
            .iter()
            .filter(|(_, h)| h.connection == Some(connection))
            .map(|(p, _)| *p)
            .collect();
        for pane in &gone {
            held.remove(pane);
        }
        gone
    }

    /// The lease `phux upgrade` carries: one that lives with a connection ends with it.
    pub fn carried(&self, pane: PaneId) -> Option<CarriedLease> {
        let held = self.lock();
        let lease = held.get(&pane).filter(|h| h.connection.is_none())?;
        Some(CarriedLease {
            holder: lease.holder.clone(),
            since_unix: lease.since_unix,
            expires_unix: lease.expires_unix,
        })
    }

    /// Puts back a lease the previous process held (`phux upgrade`); one already past its
    /// time is not.
    pub fn restore(&self, pane: PaneId, lease: CarriedLease) {
        let now = unix_now();
        if lease.expires_unix.is_some_and(|t| t <= now) {
            return;
        }
        let ends_at = lease
            .expires_unix
            .map(|t| Instant::now() + Duration::from_secs(t.saturating_sub(now)));
        self.lock().insert(
            pane,
            Held {
                holder: lease.holder,
                since_unix: lease.since_unix,
                ends_at,
                expires_unix: lease.expires_unix,
                ttl: None,
                connection: None,
                process: None,
            },
        );
    }

    /// A pane that ended holds no lease.
    pub fn forget(&self, pane: PaneId) {
        self.lock().remove(&pane);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_holder_types_until_it_gives_back() {
        let leases = Leases::default();
        let pane = PaneId(3);
        leases.check(pane, None).unwrap();
        leases
            .take(pane, ("alice", None), false, None, None)
            .unwrap();
        assert!(leases.check(pane, None).is_err());
        assert!(leases.check(pane, Some("bot")).is_err());
        leases.check(pane, Some("alice")).unwrap();
        assert!(leases.take(pane, ("bot", None), false, None, None).is_err());
        assert_eq!(leases.give(pane, "bot").0, Change::Unchanged);
        assert_eq!(
            leases
                .take(pane, ("bot", None), true, None, None)
                .unwrap()
                .0,
            Change::Seized
        );
        assert_eq!(leases.give(pane, "bot").0, Change::Given);
        leases.check(pane, None).unwrap();
    }

    /// A crashed script held a pane until `--seize`: a lease taken for a process ends with it,
    /// and one with a TTL lasts while its holder types.
    #[test]
    fn a_lease_ends_with_its_process_and_its_holders_typing_renews_it() {
        let leases = Leases::default();
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let process = ProcessIdentity::of(child.id());
        assert!(process.is_some());
        let ttl = Some(Duration::from_millis(300));
        leases
            .take(PaneId(4), ("script", process), false, ttl, None)
            .unwrap();
        leases
            .take(PaneId(5), ("typist", None), false, ttl, None)
            .unwrap();
        assert!(leases.expire().is_empty());
        child.kill().unwrap();
        child.wait().unwrap();
        for _ in 0..4 {
            std::thread::sleep(Duration::from_millis(100));
            leases.check(PaneId(5), Some("typist")).unwrap();
        }
        assert_eq!(
            leases.expire(),
            vec![PaneId(4)],
            "the dead process's, not the typist's"
        );
        std::thread::sleep(Duration::from_millis(350));
        assert_eq!(leases.expire(), vec![PaneId(5)], "untouched past its TTL");
    }

    #[test]
    fn a_lease_ends_with_its_ttl_and_its_connection() {
        let leases = Leases::default();
        leases
            .take(PaneId(1), ("a", None), false, Some(Duration::ZERO), None)
            .unwrap();
        assert_eq!(leases.expire(), vec![PaneId(1)]);
        leases
            .take(PaneId(2), ("tui", None), false, None, Some(9))
            .unwrap();
        assert_eq!(leases.end_connection(9), vec![PaneId(2)]);
        assert!(leases.view(PaneId(2)).is_none());
    }
}
