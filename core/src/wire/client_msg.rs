//! Messages a client sends: the `hello` and the requests, each carrying an `id` for its response.

use serde::{Deserialize, Serialize};

use crate::ids::{PaneId, WindowId};
use crate::keys::InputAction;
use crate::split::SplitDirection;
use crate::wire::handshake::Hello;

/// Every client→server JSON message, tagged by `type`. An unknown type decodes to `Unknown` so
/// the server can answer instead of dropping the connection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    Hello(Hello),
    GetState(IdOnly),
    Status(IdOnly),
    NewSession(NewSession),
    Spawn(Spawn),
    Kill(Kill),
    KillWindow(KillWindow),
    KillSession(KillSession),
    KillServer(IdOnly),
    RenameSession(RenameSession),
    Resize(Resize),
    Signal(Signal),
    TagsGet(Tags),
    TagsAdd(Tags),
    TagsRemove(Tags),
    Input(Input),
    Paste(Paste),
    GetScreen(GetScreen),
    Subscribe(Subscribe),
    Observe(Observe),
    InsertPane(InsertPane),
    MovePane(MovePane),
    SwapPane(SwapPane),
    ReportAsked(ReportAsked),
    AskAnswered(AskAnswered),
    ShellState(ShellState),
    AttachClient(AttachClient),
    ClientResize(ClientResize),
    DetachClients(DetachClients),
    SelectPane(SelectPane),
    NewWindow(NewWindow),
    RenameWindow(RenameWindow),
    SetSplitRatio(SetSplitRatio),
    MetadataGet(crate::wire::agents::MetadataGet),
    MetadataSet(crate::wire::agents::MetadataSet),
    AgentSet(crate::wire::agents::AgentSet),
    AgentClear(crate::wire::agents::AgentClear),
    AgentReportState(crate::wire::agents::AgentReportState),
    AgentInspect(crate::wire::agents::AgentInspect),
    /// A hub's state with every satellite's terminals merged in (`ls`, `status`).
    GetFleet(IdOnly),
    /// Turn this connection into a byte pipe to a satellite's server through the hub's link;
    /// after the `ok`, the client speaks the ordinary protocol (hello first) to the satellite.
    Tunnel(Tunnel),
    /// Hold a pane's one `run` slot for this connection until it is released or the
    /// connection ends; refused (`target_busy`) while another connection holds it.
    ClaimRun(ClaimRun),
    /// Give back the slot `claim_run` took.
    ReleaseRun(ReleaseRun),
    /// Take or give back a pane's input lease.
    Lease(Lease),
    /// Re-exec the server's binary on disk, handing every pane's PTY and the listening socket
    /// to the new process (`phux upgrade`). Answered only by a refusal: on success the
    /// connection closes as the process is replaced.
    Upgrade(IdOnly),
    /// The remote listener's admitted connections (the owner's local socket only).
    RemoteConnections(IdOnly),
    /// End every admitted remote connection of a credential (the owner's local socket only).
    RemoteDisconnect(crate::wire::remote_connections::RemoteDisconnect),
    /// Start the remote listener in the running server (the owner's local socket only).
    Listen(crate::wire::remote_connections::Listen),
    /// A stream of what clients type into a pane (the owner's local socket only).
    TapInput(crate::wire::input_tap::TapInput),
    #[serde(other)]
    Unknown,
}

impl ClientMessage {
    /// Whether only the owner's local connections may ask it (the remote listener's own
    /// connections: who is connected, and ending them; and what is typed into a pane, which
    /// may be a secret).
    pub fn is_owner_only(&self) -> bool {
        matches!(
            self,
            ClientMessage::RemoteConnections(_)
                | ClientMessage::RemoteDisconnect(_)
                | ClientMessage::Listen(_)
                | ClientMessage::TapInput(_)
        )
    }

