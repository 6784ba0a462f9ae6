//! What can go wrong reading or writing the wire, typed so callers can tell a peer's fault from
//! a closed socket.

use crate::error_code::ErrorCode;
use crate::error_doc::ContractError;
use crate::wire::handshake::ProtocolVersion;

#[derive(Debug, thiserror::Error)]
pub enum WireError {
    /// A frame announced or needed more than the limit; nothing was allocated for it.
    #[error("frame of {len} bytes exceeds the {max}-byte limit")]
    TooLarge { len: u64, max: u32 },
    /// The stream ended inside a frame.
    #[error("connection closed inside a frame ({got} of {expected} bytes)")]
    Truncated { expected: u64, got: u64 },
    /// The peer closed the connection between frames.
    #[error("connection closed")]
    Closed,
    /// A frame whose layout is wrong (empty, or a short output chunk).
    #[error("malformed frame: {0}")]
    Malformed(&'static str),
    /// A JSON frame that is not a message of this protocol.
    #[error("bad JSON message: {0}")]
    BadJson(#[from] serde_json::Error),
    /// The peers speak different major versions.
    #[error("protocol major version mismatch: we speak {ours}, the peer speaks {theirs}")]
    VersionMismatch {
        ours: ProtocolVersion,
        theirs: ProtocolVersion,
    },
    /// The server turned the handshake down.
    #[error("server refused the connection: {0}")]
    Refused(String),
    /// The peer answered with something other than what the protocol allows here.
    #[error("unexpected message: {0}")]
    Unexpected(&'static str),
    #[error("socket I/O: {0}")]
    Io(#[from] std::io::Error),
}

impl ContractError for WireError {
    fn code(&self) -> ErrorCode {
        match self {
            WireError::Closed | WireError::Truncated { .. } => ErrorCode::ServerDisconnected,
            WireError::VersionMismatch { .. } => ErrorCode::ServerTooOld,
            _ => ErrorCode::Transport,
        }
    }

    fn remedy(&self) -> String {
        match self {
            WireError::Closed | WireError::Truncated { .. } => {
                "the server went away; check `phux status`, then retry".to_owned()
            }
            WireError::VersionMismatch { .. } => {
                "client and server are different phux versions; restart the server with this binary (`phux kill --server`, then `phux server`)".to_owned()
            }
            _ => "retry; if it persists, restart the server and report the bug".to_owned(),
        }
    }
}
