//! Why a request failed, as the error half of a response: a code from the closed list, a
//! message naming what was wrong, and the next thing to try.

use crate::pane::PaneError;
use phux_core::error_code::ErrorCode;
use phux_core::wire::WireErrorBody;

#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    #[error("no such target: {0}")]
    NoSuchTarget(String),
    /// The pane's program ended: it can be read, not written to.
    #[error("{} {}", .0.id, .0.ending())]
    PaneExited(phux_core::state_view::ExitedPaneView),
    #[error("a session named {0} already exists")]
    SessionExists(String),
    #[error("cannot start the pane's program: {0}")]
    Spawn(String),
    #[error("{0}")]
    Pane(#[from] PaneError),
    #[error("{message}")]
    Refused {
        code: ErrorCode,
        message: String,
        remedy: String,
    },
    #[error("the server does not understand this request")]
    UnknownRequest,
}

impl RequestError {
    pub fn refused(code: ErrorCode, message: impl Into<String>, remedy: impl Into<String>) -> Self {
        RequestError::Refused {
            code,
            message: message.into(),
            remedy: remedy.into(),
        }
    }

    pub fn body(&self) -> WireErrorBody {
        let message = self.to_string();
        let (code, remedy) = match self {
            RequestError::NoSuchTarget(_) => (
                ErrorCode::NoSuchTarget,
                "list what exists with `phux ls --json`".into(),
            ),
            RequestError::PaneExited(view) => (
                ErrorCode::PaneExited,
                format!(
                    "read its last screen with `phux snapshot {}`; start a new pane with `phux new`",
                    view.id
                ),
            ),
            RequestError::SessionExists(name) => (
                ErrorCode::SessionExists,
                format!("pick another name, or kill the old one with `phux kill {name}`"),
            ),
            RequestError::Spawn(_) => (
                ErrorCode::SpawnFailed,
                "check the command and its working directory".into(),
            ),
            RequestError::Pane(PaneError::Gone) => (
                ErrorCode::NoSuchTarget,
                "the pane closed; list panes with `phux ls`".into(),
            ),
            RequestError::Pane(PaneError::InputTooLarge { .. }) => (
                ErrorCode::InputTooLarge,
                "send the text in smaller pieces, waiting for the program to read each".into(),
            ),
            RequestError::Pane(PaneError::InputBusy { .. }) => (
                ErrorCode::InputBusy,
                "the program is not reading its input; retry later (nothing was written)".into(),
            ),
            RequestError::Pane(PaneError::CanonicalLimit { .. }) => (
                ErrorCode::CanonicalLimitExceeded,
                "split the line, or put the text in a file the program reads".into(),
            ),
            RequestError::Pane(PaneError::UnsafePaste { .. }) => (
                ErrorCode::UnsafePaste,
                "send keys as keys with `phux send-keys`, or paste the text without control characters".into(),
            ),
            RequestError::Pane(PaneError::KeySpec(_)) => (
                ErrorCode::InvalidKeySpec,
                "use tmux key names such as Enter, C-c, M-x, Up, F5".into(),
            ),
            RequestError::Pane(PaneError::Signal(_)) => (
                ErrorCode::SignalFailed,
                "check that the pane is still running".into(),
            ),
            RequestError::Refused { code, remedy, .. } => (*code, remedy.clone()),
            RequestError::UnknownRequest => (
                ErrorCode::ServerTooOld,
                "upgrade the server: `phux kill --server`, then retry".into(),
            ),
        };
        WireErrorBody::new(code, message, remedy)
    }
}