    /// Whether the request types into a pane or changes or ends something (refused on a
    /// read-only connection); reads, streams and attaching to watch are not.
    pub fn is_write(&self) -> bool {
        use ClientMessage::*;
        !matches!(
            self,
            Hello(_)
                | GetState(_)
                | Status(_)
                | GetScreen(_)
                | Subscribe(_)
                | Observe(_)
                | ShellState(_)
                | MetadataGet(_)
                | AgentInspect(_)
                | GetFleet(_)
                | Tunnel(_)
                | TagsGet(_)
                | AttachClient(_)
                | ClientResize(_)
                | RemoteConnections(_)
                | TapInput(_)
                | Unknown
        )
    }

    /// The request id, for everything but `hello` and unknown messages.
    pub fn id(&self) -> Option<u64> {
        use ClientMessage::*;
        Some(match self {
            Hello(_) | Unknown => return None,
            GetState(m) | Status(m) | KillServer(m) | GetFleet(m) | Upgrade(m) => m.id,
            RemoteConnections(m) => m.id,
            RemoteDisconnect(m) => m.id,
            Listen(m) => m.id,
            TapInput(m) => m.id,
            Tunnel(m) => m.id,
            ClaimRun(m) => m.id,
            ReleaseRun(m) => m.id,
            Lease(m) => m.id,
            NewSession(m) => m.id,
            Spawn(m) => m.id,
            Kill(m) => m.id,
            KillWindow(m) => m.id,
            KillSession(m) => m.id,
            RenameSession(m) => m.id,
            Resize(m) => m.id,
            Signal(m) => m.id,
            TagsGet(m) | TagsAdd(m) | TagsRemove(m) => m.id,
            Input(m) => m.id,
            Paste(m) => m.id,
            GetScreen(m) => m.id,
            Subscribe(m) => m.id,
            Observe(m) => m.id,
            InsertPane(m) => m.id,
            MovePane(m) => m.id,
            SwapPane(m) => m.id,
            ReportAsked(m) => m.id,
            AskAnswered(m) => m.id,
            ShellState(m) => m.id,
            AttachClient(m) => m.id,
            ClientResize(m) => m.id,
            DetachClients(m) => m.id,
            SelectPane(m) => m.id,
            NewWindow(m) => m.id,
            RenameWindow(m) => m.id,
            SetSplitRatio(m) => m.id,
            MetadataGet(m) => m.id,
            MetadataSet(m) => m.id,
            AgentSet(m) => m.id,
            AgentClear(m) => m.id,
            AgentReportState(m) => m.id,
            AgentInspect(m) => m.id,
        })
    }
}

/// Open a pipe to the satellite named `satellite` in the hub's host list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tunnel {
    pub id: u64,
    pub satellite: String,
}

/// `claim_run`: the pane, and the command the run will type (named to a run refused meanwhile).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimRun {
    pub id: u64,
    pub pane: PaneId,
    pub command: String,
}

/// `release_run`: the pane whose run slot this connection holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReleaseRun {
    pub id: u64,
    pub pane: PaneId,
}

/// A request with no arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdOnly {
    pub id: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewSession {
    pub id: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// `[[key, value], ...]`, applied in order.
    #[serde(default)]
    pub env: Vec<(String, String)>,
    /// argv; the default shell when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cols: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<u16>,
    /// Turn this connection into an `observe` stream of the new pane, attached before its
    /// program starts: the answer is an `ObserveStart`, and no byte of a program that exits at
    /// once can be missed (as it could between a `new_session` and an `observe`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub observe: bool,
    /// Rows of history the pane keeps; the server's default (10000) when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_limit: Option<u32>,
}

/// Where a spawned pane goes: next to a pane, or into a session (by name).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SpawnTarget {
    Pane(PaneId),
    Session(String),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Spawn {
    pub id: u64,
    /// The most recently active session when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<SpawnTarget>,
    pub split: SplitDirection,
    pub ratio: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Vec<String>>,
    #[serde(default)]
    pub env: Vec<(String, String)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cols: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<u16>,
    /// Leave the most recently active pane as it was: the new pane does not take the focus
    /// (`play`'s playback pane).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub detached: bool,
    /// Give the new pane no place in the split tree (`insert-pane` places it later).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unplaced: bool,
}

