//! Creating and destroying: `new_session`, `spawn`, `kill`, `kill_window`, `kill_session`,
//! `kill_server`, `rename_session`.

use crate::bus::Subscriber;
use crate::pane::{self, ObserveStart, PaneCommand, PaneHandle};
use crate::pty::SpawnSpec;
use crate::request_error::RequestError;
use crate::session_tree::PaneEntry;
use crate::shared::Shared;
use phux_core::error_code::ErrorCode;
use phux_core::error_doc::ContractError;
use phux_core::ids::{PaneId, SessionId, WindowId};
use phux_core::limits::{self, check_session_name};
use phux_core::split::check_ratio;
use phux_core::wire::{self, Done, NewSessionOk, SpawnOk, SpawnTarget};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

const DEFAULT_COLS: u16 = 80;
const DEFAULT_ROWS: u16 = 24;

/// The environment every pane starts with, before the caller's own entries.
fn pane_env(shared: &Shared, id: PaneId, extra: &[(String, String)]) -> Vec<(String, String)> {
    let mut env = vec![
        ("TERM".to_string(), shared.config.term.clone()),
        ("COLORTERM".to_string(), "truecolor".to_string()),
        (
            "PHUX_SOCKET".to_string(),
            shared.config.socket.display().to_string(),
        ),
        // Set in every pane, as tmux sets `$TMUX`: `phux attach` refuses to nest under it.
        (
            "PHUX".to_string(),
            shared.config.socket.display().to_string(),
        ),
        ("PHUX_PANE".to_string(), id.to_string()),
        ("PHUX_TERMINAL_ID".to_string(), id.0.to_string()),
    ];
    env.extend(extra.iter().cloned());
    env
}

pub(crate) struct PaneRequest<'a> {
    pub command: &'a Option<Vec<String>>,
    pub cwd: Option<PathBuf>,
    pub env: &'a [(String, String)],
    pub cols: Option<u16>,
    pub rows: Option<u16>,
    /// The server's default when `None`.
    pub history_limit: Option<u32>,
}

/// Starts a pane's program; every request that creates panes comes here, and a stopping
/// server refuses them all.
pub(crate) fn start_pane(
    shared: &Arc<Shared>,
    id: PaneId,
    request: &PaneRequest<'_>,
    observer: Option<Subscriber>,
) -> Result<(PaneHandle, Option<ObserveStart>), RequestError> {
    if shared.is_stopping() {
        return Err(RequestError::refused(
            ErrorCode::ServerDisconnected,
            "the server is stopping",
            "retry: the next command starts a new server",
        ));
    }
    let argv = match request.command {
        Some(argv) if !argv.is_empty() => argv.clone(),
        _ => vec![shared.config.default_shell.clone()],
    };
    if let Some(cwd) = &request.cwd {
        if !cwd.is_dir() {
            return Err(RequestError::Spawn(format!(
                "{} is not a directory",
                cwd.display()
            )));
        }
    }
    let (cols, rows) = (
        request.cols.unwrap_or(DEFAULT_COLS).max(1),
        request.rows.unwrap_or(DEFAULT_ROWS).max(1),
    );
    // Before anything is allocated: the engine would reserve the whole grid at once.
    check_grid(cols, rows)?;
    if let Some(limit) = request.history_limit {
        let max = crate::config::MAX_HISTORY_LIMIT;
        if limit == 0 || limit as usize > max {
            return Err(RequestError::refused(
                ErrorCode::InvalidArgument,
                format!("a history limit of {limit} rows is outside 1..={max}"),
                format!("ask for 1 to {max} rows of history"),
            ));
        }
    }
    let mut env = pane_env(shared, id, request.env);
    let argv = match crate::shell::inject(&argv, request.env, &integration_dir(shared)) {
        Some(injected) => {
            env.extend(injected.env);
            injected.argv
        }
        None => argv,
    };
    let spec = SpawnSpec {
        argv,
        cwd: request.cwd.clone(),
        env,
        cols,
        rows,
        history_limit: request
            .history_limit
            .map_or(shared.config.scrollback_rows, |rows| rows as usize)
            .max(1),
    };
    let started =
        pane::spawn(id, &spec, shared, observer).map_err(|e| RequestError::Spawn(e.to_string()))?;
    crate::agents::supervise(shared, &started.0);
    Ok(started)
}

/// Where the shell integration scripts are written: beside the socket, in the server's private
/// directory.
fn integration_dir(shared: &Shared) -> PathBuf {
    shared
        .config
        .socket
        .parent()
        .map_or_else(std::env::temp_dir, std::path::Path::to_path_buf)
}

/// What `new` and `spawn` wait for before answering, so an immediate snapshot is never blank: a
/// shell's first prompt (its marks, when integrated) may wait on the user's rc files; another
/// program may never print, so it gets only a moment.
struct FirstPaint {
    prompt: bool,
    limit: Duration,
}

