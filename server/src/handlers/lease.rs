//! `lease`: `phux take` / `phux give` (and an attached client's take, which ends with its
//! connection). Every change is announced as a `lease` watch event of the pane.

use std::time::Duration;

use phux_core::documents::WatchEventKind;
use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;
use phux_core::wire::{self, LeaseOk};

use crate::leases::{Change, MAX_TTL};
use crate::pane::PaneCommand;
use crate::request_error::RequestError;
use crate::shared::Shared;

pub fn lease(
    shared: &Shared,
    request: &wire::Lease,
    connection: u64,
) -> Result<LeaseOk, RequestError> {
    let _ = super::pane_ops::handle_for_read(shared, request.pane)?;
    check_holder(&request.holder)?;
    if !request.take {
        let (change, lease) = shared.leases.give(request.pane, &request.holder);
        announce(shared, request.pane, &change);
        if let Some(held) = lease.as_ref().filter(|_| change == Change::Unchanged) {
            // Someone else's lease is theirs to give: refused, as a take of it is.
            return Err(RequestError::refused(
                ErrorCode::InputLeaseHeld,
                format!(
                    "{} holds {}'s lease, not {}: it was not given back",
                    held.holder, request.pane, request.holder
                ),
                format!(
                    "the holder gives it back (`phux give {} --as {}`), or take it over with `phux take --seize {}`",
                    request.pane, held.holder, request.pane
                ),
            ));
        }
        // Nobody held it: giving it back is done already.
        let note = (change == Change::Unchanged)
            .then(|| format!("nobody holds {}'s lease: nothing changed", request.pane));
        return Ok(LeaseOk {
            pane: request.pane,
            lease,
            note,
        });
    }
    let ttl = request.ttl_secs.map(Duration::from_secs);
    if ttl.is_some_and(|t| t > MAX_TTL || t.is_zero()) {
        return Err(RequestError::refused(
            ErrorCode::InvalidArgument,
            format!(
                "a lease lasts from 1 s to a day ({} s), not {} s",
                MAX_TTL.as_secs(),
                request.ttl_secs.unwrap_or_default()
            ),
            "give --ttl a duration up to 24h, or none (held until `phux give`)",
        ));
    }
    let bound = request.with_connection.then_some(connection);
    let (change, view) = shared.leases.take(
        request.pane,
        (&request.holder, request.holder_process),
        request.seize,
        ttl,
        bound,
    )?;
    announce(shared, request.pane, &change);
    Ok(LeaseOk {
        pane: request.pane,
        lease: Some(view),
        note: None,
    })
}

/// A holder's name is shown to people: printable, one line, at most 64 bytes.
fn check_holder(holder: &str) -> Result<(), RequestError> {
    let fine = !holder.is_empty()
        && holder.len() <= 64
        && !holder.chars().any(|c| c.is_control() || c == '\u{202e}');
    if fine {
        return Ok(());
    }
    Err(RequestError::refused(
        ErrorCode::InvalidArgument,
        format!("{holder:?} cannot name a lease's holder"),
        "use a printable name of at most 64 bytes with no control characters (--as NAME)",
    ))
}

/// Tells the pane's watchers how its lease changed.
pub fn announce(shared: &Shared, pane: PaneId, change: &Change) {
    let Some(action) = change.action() else {
        return;
    };
    let holder = shared.leases.view(pane).map(|l| l.holder);
    let handle = shared.tree().panes.get(&pane).map(|e| e.handle.clone());
    if let Some(handle) = handle {
        let _ = handle.send(PaneCommand::Announce(WatchEventKind::Lease {
            action: action.to_owned(),
            holder,
        }));
    }
}

/// Ends the leases whose TTL passed, and those taken by `connection` when it ended.
pub fn expire(shared: &Shared, connection: Option<u64>) {
    let mut gone = shared.leases.expire();
    if let Some(connection) = connection {
        gone.extend(shared.leases.end_connection(connection));
    }
    for pane in gone {
        announce(shared, pane, &Change::Expired);
    }
}
