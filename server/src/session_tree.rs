//! Sessions → windows → panes: names, ids stable for the server's life, split layouts, tags,
//! titles, sizes and the most-recently-active order that `.` resolves against.

use crate::pane::PaneHandle;
use crate::split_tree::SplitTree;
use phux_core::ids::{PaneId, SessionId, WindowId};
use phux_core::state_view::{PaneView, SessionView, StateView, WindowView};
use std::collections::BTreeMap;

pub struct PaneEntry {
    pub handle: PaneHandle,
    pub session: SessionId,
    pub window: WindowId,
    pub tags: Vec<String>,
    pub title: Option<String>,
    pub cols: u16,
    pub rows: u16,
}

pub struct Window {
    pub id: WindowId,
    pub index: u32,
    pub name: String,
    pub layout: SplitTree,
}

pub struct Session {
    pub id: SessionId,
    pub name: String,
    pub windows: Vec<Window>,
}

/// The server's sessions, their windows and every pane, under one lock (`Shared::tree`).
#[derive(Default)]
pub struct SessionTree {
    pub sessions: Vec<Session>,
    pub panes: BTreeMap<PaneId, PaneEntry>,
    /// Most recently active first.
    focus_order: Vec<PaneId>,
    next_pane: u32,
    next_session: u32,
    next_window: u32,
    pub ever_had_panes: bool,
    /// Which life of the pane ids this is (see [`Counters::instance`]).
    instance: u64,
    /// Recorders observing each pane (front ends' views are not counted).
    pub recorders: BTreeMap<PaneId, u32>,
}

/// What `phux upgrade` carries of a session tree besides its panes: the id counters and the
/// focus order.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Counters {
    pub next_pane: u32,
    pub next_session: u32,
    pub next_window: u32,
    pub focus_order: Vec<PaneId>,
    /// Names this set of ids: drawn when a server starts with no panes to take over, carried
    /// by `phux upgrade` and the keepers' state file with the ids, so `@3` means one pane for
    /// as long as the instance stays the same, and a client holding an `@3` from another
    /// instance can tell (the `welcome` says it). 0 in files of servers that did not say.
    #[serde(default)]
    pub instance: u64,
}

impl SessionTree {
    /// The counters and focus order, for the next server process.
    pub fn counters(&self) -> Counters {
        Counters {
            next_pane: self.next_pane,
            next_session: self.next_session,
            next_window: self.next_window,
            focus_order: self.focus_order.clone(),
            instance: self.instance,
        }
    }

    /// An empty tree with a fresh instance: a server that takes no panes over.
    pub fn fresh() -> SessionTree {
        SessionTree {
            instance: fresh_instance(),
            ..SessionTree::default()
        }
    }

    /// Which life of the pane ids this is: what the `welcome` tells clients.
    pub fn instance(&self) -> u64 {
        self.instance
    }

    /// The session tree the previous server process had (`phux upgrade`): its sessions, windows and
    /// layouts, its panes (adopted), and its counters, so ids stay stable for the server's life.
    pub fn restore(
        sessions: Vec<Session>,
        panes: Vec<PaneEntry>,
        counters: Counters,
    ) -> SessionTree {
        let ever_had_panes = !panes.is_empty();
        SessionTree {
            sessions,
            panes: panes.into_iter().map(|p| (p.handle.id, p)).collect(),
            focus_order: counters.focus_order,
            next_pane: counters.next_pane,
            next_session: counters.next_session,
            next_window: counters.next_window,
            ever_had_panes,
            instance: match counters.instance {
                0 => fresh_instance(),
                kept => kept,
            },
            recorders: BTreeMap::new(),
        }
    }

    pub fn allocate_pane_id(&mut self) -> PaneId {
        self.next_pane += 1;
        PaneId(self.next_pane)
    }