impl FirstPaint {
    fn of(shared: &Shared, command: &Option<Vec<String>>, env: &[(String, String)]) -> Self {
        let argv = match command {
            Some(argv) if !argv.is_empty() => argv.clone(),
            _ => vec![shared.config.default_shell.clone()],
        };
        let name = argv
            .first()
            .and_then(|p| std::path::Path::new(p).file_name())
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        // `bash -c 'job'` runs a script, not a prompt: it may never print, as any program.
        let script = argv.iter().skip(1).any(|a| a == "-c");
        let (prompt, limit) = if crate::shell::Shell::of_argv(&argv).is_some() {
            (!crate::shell::disabled(env), Duration::from_secs(5))
        } else if !script
            && matches!(
                name,
                "sh" | "dash" | "bash" | "zsh" | "fish" | "ksh" | "mksh"
            )
        {
            (false, Duration::from_secs(3))
        } else {
            (false, Duration::from_millis(300))
        };
        FirstPaint { prompt, limit }
    }

    fn wait(&self, shared: &Shared, pane: PaneId) {
        let handle = shared.tree().panes.get(&pane).map(|e| e.handle.clone());
        if let Some(handle) = handle {
            handle.shell().wait_first(self.prompt, self.limit);
        }
    }
}

pub(crate) fn entry(handle: PaneHandle, cols: Option<u16>, rows: Option<u16>) -> PaneEntry {
    PaneEntry {
        handle,
        session: SessionId(0),
        window: WindowId(0),
        tags: Vec::new(),
        title: None,
        cols: cols.unwrap_or(DEFAULT_COLS).max(1),
        rows: rows.unwrap_or(DEFAULT_ROWS).max(1),
    }
}

/// `new_session`: returns once the pane has painted (or its integrated shell has prompted), so
/// a `snapshot` right after `new` is never blank.
pub fn new_session(
    shared: &Arc<Shared>,
    request: wire::NewSession,
) -> Result<NewSessionOk, RequestError> {
    let first_paint = FirstPaint::of(shared, &request.command, &request.env);
    let (ok, _) = new_session_observed(shared, request, None)?;
    first_paint.wait(shared, ok.pane);
    Ok(ok)
}

/// `new_session`, with `observer` attached to the new pane before its program starts.
pub fn new_session_observed(
    shared: &Arc<Shared>,
    request: wire::NewSession,
    observer: Option<Subscriber>,
) -> Result<(NewSessionOk, Option<ObserveStart>), RequestError> {
    if let Some(name) = &request.name {
        check_name(name)?;
    }
    let mut tree = shared.tree();
    let name = tree
        .session_name(request.name.as_deref())
        .map_err(RequestError::SessionExists)?;
    let id = tree.allocate_pane_id();
    let pane_request = PaneRequest {
        command: &request.command,
        cwd: request.cwd.map(PathBuf::from),
        env: &request.env,
        cols: request.cols,
        rows: request.rows,
        history_limit: request.history_limit,
    };
    let (handle, observed) = start_pane(shared, id, &pane_request, observer)?;
    let pane_entry = entry(handle, request.cols, request.rows);
    let session_id = tree.add_session(name.clone(), |session, window| PaneEntry {
        session,
        window,
        ..pane_entry
    });
    let ok = NewSessionOk {
        session: name,
        session_id,
        pane: id,
    };
    Ok((ok, observed))
}

/// `spawn`: like `new`, returns once the pane has painted (or its integrated shell prompted).
pub fn spawn(shared: &Arc<Shared>, request: wire::Spawn) -> Result<SpawnOk, RequestError> {
    let first_paint = FirstPaint::of(shared, &request.command, &request.env);
    let ok = spawn_pane(shared, request)?;
    first_paint.wait(shared, ok.pane);
    Ok(ok)
}

fn spawn_pane(shared: &Arc<Shared>, request: wire::Spawn) -> Result<SpawnOk, RequestError> {
    let ratio = check_ratio(request.ratio).map_err(|e| {
        RequestError::refused(
            ErrorCode::InvalidRatio,
            e.to_string(),
            "use a ratio strictly between 0 and 1",
        )
    })?;
    let mut tree = shared.tree();
    let anchor = match &request.target {
        Some(SpawnTarget::Pane(pane)) => tree
            .panes
            .contains_key(pane)
            .then_some(*pane)
            .ok_or_else(|| RequestError::NoSuchTarget(pane.to_string()))?,
        Some(SpawnTarget::Session(name)) => {
            let session = tree
                .session(name)
                .map(|s| s.id)
                .ok_or_else(|| RequestError::NoSuchTarget(name.clone()))?;
            tree.recent_pane(Some(session))
                .ok_or_else(|| RequestError::NoSuchTarget(name.clone()))?
        }
        None => tree
            .recent_pane(None)
            .ok_or_else(|| RequestError::NoSuchTarget("no session exists".into()))?,
    };
    let cwd = request
        .cwd
        .map(PathBuf::from)
        .or_else(|| inherited_cwd(shared, &tree.panes[&anchor].handle));
    let id = tree.allocate_pane_id();
    let pane_request = PaneRequest {
        command: &request.command,
        cwd,
        env: &request.env,
        cols: request.cols,
        rows: request.rows,
        history_limit: None,
    };
    let (handle, _) = start_pane(shared, id, &pane_request, None)?;
    tree.add_beside(
        anchor,
        entry(handle, request.cols, request.rows),
        request.split,
        ratio,
    );
    if request.detached || request.unplaced {
        tree.demote(id);
    }
    if request.unplaced {
        // Kept in its session, with no place in a window's split tree until insert-pane.
        if let Some((session, window)) = tree.panes.get(&id).map(|e| (e.session, e.window)) {
            tree.detach_from_layout(id, session, window);
        }
    }
    let session = tree
        .panes
        .get(&id)
        .and_then(|e| tree.session_by_id(e.session))
        .map(|s| s.name.clone());
    Ok(SpawnOk {
        pane: id,
        session: session.unwrap_or_default(),
    })
}

