//! Which life of the server's pane ids the adapter's targets belong to. A server that starts
//! afresh numbers its panes from `@1` again, so an `@3` a host kept from before a restart may
//! name another session's pane now. The server's `welcome` says which instance it is (the same
//! across `phux upgrade` and a takeover of kept panes); the adapter remembers the instance its
//! last results came from and refuses, with `server_restarted`, a call naming a pane by id
//! (`@N`) once the instance at the socket has changed. A call naming no pane by id (`phux_ls`,
//! `phux_new`, ...) that succeeds adopts the new instance: its results name the panes as they
//! are now.

use std::path::Path;
use std::sync::{Mutex, PoisonError};

use phux_client::failure::Failure;
use phux_client::Client;
use phux_core::error_code::ErrorCode;
use serde_json::Value;

/// The argument keys that name panes.
const PANE_KEYS: [&str; 7] = [
    "target", "first", "second", "source", "beside", "new_pane", "targets",
];

/// The instance the adapter's pane ids were learned from (none before the first answer).
#[derive(Debug, Default)]
pub struct Instances {
    known: Mutex<Option<u64>>,
}

/// What [`Instances::check`] saw, for [`Instances::settle`] once the call has answered.
#[derive(Debug, Clone, Copy)]
pub struct Seen {
    now: Option<u64>,
    names_ids: bool,
}

impl Instances {
    /// Before a call: the instance at `socket` (none when no server answers, or one too old
    /// to say), and the refusal when `arguments` name a pane by id of an earlier instance.
    pub fn check(&self, socket: &Path, arguments: &Value) -> Result<Seen, Failure> {
        let ids = pane_ids(arguments);
        // Read for every call: to refuse a stale id, and to adopt the instance after a call
        // naming none.
        let now = instance_at(socket);
        let seen = Seen {
            now,
            names_ids: !ids.is_empty(),
        };
        match (self.known(), now) {
            (Some(known), Some(now)) if known != now && seen.names_ids => Err(Failure::new(
                ErrorCode::ServerRestarted,
                format!(
                    "{} {} from the server that ran at {} before it was restarted; the server \
                     there now numbers its panes afresh, so {} may name another pane: nothing \
                     was read or typed",
                    ids.join(", "),
                    if ids.len() == 1 {
                        "is a pane id"
                    } else {
                        "are pane ids"
                    },
                    socket.display(),
                    if ids.len() == 1 { "it" } else { "they" },
                ),
                "list the panes as they are now with `phux ls` and use the targets it gives",
            )),
            _ => Ok(seen),
        }
    }

    /// After a call: a success naming no pane by id (or the first answer of all) adopts the
    /// instance it talked to.
    pub fn settle(&self, seen: Seen, succeeded: bool) {
        let Some(now) = seen.now else { return };
        let mut known = self.known.lock().unwrap_or_else(PoisonError::into_inner);
        if known.is_none() || (succeeded && !seen.names_ids) {
            *known = Some(now);
        }
    }

    fn known(&self) -> Option<u64> {
        *self.known.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The instance of the server answering at `socket`, if one does and says it.
fn instance_at(socket: &Path) -> Option<u64> {
    let mut client = Client::connect_running(socket).ok()?;
    let instance = client.welcome().ok()?.instance;
    (instance != 0).then_some(instance)
}

/// The `@N` targets among `arguments` (after integers became `@N`); a satellite's `NAME/@N`
/// is numbered by that satellite, not by this server.
fn pane_ids(arguments: &Value) -> Vec<String> {
    let mut ids = Vec::new();
    for key in PANE_KEYS {
        let values = match arguments.get(key) {
            Some(Value::Array(items)) => items.iter().collect(),
            Some(value) => vec![value],
            None => Vec::new(),
        };
        for value in values {
            if let Some(text) = value.as_str().map(str::trim) {
                if text
                    .strip_prefix('@')
                    .is_some_and(|n| n.parse::<u32>().is_ok())
                {
                    ids.push(text.to_owned());
                }
            }
        }
    }
    ids
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_local_pane_ids_are_ids() {
        let args = json!({"target": "@3", "first": "work:0.1", "second": "#build",
            "source": "box/@4", "targets": ["@5", "name"]});
        assert_eq!(pane_ids(&args), vec!["@3", "@5"]);
        assert!(pane_ids(&json!({"target": "."})).is_empty());
    }

    #[test]
    fn a_new_instance_is_adopted_only_by_a_call_naming_no_id() {
        let instances = Instances::default();
        let first = Seen {
            now: Some(1),
            names_ids: true,
        };
        instances.settle(first, true);
        assert_eq!(instances.known(), Some(1));
        let stale = Seen {
            now: Some(2),
            names_ids: true,
        };
        instances.settle(stale, true);
        assert_eq!(instances.known(), Some(1));
        let listing = Seen {
            now: Some(2),
            names_ids: false,
        };
        instances.settle(listing, false);
        assert_eq!(instances.known(), Some(1), "a failed call adopts nothing");
        instances.settle(listing, true);
        assert_eq!(instances.known(), Some(2));
    }
}
