//! The owner's view of the remote listener's admitted connections (`phux pair connections`,
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
