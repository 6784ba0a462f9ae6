//! The owner's view of the remote listener: starting it on a running server (`phux listen`),
//! what it binds (in `status`), and its admitted connections (`phux pair connections`,
//! `pair disconnect`, `pair revoke --disconnect`): asked on the local socket only.

use serde::{Deserialize, Serialize};

/// `remote_disconnect`: end every admitted connection of `credential_id` at once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteDisconnect {
    pub id: u64,
    pub credential_id: String,
}

/// One admitted remote connection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteConnectionView {
    /// This server's number for it.
    pub connection: u64,
    pub credential_id: String,
    pub read_only: bool,
    /// `/wire` (one client connection) or `/link` (a hub's link of channels).
    pub path: String,
    /// The address it came from.
    pub peer: String,
    pub since_unix: u64,
    /// Client connections it has open in this server (a `/wire` one, a link's channels).
    pub channels: u32,
}

/// The answer to `remote_connections`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteConnectionsOk {
    pub connections: Vec<RemoteConnectionView>,
}

/// The answer to `remote_disconnect`: how many connections were ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteDisconnectOk {
    pub disconnected: u32,
}

/// `listen`: start the remote listener on `addr` (`HOST:PORT`) in the running server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listen {
    pub id: u64,
    pub addr: String,
}

/// The running listener: what it binds and the certificate a client pins.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListenerView {
    /// The bound address (its real port when port 0 was asked for).
    pub addr: String,
    /// The TLS certificate's SHA-256 fingerprint, as `pair` prints it.
    pub fingerprint: String,
    /// Admitted connections open now.
    pub admitted: u32,
}

/// The answer to `listen`: the listener, and whether this request started it (`false`: it
/// already listened on that address).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListenOk {
    pub listener: ListenerView,
    pub started: bool,
}