/// Kills the panes as one group, under one lock.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kill {
    pub id: u64,
    pub panes: Vec<PaneId>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KillWindow {
    pub id: u64,
    pub window: WindowId,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KillSession {
    pub id: u64,
    pub session: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RenameSession {
    pub id: u64,
    pub from: String,
    pub to: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resize {
    pub id: u64,
    pub pane: PaneId,
    pub cols: u16,
    pub rows: u16,
}

/// The signals `phux signal` may send to a pane's process group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SignalName {
    Interrupt,
    Freeze,
    Resume,
    Terminate,
    Kill,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Signal {
    pub id: u64,
    pub pane: PaneId,
    pub signal: SignalName,
}

/// `tags_get` ignores `tags`; `tags_add` / `tags_remove` apply them to every pane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tags {
    pub id: u64,
    pub panes: Vec<PaneId>,
    #[serde(default)]
    pub tags: Vec<String>,
}

/// Input for a pane: `actions` already planned by the client, or `keys` (tmux key specs, which
/// the client has validated) planned by the server against the pane's current modes, so arrow
/// keys follow application-cursor mode and pastes are bracketed when the pane asked for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Input {
    pub id: u64,
    pub pane: PaneId,
    #[serde(default)]
    pub actions: Vec<InputAction>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<String>,
    /// With an id the write is acknowledged: the answer comes once the bytes are in the PTY,
    /// and an id seen before is not typed again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<String>,
    /// Who types (`PHUX_AS`, or an attached client's user): while another holds the pane's
    /// input lease, the write is refused (`input_lease_held`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// Asked again under the same `operation_id` because the server first asked went away
    /// before answering (an upgrade, a crash): typed only by a server that knows it was not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub retry: bool,
}

/// Inserted as one (bracketed, if the pane asked for it) paste; never submitted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paste {
    pub id: u64,
    pub pane: PaneId,
    pub text: String,
    /// As for [`Input`]: acknowledged and written at most once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<String>,
    /// As for [`Input`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// As for [`Input`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub retry: bool,
}

/// `lease`: take (or with `seize`, take over) or give back a pane's input lease.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lease {
    pub id: u64,
    pub pane: PaneId,
    /// Take (true) or give back (false).
    pub take: bool,
    /// Who holds it.
    pub holder: String,
    /// Take it over from another holder.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub seize: bool,
    /// It ends after this many seconds (at most a day).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_secs: Option<u64>,
    /// It ends with this connection too (an attached client's).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub with_connection: bool,
    /// It ends when this process has died (`phux take`: the shell or script that ran it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holder_process: Option<crate::process_identity::ProcessIdentity>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GetScreen {
    pub id: u64,
    pub pane: PaneId,
    /// None: viewport only; Some(0): all retained history; Some(n): the last n rows.
    #[serde(default)]
    pub scrollback: Option<u32>,
    #[serde(default)]
    pub cells: bool,
}

/// `events` are watch event names; the server refuses unknown ones with
/// `unknown_event_name` (kept as strings so a newer name is a refusal, not a decode failure).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subscribe {
    pub id: u64,
    /// Every pane when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pane: Option<PaneId>,
    #[serde(default)]
    pub events: Vec<String>,
    /// First replay the watch events of the last `since_ms` milliseconds from the server's
    /// ring (each with the time it happened), then go on live. With `pane`, the stream is then
    /// not ended by that pane closing (it is a filter on the server-wide stream).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since_ms: Option<u64>,
    /// First replay the remembered watch events stamped after this monotonic time (the `t_ns`
    /// of the last event a watcher saw: it resumes without losing one), then go on live; as
    /// `since_ms` otherwise. The answer's `now_ns` is where a watcher that saw nothing resumes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_ns: Option<u64>,
}