    /// A free session name: the requested one, or the lowest unused number.
    pub fn session_name(&self, requested: Option<&str>) -> Result<String, String> {
        if let Some(name) = requested {
            return if self.session(name).is_some() {
                Err(name.to_string())
            } else {
                Ok(name.to_string())
            };
        }
        Ok((0..)
            .map(|n: u32| n.to_string())
            .find(|n| self.session(n).is_none())
            .unwrap_or_default())
    }

    pub fn session(&self, name: &str) -> Option<&Session> {
        self.sessions.iter().find(|s| s.name == name)
    }

    pub fn session_by_id(&self, id: SessionId) -> Option<&Session> {
        self.sessions.iter().find(|s| s.id == id)
    }

    fn session_mut(&mut self, id: SessionId) -> Option<&mut Session> {
        self.sessions.iter_mut().find(|s| s.id == id)
    }

    /// Adds a new session whose first window holds `pane`.
    pub fn add_session(
        &mut self,
        name: String,
        entry_for: impl FnOnce(SessionId, WindowId) -> PaneEntry,
    ) -> SessionId {
        self.next_session += 1;
        self.next_window += 1;
        let (session, window) = (SessionId(self.next_session), WindowId(self.next_window));
        let entry = entry_for(session, window);
        let pane = entry.handle.id;
        let layout = SplitTree::Pane(pane);
        self.sessions.push(Session {
            id: session,
            name,
            windows: vec![Window {
                id: window,
                index: 0,
                name: "0".into(),
                layout,
            }],
        });
        self.add_entry(entry);
        session
    }

    fn add_entry(&mut self, entry: PaneEntry) {
        let id = entry.handle.id;
        self.panes.insert(id, entry);
        self.touch(id);
        self.ever_had_panes = true;
    }

    /// Places `entry` next to `target` (same window).
    pub fn add_beside(
        &mut self,
        target: PaneId,
        mut entry: PaneEntry,
        direction: phux_core::split::SplitDirection,
        ratio: f64,
    ) -> bool {
        let Some(anchor) = self.panes.get(&target) else {
            return false;
        };
        let (session, window) = (anchor.session, anchor.window);
        entry.session = session;
        entry.window = window;
        let new = entry.handle.id;
        let Some(win) = self.window_mut(session, window) else {
            return false;
        };
        if !win.layout.insert(target, new, direction, ratio) {
            return false;
        }
        self.add_entry(entry);
        true
    }

    /// Adds a window holding `entry` at the end of `session`'s windows (numbered one past the
    /// highest). False when the session is gone.
    pub fn add_window(&mut self, session: SessionId, mut entry: PaneEntry) -> bool {
        self.next_window += 1;
        let window = WindowId(self.next_window);
        let Some(s) = self.session_mut(session) else {
            return false;
        };
        let index = s.windows.iter().map(|w| w.index + 1).max().unwrap_or(0);
        s.windows.push(Window {
            id: window,
            index,
            name: index.to_string(),
            layout: SplitTree::Pane(entry.handle.id),
        });
        entry.session = session;
        entry.window = window;
        self.add_entry(entry);
        true
    }

    /// The window `window`, wherever it is.
    pub fn find_window_mut(&mut self, window: WindowId) -> Option<&mut Window> {
        self.sessions
            .iter_mut()
            .flat_map(|s| s.windows.iter_mut())
            .find(|w| w.id == window)
    }

    pub fn window_mut(&mut self, session: SessionId, window: WindowId) -> Option<&mut Window> {
        self.session_mut(session)?
            .windows
            .iter_mut()
            .find(|w| w.id == window)
    }

    /// Marks `pane` most recently active.
    pub fn touch(&mut self, pane: PaneId) {
        self.focus_order.retain(|&p| p != pane);
        self.focus_order.insert(0, pane);
    }

    /// Marks `pane` least recently active: a pane added without taking the focus.
    pub fn demote(&mut self, pane: PaneId) {
        self.focus_order.retain(|&p| p != pane);
        self.focus_order.push(pane);
    }

