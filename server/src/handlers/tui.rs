//! Requests only a front end makes: attaching and detaching clients, their sizes (and the panes
//! sized from them by the window-size policy), focus, new and renamed windows, split ratios.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::Arc;

use crossbeam_channel::Receiver;
use phux_core::documents::GridSize;
use phux_core::error_code::ErrorCode;
use phux_core::ids::{PaneId, SessionId};
use phux_core::pane_layout::{place, Rect};
use phux_core::split::check_ratio;
use phux_core::state_view::StateView;
use phux_core::wire::{self, AttachOk, ClientNoticeKind, DetachOk, Done, SpawnOk};

use crate::handlers::lifecycle::{entry, inherited_cwd, start_pane, PaneRequest};
use crate::pane::PaneCommand;
use crate::request_error::RequestError;
use crate::shared::Shared;

/// A client attached by `attach_client`: what the connection serves until it closes.
pub struct Attached {
    pub ok: AttachOk,
    pub session: SessionId,
    pub notices: Receiver<ClientNoticeKind>,
}

fn session_id(shared: &Shared, name: &str) -> Result<SessionId, RequestError> {
    shared
        .tree()
        .session(name)
        .map(|s| s.id)
        .ok_or_else(|| no_session(name))
}

fn no_session(name: &str) -> RequestError {
    RequestError::refused(
        ErrorCode::NoSuchTarget,
        format!("no session named {name}"),
        format!("create it with `phux new -s {name}`"),
    )
}

/// Attaches a client to the session `request` names; a `read_only` one views the panes at
/// their size and never sizes them.
pub fn attach(
    shared: &Shared,
    request: &wire::AttachClient,
    read_only: bool,
) -> Result<Attached, RequestError> {
    let (session, name) = {
        let tree = shared.tree();
        let found = match &request.session {
            Some(name) => tree.session(name),
            None => tree
                .recent_pane(None)
                .and_then(|p| tree.panes.get(&p))
                .and_then(|e| tree.session_by_id(e.session)),
        };
        match found {
            Some(s) => (s.id, s.name.clone()),
            None => return Err(no_session(request.session.as_deref().unwrap_or("default"))),
        }
    };
    let size = GridSize {
        cols: request.cols.max(1),
        rows: request.rows.max(1),
    };
    let key = client_key().map_err(|e| {
        RequestError::refused(
            ErrorCode::Transport,
            format!("cannot make the attached client's key: {e}"),
            "retry; if it persists, check that /dev/urandom is readable",
        )
    })?;
    let (client, notices) = shared
        .attached()
        .attach(session, size, (key.clone(), read_only));
    apply_sizes(shared, session);
    Ok(Attached {
        ok: AttachOk {
            client,
            session: name,
            key,
        },
        session,
        notices,
    })
}

/// The client's connection closed: forget it and let the others decide the size.
pub fn detached(shared: &Shared, client: u32) {
    let session = shared.attached().detach(client);
    if let Some(session) = session {
        apply_sizes(shared, session);
    }
}

pub fn client_resize(shared: &Shared, request: &wire::ClientResize) -> Result<Done, RequestError> {
    let session = match &request.session {
        Some(name) => Some(session_id(shared, name)?),
        None => None,
    };
    let size = GridSize {
        cols: request.cols.max(1),
        rows: request.rows.max(1),
    };
    let affected = shared
        .attached()
        .resize((request.client, &request.key), size, session)
        .ok_or_else(|| {
            RequestError::refused(
                ErrorCode::NoSuchTarget,
                format!(
                    "no attached client {} of yours (a client is resized only with the key \
                     its attach_client answered)",
                    request.client
                ),
                "attach again with `phux attach`",
            )
        })?;
    for session in affected {
        apply_sizes(shared, session);
    }
    Ok(Done {})
}

/// 128 random bits, in hex: what makes a client's resizes its own.
fn client_key() -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

pub fn detach_clients(
    shared: &Shared,
    request: &wire::DetachClients,
) -> Result<DetachOk, RequestError> {
    let session = match &request.session {
        Some(name) => Some(session_id(shared, name)?),
        None => None,
    };
    let detached = shared.attached().request_detach(session);
    Ok(DetachOk { detached })
}

pub fn select_pane(shared: &Shared, request: &wire::SelectPane) -> Result<Done, RequestError> {
    let mut tree = shared.tree();
    if !tree.panes.contains_key(&request.pane) {
        return Err(RequestError::NoSuchTarget(request.pane.to_string()));
    }
    tree.touch(request.pane);
    Ok(Done {})
}