/// The one rule for session names, at creation and at rename.
fn check_name(name: &str) -> Result<(), RequestError> {
    check_session_name(name)
        .map_err(|e| RequestError::refused(ErrorCode::InvalidArgument, e.to_string(), e.remedy()))
}

/// A grid beyond the cap, refused before the engine or the PTY sees it.
pub fn check_grid(cols: u16, rows: u16) -> Result<(), RequestError> {
    limits::check_grid(cols, rows)
        .map_err(|e| RequestError::refused(ErrorCode::InvalidArgument, e.to_string(), e.remedy()))
}

/// The directory a pane's process is in now.
pub(crate) fn pane_cwd(handle: &PaneHandle) -> Option<PathBuf> {
    std::fs::read_link(format!("/proc/{}/cwd", handle.pid)).ok()
}

/// Where a new pane joining `handle`'s starts when the request names no directory:
/// `inherit-focused` (the default) takes that pane's directory, `home` takes `$HOME`.
pub(crate) fn inherited_cwd(shared: &Shared, handle: &PaneHandle) -> Option<PathBuf> {
    match shared.config.cwd_inheritance {
        phux_core::config::defaults::CwdInheritance::InheritFocused => pane_cwd(handle),
        phux_core::config::defaults::CwdInheritance::Home => std::env::var_os("HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_dir()),
    }
}

/// Removes panes from the session tree at once and tells their pane cores to end their programs.
pub fn kill_panes(shared: &Shared, panes: &[PaneId]) -> Result<Done, RequestError> {
    let mut tree = shared.tree();
    if let Some(missing) = panes.iter().find(|p| !tree.panes.contains_key(p)) {
        return Err(RequestError::NoSuchTarget(missing.to_string()));
    }
    let handles: Vec<PaneHandle> = panes
        .iter()
        .filter_map(|p| tree.remove_pane(*p))
        .map(|e| e.handle)
        .collect();
    drop(tree);
    for handle in handles {
        let _ = handle.send(PaneCommand::Close);
    }
    Ok(Done {})
}

pub fn kill_window(shared: &Shared, window: WindowId) -> Result<Done, RequestError> {
    let panes: Vec<PaneId> = {
        let tree = shared.tree();
        tree.panes
            .iter()
            .filter(|(_, e)| e.window == window)
            .map(|(id, _)| *id)
            .collect()
    };
    if panes.is_empty() {
        return Err(RequestError::NoSuchTarget(format!("window {}", window.0)));
    }
    kill_panes(shared, &panes)
}

pub fn kill_session(shared: &Shared, name: &str) -> Result<Done, RequestError> {
    let panes: Vec<PaneId> = {
        let tree = shared.tree();
        let session = tree
            .session(name)
            .map(|s| s.id)
            .ok_or_else(|| RequestError::NoSuchTarget(name.into()))?;
        tree.panes
            .iter()
            .filter(|(_, e)| e.session == session)
            .map(|(id, _)| *id)
            .collect()
    };
    kill_panes(shared, &panes)
}

pub fn rename_session(shared: &Shared, from: &str, to: &str) -> Result<Done, RequestError> {
    let mut tree = shared.tree();
    if tree.session(from).is_none() {
        return Err(RequestError::refused(
            ErrorCode::NoSuchTarget,
            format!("no session named {from}"),
            "list sessions with `phux ls`",
        ));
    }
    if from != to && tree.session(to).is_some() {
        return Err(RequestError::refused(
            ErrorCode::SessionExists,
            format!("a session named {to} already exists"),
            "pick another name",
        ));
    }
    check_name(to)?;
    if let Some(session) = tree.sessions.iter_mut().find(|s| s.name == from) {
        session.name = to.to_string();
    }
    let pane = tree
        .session(to)
        .map(|s| s.id)
        .and_then(|id| tree.recent_pane(Some(id)));
    drop(tree);
    if let Some(pane) = pane.filter(|_| from != to) {
        shared.hooks.session_changed(pane, to);
    }
    Ok(Done {})
}
