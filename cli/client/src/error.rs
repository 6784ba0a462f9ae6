//! `ClientError`: everything that can go wrong between a verb and the server, each variant
//! carrying its contract code so the binary prints it without a lookup table.

use std::path::PathBuf;

use phux_core::error_code::ErrorCode;
use phux_core::error_doc::ContractError;
use phux_core::keys::KeySpecError;
use phux_core::resolve::ResolveError;
use phux_core::selector::SelectorError;
use phux_core::split::InvalidRatio;
use phux_core::wire::{ProtocolVersion, WireError, WireErrorBody};

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// Nothing listens at the socket (no socket file, or a stale one), or a server we started
    /// never came up.
    #[error("no server running at {}{}", socket.display(), detail_suffix(detail))]
    NoServer {
        socket: PathBuf,
        detail: Option<String>,
    },
    /// The socket, its directory or the server behind it belongs to another user: nothing was
    /// sent.
    #[error("refusing the socket at {}: {detail}", socket.display())]
    UntrustedSocket { socket: PathBuf, detail: String },
    /// The server closed the connection before answering.
    #[error("the server at {} closed the connection mid-request", socket.display())]
    ServerDisconnected { socket: PathBuf },
    /// `kill --server`: the server answered, but its process still ran at the limit.
    #[error(
        "the server at {} (pid {pid}) was told to stop, but still runs after {} s",
        socket.display(),
        waited.as_secs_f64()
    )]
    StillRunning {
        socket: PathBuf,
        pid: u32,
        waited: std::time::Duration,
    },
    /// The server speaks another major version of the protocol.
    #[error(
        "protocol major version mismatch: this phux speaks {ours}, the server speaks {theirs}"
    )]
    VersionMismatch {
        ours: ProtocolVersion,
        theirs: ProtocolVersion,
    },
    /// Any other failure on the wire: I/O, a malformed or unexpected message, a timeout.
    #[error("transport failure on {}: {message}", socket.display())]
    Transport { socket: PathBuf, message: String },
    /// The server answered the request with an error body.
    #[error("{message}")]
    Server {
        code: ErrorCode,
        message: String,
        remedy: String,
    },
    /// A refusal decided here before anything was sent (spatial edits: `same_pane`,
    /// `selector_not_single`, `selector_miss`, `satellite_target`).
    #[error("{message}")]
    Preflight {
        code: ErrorCode,
        message: String,
        remedy: String,
    },
    #[error(transparent)]
    Selector(#[from] SelectorError),
    #[error(transparent)]
    Resolve(#[from] ResolveError),
    #[error(transparent)]
    KeySpec(#[from] KeySpecError),
    #[error(transparent)]
    Ratio(#[from] InvalidRatio),
}

fn detail_suffix(detail: &Option<String>) -> String {
    detail
        .as_deref()
        .map(|d| format!(" ({d})"))
        .unwrap_or_default()
}

impl ClientError {
    /// Classifies a wire failure on the connection to `socket`.
    pub fn from_wire(socket: &std::path::Path, error: WireError) -> ClientError {
        let socket = socket.to_path_buf();
        match error {
            WireError::Closed | WireError::Truncated { .. } => {
                ClientError::ServerDisconnected { socket }
            }
            WireError::VersionMismatch { ours, theirs } => {
                ClientError::VersionMismatch { ours, theirs }
            }
            WireError::Io(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                ClientError::Transport {
                    socket,
                    message: "the server did not answer in time".to_owned(),
                }
            }
            WireError::Io(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::ConnectionReset
                ) =>
            {
                ClientError::ServerDisconnected { socket }
            }
            other => ClientError::Transport {
                socket,
                message: other.to_string(),
            },
        }
    }

    /// The server's error body; a code this build does not know is reported as `transport`
    /// with the server's code kept in the message, since the vocabulary is closed.
    pub fn from_body(body: WireErrorBody) -> ClientError {
        match body.error_code() {
            Some(code) => ClientError::Server {
                code,
                message: body.message,
                remedy: body.remedy,
            },
            None => ClientError::Server {
                code: ErrorCode::Transport,
                message: format!(
                    "the server answered with error code {:?} unknown to this phux: {}",
                    body.code, body.message
                ),
                remedy: non_empty(body.remedy, "upgrade this phux to the server's version"),
            },
        }
    }

    /// A local preflight refusal.
    pub fn preflight(
        code: ErrorCode,
        message: impl Into<String>,
        remedy: impl Into<String>,
    ) -> ClientError {
        ClientError::Preflight {
            code,
            message: message.into(),
            remedy: remedy.into(),
        }
    }

    /// Whether the failure is about reaching the server rather than about the request.
    pub fn is_transport(&self) -> bool {
        matches!(
            self,
            ClientError::NoServer { .. }
                | ClientError::ServerDisconnected { .. }
                | ClientError::VersionMismatch { .. }
                | ClientError::Transport { .. }
        )
    }
}

fn non_empty(text: String, fallback: &str) -> String {
    if text.trim().is_empty() {
        fallback.to_owned()
    } else {
        text
    }
}

impl ContractError for ClientError {
    fn code(&self) -> ErrorCode {
        match self {
            ClientError::NoServer { .. } => ErrorCode::NoServer,
            ClientError::ServerDisconnected { .. } => ErrorCode::ServerDisconnected,
            ClientError::StillRunning { .. } => ErrorCode::ServerStillRunning,
            ClientError::UntrustedSocket { .. } => ErrorCode::UntrustedSocket,
            ClientError::VersionMismatch { .. } => ErrorCode::ServerTooOld,
            ClientError::Transport { .. } => ErrorCode::Transport,
            ClientError::Server { code, .. } | ClientError::Preflight { code, .. } => *code,
            ClientError::Selector(e) => e.code(),
            ClientError::Resolve(e) => e.code(),
            ClientError::KeySpec(e) => e.code(),
            ClientError::Ratio(e) => e.code(),
        }
    }

    fn remedy(&self) -> String {
        match self {
            ClientError::NoServer { .. } => {
                "start one with `phux server` (or `phux new`, which starts one); check --socket and $PHUX_SOCKET".to_owned()
            }
            ClientError::ServerDisconnected { .. } => {
                "the server went away; check `phux status`, then retry".to_owned()
            }
            ClientError::StillRunning { pid, .. } => format!(
                "`phux logs --server` says what it is busy with; `kill {pid}` stops it the same way (`kill -9 {pid}` ends it at once, and its panes then wait for the next server)"
            ),
            ClientError::UntrustedSocket { .. } => {
                "use a socket in a directory only you can enter (mode 700, owned by you), e.g. unset PHUX_SOCKET and --socket to use the default".to_owned()
            }
            ClientError::VersionMismatch { .. } => {
                "client and server are different phux versions; restart the server with this binary (`phux kill --server`, then `phux server`)".to_owned()
            }
            ClientError::Transport { .. } => {
                "retry; if it persists, restart the server (`phux kill --server`) and report the bug".to_owned()
            }
            ClientError::Server { remedy, .. } | ClientError::Preflight { remedy, .. } => {
                non_empty(remedy.clone(), "see `phux --help`")
            }
            ClientError::Selector(e) => e.remedy(),
            ClientError::Resolve(e) => e.remedy(),
            ClientError::KeySpec(e) => e.remedy(),
            ClientError::Ratio(e) => e.remedy(),
        }
    }
}