    /// The most recently active pane of `session` (or of any session when None).
    pub fn recent_pane(&self, session: Option<SessionId>) -> Option<PaneId> {
        self.focus_order.iter().copied().find(|p| {
            self.panes
                .get(p)
                .is_some_and(|e| session.is_none_or(|s| e.session == s))
        })
    }

    /// Takes `pane` out of its window's layout and the session tree; empty windows and sessions go
    /// with it. Returns the entry.
    pub fn remove_pane(&mut self, pane: PaneId) -> Option<PaneEntry> {
        let entry = self.panes.remove(&pane)?;
        self.focus_order.retain(|&p| p != pane);
        self.detach_from_layout(pane, entry.session, entry.window);
        Some(entry)
    }

    /// Removes `pane` from its window's layout (dropping the window, and then the session, when
    /// it was the last pane there). The entry itself stays.
    pub fn detach_from_layout(&mut self, pane: PaneId, session: SessionId, window: WindowId) {
        let Some(s) = self.session_mut(session) else {
            return;
        };
        if let Some(position) = s.windows.iter().position(|w| w.id == window) {
            let win = s.windows.remove(position);
            if let Some(layout) = win.layout.remove(pane) {
                s.windows.insert(position, Window { layout, ..win });
            }
        }
        if s.windows.is_empty() {
            self.sessions.retain(|s| s.id != session);
        }
    }

    /// The `get_state` payload.
    pub fn state_view(&self) -> StateView {
        let sessions = self
            .sessions
            .iter()
            .map(|s| SessionView {
                id: s.id,
                name: s.name.clone(),
                windows: s.windows.iter().map(|w| self.window_view(w)).collect(),
                unplaced: self.unplaced_of(s),
                attached_clients: 0,
                window_size: None,
            })
            .collect();
        StateView {
            sessions,
            focus_order: self.focus_order.clone(),
            unreachable: Vec::new(),
            exited: Vec::new(),
            asks: Vec::new(),
            satellites: Vec::new(),
        }
    }

    /// The panes of `session` that no window's split tree holds, by id.
    fn unplaced_of(&self, session: &Session) -> Vec<PaneView> {
        let placed: std::collections::HashSet<PaneId> = session
            .windows
            .iter()
            .flat_map(|w| w.layout.panes())
            .collect();
        let mut ids: Vec<PaneId> = self
            .panes
            .iter()
            .filter(|(id, e)| e.session == session.id && !placed.contains(id))
            .map(|(id, _)| *id)
            .collect();
        ids.sort_by_key(|id| id.0);
        ids.into_iter()
            .filter_map(|id| self.pane_view(id))
            .collect()
    }

    fn pane_view(&self, id: PaneId) -> Option<PaneView> {
        let entry = self.panes.get(&id)?;
        Some(PaneView {
            id,
            tags: entry.tags.clone(),
            title: entry.title.clone(),
            cols: entry.cols,
            rows: entry.rows,
            recording: self.recorders.get(&id).is_some_and(|&n| n > 0),
            lease: None,
        })
    }

    fn window_view(&self, window: &Window) -> WindowView {
        let panes = window
            .layout
            .panes()
            .into_iter()
            .filter_map(|id| self.pane_view(id))
            .collect();
        WindowView {
            id: window.id,
            index: window.index,
            name: window.name.clone(),
            panes,
            layout: Some(window.layout.to_view()),
        }
    }
}

/// 64 random bits (never 0), for [`Counters::instance`]; the clock and pid when
/// `/dev/urandom` cannot be read.
fn fresh_instance() -> u64 {
    use std::io::Read;
    let mut bytes = [0u8; 8];
    let random = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    let value = match random {
        Ok(()) => u64::from_le_bytes(bytes),
        Err(_) => {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            nanos ^ (u64::from(std::process::id()) << 40)
        }
    };
    value.max(1)
}
