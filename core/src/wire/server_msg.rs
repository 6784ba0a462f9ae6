//! Messages a server sends: the handshake answer, responses, pushed events, and lag notices.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::documents::WatchEventKind;
use crate::error_code::ErrorCode;
use crate::ids::PaneId;
use crate::wire::error::WireError;
use crate::wire::handshake::{Refused, Welcome};

/// Every server→client JSON message, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    Welcome(Welcome),
    Refused(Refused),
    Response(Response),
    Event(Event),
    ObserverLagged(ObserverLagged),
    Resized(Resized),
    ScreenChanged(ScreenChanged),
    ClientNotice(ClientNotice),
    /// On a `tap_input` stream: one write to the pane.
    InputTapped(crate::wire::input_tap::InputTapped),
    #[serde(other)]
    Unknown,
}

/// The error half of a response. `code` stays a string so a newer server's code still decodes;
/// [`WireErrorBody::error_code`] maps it into the closed vocabulary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireErrorBody {
    pub code: String,
    pub message: String,
    pub remedy: String,
}

impl WireErrorBody {
    pub fn new(code: ErrorCode, message: impl Into<String>, remedy: impl Into<String>) -> Self {
        WireErrorBody {
            code: code.as_str().to_owned(),
            message: message.into(),
            remedy: remedy.into(),
        }
    }

    /// The code, if this build knows it.
    pub fn error_code(&self) -> Option<ErrorCode> {
        self.code.parse().ok()
    }
}

/// `ok` with the request's payload, or `error`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Outcome {
    #[serde(rename = "ok")]
    Ok(serde_json::Value),
    #[serde(rename = "error")]
    Error(WireErrorBody),
}

/// The answer to request `id`: `{id, ok: …}` or `{id, error: {code, message, remedy}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Response {
    pub id: u64,
    #[serde(flatten)]
    pub outcome: Outcome,
}

impl Response {
    /// A success carrying `payload`.
    pub fn ok<T: Serialize>(id: u64, payload: &T) -> Result<Self, WireError> {
        Ok(Response {
            id,
            outcome: Outcome::Ok(serde_json::to_value(payload)?),
        })
    }

    pub fn error(id: u64, body: WireErrorBody) -> Self {
        Response {
            id,
            outcome: Outcome::Error(body),
        }
    }

    /// The payload as `T`, or the server's error.
    pub fn into_result<T: DeserializeOwned>(self) -> Result<Result<T, WireErrorBody>, WireError> {
        match self.outcome {
            Outcome::Ok(value) => Ok(Ok(serde_json::from_value(value)?)),
            Outcome::Error(body) => Ok(Err(body)),
        }
    }
}

/// The `ok` payload of a request that changes something and returns nothing more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Done {}

/// The `ok` payload of `observe`: the grid the stream starts at. The output chunk with
/// `seq == repaint_seq` is the engine's repaint; later ones are live output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObserveStart {
    pub pane: PaneId,
    pub cols: u16,
    pub rows: u16,
    pub repaint_seq: u64,
    /// The pane's sequence number when the stream began: chunks up to it are the past (from
    /// the flight recorder), later ones are live. Absent from older servers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub live_seq: Option<u64>,
    /// The server's wall clock at the repaint (the start of the captured window, in the past
    /// with `since_ms`), in nanoseconds since the Unix epoch. Absent from older servers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_unix_ns: Option<u64>,
}

/// A pushed event of a subscription. `pane` is absent for server-scope events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pane: Option<PaneId>,
    pub event: WatchEventKind,
    /// Monotonic server time of the event, in nanoseconds.
    pub t_ns: u64,
    /// The server's wall clock when it sent the event (when it happened, for an event
    /// replayed by `since_ms`), in nanoseconds since the Unix epoch (absent from servers older
    /// than this field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ts_ns: Option<u64>,
}

/// An observer fell behind and the server dropped output instead of buffering without bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObserverLagged {
    pub pane: PaneId,
    pub dropped_bytes: u64,
}

/// On an observer stream: the pane's grid changed size at `t_ns` (between the output chunks
/// around it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resized {
    pub pane: PaneId,
    pub cols: u16,
    pub rows: u16,
    pub t_ns: u64,
}

/// On a `screen_changed` subscription: the pane's screen changed since the last notice; read it
/// again. Notices are coalesced, so one may stand for many changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScreenChanged {
    pub pane: PaneId,
}

/// On an attached client's stream: something the client must act on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientNotice {
    pub notice: ClientNoticeKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientNoticeKind {
    /// `phux detach` (or the session going away): the client should leave.
    Detach,
    /// The session's windows, panes, layout, titles or sizes changed: read the state again.
    StateChanged,
    #[serde(other)]
    Unknown,
}
