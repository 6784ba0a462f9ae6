//! Creating and destroying: `new` (a session), `spawn` (a pane), `kill` (a pane, window,
//! session, tagged set, or the server) and `rename` (a session).

use std::path::{Path, PathBuf};

use phux_core::documents::{GridSize, NewJson, SpawnJson};
use phux_core::ids::{PaneId, WindowId};
use phux_core::resolve::{resolve, ResolveError};
use phux_core::selector::Selector;
use phux_core::split::{check_ratio, SplitDirection};
use phux_core::state_view::StateView;
use phux_core::wire::{
    ClientMessage, Done, IdOnly, Kill, KillSession, KillWindow, NewSession, NewSessionOk,
    RenameSession, Spawn, SpawnOk, SpawnTarget,
};

use crate::connection::Client;
use crate::error::ClientError;

/// What a new session or pane runs, and where.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProcessSpec {
    /// Made absolute against this process's directory before it is sent (the server's
    /// directory is not the caller's).
    pub cwd: Option<PathBuf>,
    /// `KEY=VALUE` entries added to the process's environment, in order.
    pub env: Vec<(String, String)>,
    /// argv; the server's default shell when `None`.
    pub command: Option<Vec<String>>,
    /// Rows of history the pane keeps (`new` only); the server's default when `None`.
    pub history_limit: Option<u32>,
}

/// `new`: creates a session (the server picks the name when `name` is `None`). The seed
/// process starts in `spec.cwd`, else in the caller's directory, like tmux's `new-session`.
pub fn new_session(
    client: &mut Client,
    name: Option<String>,
    spec: ProcessSpec,
) -> Result<NewJson, ClientError> {
    let cwd = match spec.cwd {
        Some(dir) => Some(absolute(&dir)),
        None => std::env::current_dir().ok(),
    };
    let ok: NewSessionOk = client.request(ClientMessage::NewSession(NewSession {
        id: 0,
        name,
        cwd: cwd.map(|d| d.display().to_string()),
        env: spec.env,
        command: spec.command,
        cols: None,
        rows: None,
        observe: false,
        history_limit: spec.history_limit,
    }))?;
    Ok(NewJson::new(ok.session, ok.pane))
}

/// Where `spawn` puts the new pane.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    /// The most recently active session when `None`.
    pub target: Option<Selector>,
    pub split: SplitDirection,
    pub ratio: f64,
    /// No place in the split tree (`spawn --detached`): `insert-pane` places it.
    pub unplaced: bool,
}

/// `spawn`: a new pane next to the target pane, or in the named session. The ratio is checked
/// before anything is sent; `spec.cwd` defaults to the server's choice (the focused pane's).
pub fn spawn(
    client: &mut Client,
    placement: Placement,
    spec: ProcessSpec,
) -> Result<SpawnJson, ClientError> {
    let ratio = check_ratio(placement.ratio)?;
    let target = match &placement.target {
        None => None,
        Some(selector) => Some(spawn_target(selector, &client.state()?)?),
    };
    let ok: SpawnOk = client.request(ClientMessage::Spawn(Spawn {
        id: 0,
        target,
        split: placement.split,
        ratio,
        cwd: spec.cwd.map(|d| absolute(&d).display().to_string()),
        command: spec.command,
        env: spec.env,
        cols: None,
        rows: None,
        detached: false,
        unplaced: placement.unplaced,
    }))?;
    Ok(SpawnJson::local(ok.pane))
}

/// `spawn` beside one already-resolved pane, with the grid the pane starts at (so its program
/// sees that size before it writes its first byte), which does not take the focus: `play`
/// uses it, and what `.` or a session name resolved to before still does.
pub fn spawn_beside(
    client: &mut Client,
    pane: PaneId,
    split: SplitDirection,
    ratio: f64,
    command: Vec<String>,
    size: Option<GridSize>,
) -> Result<SpawnOk, ClientError> {
    let ratio = check_ratio(ratio)?;
    client.request(ClientMessage::Spawn(Spawn {
        id: 0,
        target: Some(SpawnTarget::Pane(pane)),
        split,
        ratio,
        cwd: None,
        command: Some(command),
        env: Vec::new(),
        cols: size.map(|s| s.cols),
        rows: size.map(|s| s.rows),
        detached: true,
        unplaced: false,
    }))
}