/// Starts a recorder stream: the server answers with [`crate::wire::ObserveStart`], then sends
/// output chunks, the first of which is the engine's repaint of the screen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observe {
    pub id: u64,
    pub pane: PaneId,
    /// Replay this much already-recorded output from the flight recorder first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since_ms: Option<u64>,
    /// A front end showing the pane, not a recorder: the pane is not marked as recorded.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub viewer: bool,
    /// A viewer that keeps its own scrollback (the browser page): the first repaint, and the
    /// repaint after every resize of the pane, carry this many rows of the pane's history
    /// above the screen (at most 10,000). The repaint after a resize replaces the output in
    /// between, so the viewer's rows equal the server's whatever its engine's reflow does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_rows: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InsertPane {
    pub id: u64,
    pub target: PaneId,
    pub new_pane: PaneId,
    pub split: SplitDirection,
    pub ratio: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MovePane {
    pub id: u64,
    pub source: PaneId,
    pub target: PaneId,
    pub split: SplitDirection,
    pub ratio: f64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwapPane {
    pub id: u64,
    pub first: PaneId,
    pub second: PaneId,
}

/// An ask raised on a pane (`phux ask`); `ask_id` is the caller's id for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportAsked {
    pub id: u64,
    pub pane: PaneId,
    #[serde(default)]
    pub ask_id: String,
    pub question: String,
    #[serde(default)]
    pub suggestions: Vec<String>,
    #[serde(default)]
    pub elapsed_seconds: Option<u64>,
}

/// The pane's ask `ask_id` was answered (`phux agent answer`): it is no longer active. A
/// title's ask stays until the program changes its title; another id changes nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AskAnswered {
    pub id: u64,
    pub pane: PaneId,
    pub ask_id: String,
}

/// `shell_state`: what the pane's shell is doing (for `run`). With `output_after`, the answer
/// carries the last finished command when more than that many have finished.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShellState {
    pub id: u64,
    pub pane: PaneId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_after: Option<u64>,
    /// With a mark, the answer carries the pane's output written after it (`wait --after`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since_mark: Option<u64>,
}

/// Attaches a front end (the TUI) to a session whose windows then take a size from every
/// attached client's (the window-size policy). The connection becomes a stream of
/// [`crate::wire::ClientNotice`]s; closing it detaches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttachClient {
    pub id: u64,
    /// The most recently active session when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The area the client has for the session's windows (its terminal less the status line).
    pub cols: u16,
    pub rows: u16,
}

/// An attached client's area changed (or its session's layout did and sizes must follow).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientResize {
    pub id: u64,
    pub client: u32,
    /// The `key` of the client's `attach_client` answer; another client's id is refused.
    #[serde(default)]
    pub key: String,
    pub cols: u16,
    pub rows: u16,
    /// The session the client now shows (it may have switched).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
}

/// Asks every attached client of `session` (of every session when absent) to detach.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DetachClients {
    pub id: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
}

/// A person focused `pane`: it becomes the most recently active pane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelectPane {
    pub id: u64,
    pub pane: PaneId,
}

/// A new window (running `command`, else the default shell) at the end of `session`'s window
/// list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewWindow {
    pub id: u64,
    pub session: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// argv; the default shell when absent (`workspace restore` starts a saved command).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cols: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<u16>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RenameWindow {
    pub id: u64,
    pub window: WindowId,
    pub name: String,
}

/// Sets the ratio of the innermost `split` around `pane` (the share its first child keeps), or,
/// with `path`, of the split reached from the root of `pane`'s window by that way (`false` =
/// first child, `true` = second), as a mouse dragging a border names it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetSplitRatio {
    pub id: u64,
    pub pane: PaneId,
    pub split: SplitDirection,
    pub ratio: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<bool>>,
}