pub fn new_window(shared: &Arc<Shared>, request: wire::NewWindow) -> Result<SpawnOk, RequestError> {
    let mut tree = shared.tree();
    let session = tree
        .session(&request.session)
        .map(|s| s.id)
        .ok_or_else(|| no_session(&request.session))?;
    let cwd = request.cwd.map(PathBuf::from).or_else(|| {
        tree.recent_pane(Some(session))
            .and_then(|p| tree.panes.get(&p))
            .and_then(|e| inherited_cwd(shared, &e.handle))
    });
    let id = tree.allocate_pane_id();
    let pane_request = PaneRequest {
        command: &request.command,
        cwd,
        env: &[],
        cols: request.cols,
        rows: request.rows,
        history_limit: None,
    };
    let (handle, _) = start_pane(shared, id, &pane_request, None)?;
    tree.add_window(session, entry(handle, request.cols, request.rows));
    drop(tree);
    apply_sizes(shared, session);
    Ok(SpawnOk {
        pane: id,
        session: request.session,
    })
}

pub fn rename_window(shared: &Shared, request: &wire::RenameWindow) -> Result<Done, RequestError> {
    let name = request.name.trim();
    if name.is_empty() || name.chars().any(char::is_control) {
        return Err(RequestError::refused(
            ErrorCode::InvalidArgument,
            format!("{:?} is not a usable window name", request.name),
            "use printable characters",
        ));
    }
    let mut tree = shared.tree();
    let window = tree
        .find_window_mut(request.window)
        .ok_or_else(|| RequestError::NoSuchTarget(format!("window {}", request.window)))?;
    window.name = name.to_string();
    Ok(Done {})
}

pub fn set_split_ratio(
    shared: &Shared,
    request: &wire::SetSplitRatio,
) -> Result<Done, RequestError> {
    let ratio = check_ratio(request.ratio).map_err(|e| {
        RequestError::refused(
            ErrorCode::InvalidRatio,
            e.to_string(),
            "use a ratio strictly between 0 and 1",
        )
    })?;
    let session = {
        let mut tree = shared.tree();
        let (session, window) = tree
            .panes
            .get(&request.pane)
            .map(|e| (e.session, e.window))
            .ok_or_else(|| RequestError::NoSuchTarget(request.pane.to_string()))?;
        let changed = tree
            .window_mut(session, window)
            .is_some_and(|w| match &request.path {
                Some(path) => w.layout.set_ratio_at(path, request.split, ratio),
                None => w.layout.set_ratio(request.pane, request.split, ratio),
            });
        if !changed {
            return Err(RequestError::refused(
                ErrorCode::InvalidArgument,
                format!("{} has no such split around it", request.pane),
                "split the window first",
            ));
        }
        session
    };
    apply_sizes(shared, session);
    Ok(Done {})
}

/// Gives every pane of `session` the size its place in its window has at the size the policy
/// picks from the attached clients. Nothing changes under `manual` or with no client attached
/// (a detached session keeps its last size).
pub fn apply_sizes(shared: &Shared, session: SessionId) {
    let policy = shared.config.window_size;
    let Some(size) = shared.attached().size_for(session, policy) else {
        return;
    };
    let wanted: Vec<(PaneId, u16, u16, crate::pane::PaneHandle)> = {
        let tree = shared.tree();
        let Some(s) = tree.session_by_id(session) else {
            return;
        };
        let area = Rect::new(0, 0, size.cols, size.rows);
        s.windows
            .iter()
            .flat_map(|w| place(&w.layout.to_view(), area).panes)
            .filter_map(|p| {
                let entry = tree.panes.get(&p.pane)?;
                let (cols, rows) = (p.content.cols.max(1), p.content.rows.max(1));
                (entry.cols != cols || entry.rows != rows)
                    .then(|| (p.pane, cols, rows, entry.handle.clone()))
            })
            .collect()
    };
    for (_, cols, rows, handle) in wanted {
        let _ = handle.ask(|reply| PaneCommand::Resize { cols, rows, reply });
    }
}

/// Fills in what only the attached clients know: attached counts and each session's size.
pub fn fill_attached(shared: &Shared, state: &mut StateView) {
    let clients = shared.attached();
    for session in &mut state.sessions {
        session.attached_clients = clients.count(session.id);
        session.window_size = clients.size_for(session.id, shared.config.window_size);
    }
}

/// A fingerprint of what an attached client draws from the state of `session` (windows,
/// layouts, titles, sizes, focus, and every pane's pending ask): when it changes, the client
/// is told to read it again.
pub fn session_digest(shared: &Shared, session: SessionId) -> Option<u64> {
    let mut state = shared.tree().state_view();
    fill_attached(shared, &mut state);
    let focus = state.focused_in(session);
    let view = state.sessions.into_iter().find(|s| s.id == session)?;
    let mut hasher = DefaultHasher::new();
    serde_json::to_string(&view).ok()?.hash(&mut hasher);
    let view = &view;
    focus.hash(&mut hasher);
    // Asks anywhere: the status line marks them, and `C-a q` jumps to them.
    serde_json::to_string(&shared.agents.pending_asks())
        .ok()?
        .hash(&mut hasher);
    // Who holds each pane's input: the title rows and status line show it.
    for pane in view.windows.iter().flat_map(|w| &w.panes) {
        serde_json::to_string(&shared.leases.view(pane.id))
            .ok()?
            .hash(&mut hasher);
    }
    Some(hasher.finish())
}