/// A session name goes as the session (the server places the pane in it); anything else is
/// resolved to one pane to split.
fn spawn_target(selector: &Selector, state: &StateView) -> Result<SpawnTarget, ClientError> {
    if let Selector::Session(name) = selector {
        return match state.session(name) {
            Some(_) => Ok(SpawnTarget::Session(name.clone())),
            None => Err(miss(selector)),
        };
    }
    let panes = resolve(selector, state)?;
    let pane = phux_core::resolve::pick_one(&panes, state).ok_or_else(|| miss(selector))?;
    Ok(SpawnTarget::Pane(pane))
}

/// What a `kill` TARGET destroys, by the selector's form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KillScope {
    /// `@N`, `name:W.P`, `.`: these panes, as one group.
    Panes(Vec<PaneId>),
    /// `#tag`: every tagged pane of the fleet, satellites' included (`NAME/@N`).
    Tagged(Vec<phux_core::ids::TerminalAddr>),
    /// `name:W`, `name:WINDOW_NAME`: the window and every pane in it.
    Window(WindowId),
    /// `name`: the session and everything in it.
    Session(String),
}

/// Decides what `selector` kills in `state`; misses are `no_such_target` or `partial_view`.
pub fn kill_scope(selector: &Selector, state: &StateView) -> Result<KillScope, ClientError> {
    match selector {
        Selector::Session(name) => state
            .session(name)
            .map(|s| KillScope::Session(s.name.clone()))
            .ok_or_else(|| miss(selector)),
        Selector::WindowIndex { session, index } => state
            .session(session)
            .and_then(|s| s.windows.iter().find(|w| w.index == *index))
            .map(|w| KillScope::Window(w.id))
            .ok_or_else(|| miss(selector)),
        Selector::WindowName { session, window } => state
            .session(session)
            .and_then(|s| s.windows.iter().find(|w| &w.name == window))
            .map(|w| KillScope::Window(w.id))
            .ok_or_else(|| miss(selector)),
        _ => Ok(KillScope::Panes(resolve(selector, state)?)),
    }
}

/// `kill TARGET`: one `get_state`, then `kill` / `kill_window` / `kill_session`.
pub fn kill(client: &mut Client, selector: &Selector) -> Result<KillScope, ClientError> {
    let scope = match selector {
        // `#tag`: a search over the fleet, each match killed where it lives.
        Selector::Tag(tag) => return kill_tagged(client, tag),
        // `NAME/@N`: resolved and killed on the satellite's server, through the hub.
        Selector::Remote { .. } => KillScope::Panes(
            crate::target::resolve_target(client, selector)?
                .panes()
                .to_vec(),
        ),
        _ => kill_scope(selector, &client.state()?)?,
    };
    let message = match &scope {
        KillScope::Panes(panes) => ClientMessage::Kill(Kill {
            id: 0,
            panes: panes.clone(),
        }),
        KillScope::Window(window) => ClientMessage::KillWindow(KillWindow {
            id: 0,
            window: *window,
        }),
        KillScope::Session(session) => ClientMessage::KillSession(KillSession {
            id: 0,
            session: session.clone(),
        }),
        // Never built above: `#tag` returned from `kill_tagged`.
        KillScope::Tagged(_) => return Ok(scope),
    };
    let Done {} = client.request(message)?;
    Ok(scope)
}

/// `kill #tag`: the tagged panes on every server of the fleet, each killed where it lives.
fn kill_tagged(client: &mut Client, tag: &str) -> Result<KillScope, ClientError> {
    let mut killed = Vec::new();
    for group in crate::fleet_search::tagged(client, tag)? {
        let message = ClientMessage::Kill(Kill {
            id: 0,
            panes: group.panes.clone(),
        });
        let Done {} = match &group.host {
            None => client.request(message)?,
            Some(host) => Client::connect_routed(client.socket(), Some(host))?.request(message)?,
        };
        killed.extend(group.panes.into_iter().map(|pane| match &group.host {
            Some(host) => phux_core::ids::TerminalAddr::remote(host.clone(), pane),
            None => phux_core::ids::TerminalAddr::local(pane),
        }));
    }
    Ok(KillScope::Tagged(killed))
}

