//! A pane's input lease (`take` / `give`): who holds it, and the request that changes it.

use std::time::Duration;

use phux_core::ids::PaneId;
use phux_core::wire::{ClientMessage, Lease, LeaseOk};

use crate::connection::Client;
use crate::error::ClientError;

/// Who takes a lease when no `--as` is given: `PHUX_AS`, else the user's name.
pub fn default_holder() -> String {
    crate::connection::actor_from_env()
        .or_else(|| std::env::var("USER").ok().filter(|u| !u.is_empty()))
        .unwrap_or_else(|| format!("uid {}", rustix::process::getuid().as_raw()))
}

/// Takes `pane`'s lease for `holder` (over another holder's with `seize`); with
/// `with_connection` it ends when `client`'s connection does.
pub fn take(
    client: &mut Client,
    pane: PaneId,
    holder: &str,
    seize: bool,
    ttl: Option<Duration>,
    with_connection: bool,
) -> Result<LeaseOk, ClientError> {
    client.request(ClientMessage::Lease(Lease {
        id: 0,
        pane,
        take: true,
        holder: holder.to_owned(),
        seize,
        ttl_secs: ttl.map(|t| t.as_secs().max(1)),
        with_connection,
        holder_process: None,
    }))
}

/// Takes `pane`'s lease for `holder` on behalf of `process` (the shell or script that ran
/// `phux take`): it ends when that process has died, or `ttl` after the holder last typed.
pub fn take_for(
    client: &mut Client,
    pane: PaneId,
    (holder, process): (&str, Option<phux_core::process_identity::ProcessIdentity>),
    seize: bool,
    ttl: Duration,
) -> Result<LeaseOk, ClientError> {
    client.request(ClientMessage::Lease(Lease {
        id: 0,
        pane,
        take: true,
        holder: holder.to_owned(),
        seize,
        ttl_secs: Some(ttl.as_secs().max(1)),
        with_connection: false,
        holder_process: process,
    }))
}

/// Gives `pane`'s lease back if `holder` holds it (the answer's `note` says when not).
pub fn give(client: &mut Client, pane: PaneId, holder: &str) -> Result<LeaseOk, ClientError> {
    client.request(ClientMessage::Lease(Lease {
        id: 0,
        pane,
        take: false,
        holder: holder.to_owned(),
        seize: false,
        ttl_secs: None,
        with_connection: false,
        holder_process: None,
    }))
}
