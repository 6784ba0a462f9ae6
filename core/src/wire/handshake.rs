//! The handshake: the client's `hello`, the server's `welcome` or `refused`, and the version rule.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::wire::error::WireError;
use crate::wire::server_msg::ServerMessage;

/// Peers with the same `major` understand each other; `minor` only adds messages and fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProtocolVersion {
    pub major: u32,
    pub minor: u32,
}

/// The protocol this build speaks.
pub const PROTOCOL: ProtocolVersion = ProtocolVersion { major: 1, minor: 0 };

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// The first message a client sends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    pub protocol: ProtocolVersion,
    /// Who is asking, e.g. `phux-cli 0.1.0`; for logs only.
    pub client: String,
    /// This connection may read but not write (`PHUX_READ_ONLY=1`): every request that would
    /// type, change or end something is refused with `permission_denied`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub read_only: bool,
}

/// The server accepted the client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Welcome {
    pub protocol: ProtocolVersion,
    pub server_version: String,
    pub pid: u32,
    /// Which life of the pane ids this server serves: the same across `phux upgrade` and a
    /// takeover of kept panes, new when a server starts afresh (so an `@3` held from before
    /// may name another pane). 0 from a server that does not say.
    #[serde(default)]
    pub instance: u64,
    /// This connection may watch but not type or change anything (a read-only remote
    /// credential, or a hello that asked for it): a front end hides what it would refuse.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub read_only: bool,
}

/// The server turned the client down.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refused {
    pub reason: String,
}

/// The server's answer to a `hello`.
pub fn negotiate(hello: &Hello, server_version: &str, pid: u32) -> ServerMessage {
    if hello.protocol.major == PROTOCOL.major {
        ServerMessage::Welcome(Welcome {
            protocol: PROTOCOL,
            server_version: server_version.to_owned(),
            pid,
            instance: 0,
            read_only: false,
        })
    } else {
        ServerMessage::Refused(Refused {
            reason: format!(
                "protocol major version mismatch: server speaks {PROTOCOL}, client speaks {}",
                hello.protocol
            ),
        })
    }
}

/// The client's check of the server's answer: a welcome of the same major, or a typed error.
pub fn check_welcome(answer: ServerMessage) -> Result<Welcome, WireError> {
    match answer {
        ServerMessage::Welcome(welcome) if welcome.protocol.major == PROTOCOL.major => Ok(welcome),
        ServerMessage::Welcome(welcome) => Err(WireError::VersionMismatch {
            ours: PROTOCOL,
            theirs: welcome.protocol,
        }),
        ServerMessage::Refused(refused) => Err(WireError::Refused(refused.reason)),
        _ => Err(WireError::Unexpected("expected welcome or refused")),
    }
}