/// `kill --server`: returns once the server's process has ended (its socket gone, its lock
/// free), or fails with `server_still_running` after [`crate::server_exit::stop_limit`].
pub fn kill_server(client: &mut Client) -> Result<(), ClientError> {
    // The process behind the socket, asked of the kernel (a server in another PID namespace
    // says its own number in its welcome).
    let pid = crate::server_exit::peer_pid(client.stream());
    let Done {} = client.request(ClientMessage::KillServer(IdOnly { id: 0 }))?;
    match pid {
        Some(pid) if client.is_local() => crate::server_exit::wait_for_exit(
            client.socket(),
            pid,
            crate::server_exit::stop_limit(),
        ),
        _ => Ok(()),
    }
}

/// `rename SESSION NEW`: the server decides unknown and taken names.
pub fn rename_session(client: &mut Client, from: &str, to: &str) -> Result<(), ClientError> {
    let Done {} = client.request(ClientMessage::RenameSession(RenameSession {
        id: 0,
        from: from.to_owned(),
        to: to.to_owned(),
    }))?;
    Ok(())
}

fn miss(selector: &Selector) -> ClientError {
    ResolveError::NoSuchTarget {
        selector: selector.to_string(),
    }
    .into()
}

fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        return path.to_path_buf();
    }
    std::env::current_dir()
        .map(|dir| dir.join(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;
    use phux_core::ids::SessionId;
    use phux_core::state_view::{PaneView, SessionView, WindowView};

    fn state() -> StateView {
        let pane = |id, tags: &[&str]| PaneView {
            id: PaneId(id),
            tags: tags.iter().map(|t| t.to_string()).collect(),
            title: None,
            cols: 80,
            rows: 24,
            recording: false,
            lease: None,
        };
        StateView {
            sessions: vec![SessionView {
                id: SessionId(1),
                name: "work".into(),
                windows: vec![
                    WindowView {
                        id: WindowId(7),
                        index: 0,
                        name: "edit".into(),
                        panes: vec![pane(1, &["ci"]), pane(2, &[])],
                        layout: None,
                    },
                    WindowView {
                        id: WindowId(8),
                        index: 1,
                        name: "logs".into(),
                        panes: vec![pane(3, &["ci"])],
                        layout: None,
                    },
                ],
                attached_clients: 0,
                window_size: None,
                unplaced: Vec::new(),
            }],
            focus_order: vec![PaneId(2)],
            unreachable: vec![],
            exited: vec![],
            asks: vec![],
            satellites: vec![],
        }
    }

    fn scope(text: &str) -> Result<KillScope, ClientError> {
        kill_scope(&Selector::parse(text).unwrap(), &state())
    }

    #[test]
    fn kill_scope_follows_the_selector_form() {
        assert_eq!(scope("@2").unwrap(), KillScope::Panes(vec![PaneId(2)]));
        assert_eq!(
            scope("work:1.0").unwrap(),
            KillScope::Panes(vec![PaneId(3)])
        );
        assert_eq!(scope("work:1").unwrap(), KillScope::Window(WindowId(8)));
        assert_eq!(scope("work:edit").unwrap(), KillScope::Window(WindowId(7)));
        assert_eq!(scope("work").unwrap(), KillScope::Session("work".into()));
        assert_eq!(
            scope("#ci").unwrap(),
            KillScope::Panes(vec![PaneId(1), PaneId(3)])
        );
    }

    #[test]
    fn kill_scope_misses_are_no_such_target() {
        use phux_core::error_code::ErrorCode;
        use phux_core::error_doc::ContractError;
        for text in ["@9", "work:5", "work:nope", "play", "#none"] {
            assert_eq!(
                scope(text).unwrap_err().code(),
                ErrorCode::NoSuchTarget,
                "{text}"
            );
        }
    }

    #[test]
    fn spawn_target_sends_a_session_by_name_and_panes_by_id() {
        let s = state();
        let target = |t: &str| spawn_target(&Selector::parse(t).unwrap(), &s);
        assert_eq!(target("work").unwrap(), SpawnTarget::Session("work".into()));
        assert_eq!(target("@3").unwrap(), SpawnTarget::Pane(PaneId(3)));
        assert_eq!(target("work:0").unwrap(), SpawnTarget::Pane(PaneId(2)));
        assert!(target("other").is_err());
    }
}
