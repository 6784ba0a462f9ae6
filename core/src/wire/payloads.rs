//! The `ok` payloads of responses whose answer is more than `Done`. Requests not listed here
//! answer: `get_state` → `StateView`, `get_screen` → `ScreenState`, `observe` → `ObserveStart`,
//! `insert_pane` / `move_pane` / `swap_pane` → `SpatialEditJson`, everything else → `Done`.

use serde::{Deserialize, Serialize};

use crate::ids::{PaneId, SessionId};
use crate::wire::handshake::ProtocolVersion;

/// `new_session`: the session created and its seed pane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewSessionOk {
    pub session: String,
    pub session_id: SessionId,
    pub pane: PaneId,
}

/// `spawn`: the pane created and the session it joined.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpawnOk {
    pub pane: PaneId,
    pub session: String,
}

/// `resize`: the size the server holds afterwards, read back from the pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResizeOk {
    pub cols: u16,
    pub rows: u16,
}

/// `tags_get` / `tags_add` / `tags_remove`: each pane's complete tag list after the request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TagsOk {
    pub panes: Vec<PaneTags>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaneTags {
    pub pane: PaneId,
    pub tags: Vec<String>,
}

/// `status`: facts only the server knows; the client adds the session list from `get_state`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusOk {
    pub pid: u32,
    pub socket: String,
    pub since_unix_secs: u64,
    pub protocol: ProtocolVersion,
    pub clients: u32,
    pub log: Option<String>,
    /// The remote listener, when one runs (absent from servers that predate it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listener: Option<crate::wire::ListenerView>,
}

/// `shell_state`: whether a shell is listening in the pane, as its process group and its OSC 133
/// marks tell it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShellStateOk {
    /// The pane's own program (its process name) and its executable.
    pub program: String,
    #[serde(default)]
    pub program_path: String,
    /// The terminal's foreground program when it is not the pane's own.
    pub foreground: Option<ForegroundProgram>,
    /// The shell emits OSC 133 marks (phux's shell integration, or the user's own).
    pub marked: bool,
    /// A command has started (C) and not finished (D).
    pub running: bool,
    /// The prompt has been drawn to its end (B) since the last command finished.
    #[serde(default)]
    pub at_prompt: bool,
    /// Commands finished (D marks) so far.
    pub commands_finished: u64,
    /// The last finished command, when more than `output_after` have finished.
    pub last_command: Option<FinishedCommand>,
    /// The pane's output position now (opaque; see `Marked`).
    #[serde(default)]
    pub mark: u64,
    /// With `since_mark`: the output written after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<OutputSince>,
}

/// The `ok` payload of `input` and `paste`: the pane's output position just before the bytes
/// were written, so output at or after it came after them. Opaque to clients: only ever handed
/// back in `since_mark`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Marked {
    #[serde(default)]
    pub mark: u64,
    /// A paste's answer: whether the text went in bracketed-paste brackets (the program asked
    /// for them). Absent for typed keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bracketed: Option<bool>,
}

/// A pane's output after a mark, rendered as rows on a terminal of the pane's width.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputSince {
    pub text: String,
    /// Output after the mark was no longer kept (the oldest kept is shown).
    #[serde(default)]
    pub lost: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForegroundProgram {
    pub pid: u32,
    pub name: String,
    /// It was started with something to run (a script, `-c COMMAND`), not as an interactive
    /// program: a shell doing that is busy, not at a prompt.
    #[serde(default)]
    pub runs_script: bool,
}

/// A command's end as its D mark reported it, and its output as the pane showed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinishedCommand {
    pub exit_code: Option<i32>,
    pub output: String,
    pub truncated: bool,
}

/// `attach_client`: the client's id (for `client_resize`) and the session it joined.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttachOk {
    pub client: u32,
    pub session: String,
    /// The secret `client_resize` must carry with `client`: only the connection that attached
    /// (and so read this) may change its client's size or session.
    #[serde(default)]
    pub key: String,
}

/// `detach_clients`: how many clients were asked to leave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DetachOk {
    pub detached: u32,
}

/// The `ok` payload of `lease`: the pane's lease as it stands after the request, and a note
/// when nothing changed (a give by someone who does not hold it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaseOk {
    pub pane: crate::ids::PaneId,
    pub lease: Option<crate::state_view::LeaseView>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}
