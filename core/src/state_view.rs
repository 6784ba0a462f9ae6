//! The server's state as clients see it (the `get_state` payload): sessions, windows, panes, focus.

use serde::{Deserialize, Serialize};

use crate::documents::GridSize;
use crate::ids::{PaneId, SessionId, WindowId};
use crate::pane_layout::LayoutNode;

/// One pane of a window. Its index in `name:W.P` is its position in [`WindowView::panes`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaneView {
    pub id: PaneId,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub cols: u16,
    pub rows: u16,
    /// A recorder (`phux rec`) is observing this pane.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub recording: bool,
    /// Who holds the pane's input lease (`phux take`), if anyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lease: Option<LeaseView>,
}

/// A held lease in `ls --json` and `status --json`: the pane and who holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaneLease {
    pub terminal: crate::ids::TerminalAddr,
    #[serde(flatten)]
    pub lease: LeaseView,
}

impl StateView {
    /// Every pane with no place in a window, session by session.
    pub fn unplaced(&self) -> Vec<crate::ids::TerminalAddr> {
        self.sessions
            .iter()
            .flat_map(|s| s.unplaced.iter())
            .map(|p| crate::ids::TerminalAddr::local(p.id))
            .collect()
    }

    /// Every held lease of this server's panes, in snapshot order.
    pub fn leases(&self) -> Vec<PaneLease> {
        self.panes()
            .filter_map(|p| {
                p.lease.clone().map(|lease| PaneLease {
                    terminal: crate::ids::TerminalAddr::local(p.id),
                    lease,
                })
            })
            .collect()
    }
}

/// A pane's input lease: while it is held, only its holder's input reaches the pane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaseView {
    pub holder: String,
    /// When it was taken, in Unix seconds.
    pub since: u64,
    /// When it ends by itself, in Unix seconds (`null`: when given back, or with its holder's
    /// connection).
    pub expires: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowView {
    pub id: WindowId,
    pub index: u32,
    pub name: String,
    pub panes: Vec<PaneView>,
    /// The split tree the panes are placed by (absent from servers that predate the TUI).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<LayoutNode>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionView {
    pub id: SessionId,
    pub name: String,
    pub windows: Vec<WindowView>,
    #[serde(default)]
    pub attached_clients: u32,
    /// The size the window-size policy gives this session's windows while clients are
    /// attached (absent when none is, or under `manual`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_size: Option<GridSize>,
    /// Panes of the session with no place in any window's split tree yet (`spawn --detached`;
    /// `insert-pane` places them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unplaced: Vec<PaneView>,
}

/// A pane whose program has ended, kept readable for a while (its last screen, scrollback and
/// end): reads answer as for a live pane, writes are refused `pane_exited`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExitedPaneView {
    pub id: PaneId,
    /// The session it was in when it ended.
    pub session: String,
    #[serde(default)]
    pub tags: Vec<String>,
    /// The program's exit code; absent when a signal ended it (or its status is unknown).
    pub exit_code: Option<i32>,
    /// The signal that ended it, if one did.
    pub signal: Option<i32>,
    /// Seconds since the Unix epoch when the program ended.
    pub ended_at: u64,
}

impl ExitedPaneView {
    /// How the program ended, in words: `exited with 42`, `was killed by SIGKILL`.
    pub fn ending(&self) -> String {
        crate::process_end::ending(self.exit_code, self.signal)
    }

    /// The shell-style status: the exit code, or 128 + the signal.
    pub fn status(&self) -> Option<i32> {
        self.signal.map(|s| 128 + s).or(self.exit_code)
    }
}

/// Everything a selector is resolved against. Snapshot order is sessions, then windows, then
/// panes, each in the order given here.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct StateView {
    pub sessions: Vec<SessionView>,
    /// Panes, most recently active first. Its first live entry is the headless `.`.
    #[serde(default)]
    pub focus_order: Vec<PaneId>,
    /// Satellites that contributed nothing to this view: a miss against a non-empty list is a
    /// partial view, not an absence.
    #[serde(default)]
    pub unreachable: Vec<String>,
    /// Panes whose program ended, still readable (newest last). Absent when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exited: Vec<ExitedPaneView>,
    /// Questions panes are asking and nobody has answered yet, by pane. Absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub asks: Vec<PendingAsk>,
    /// The satellites that answered a hub's `get_fleet`, each with its terminals in its own
    /// snapshot order (empty in a plain `get_state`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub satellites: Vec<SatelliteView>,
}

/// A question a pane is asking (`phux ask`, or its title's `phux-ask[ID]:QUESTION??` sentinel)
/// until it is answered (`phux agent answer`, the title clearing, or the agent working again).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingAsk {
    pub pane: PaneId,
    /// The ask's id (may be empty), for `phux agent answer --ask ID`.
    pub id: String,
    pub question: String,
    #[serde(default)]
    pub suggestions: Vec<String>,
    /// `title` (the title sentinel), `report` (`phux ask`) or `screen` (a dialog the detector
    /// read on the screen).
    pub source: String,
}

/// One satellite's contribution to a hub's merged view: only its terminals (its sessions and
/// windows are not merged: their ids would collide with the hub's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SatelliteView {
    pub name: String,
    pub terminals: Vec<PaneId>,
}

impl StateView {
    /// Every pane in snapshot order.
    /// Every pane of every session: placed ones window by window, then unplaced ones.
    pub fn panes(&self) -> impl Iterator<Item = &PaneView> {
        self.sessions.iter().flat_map(|s| {
            s.windows
                .iter()
                .flat_map(|w| w.panes.iter())
                .chain(s.unplaced.iter())
        })
    }

    pub fn contains(&self, pane: PaneId) -> bool {
        self.panes().any(|p| p.id == pane)
    }

    /// The most recently active pane that still exists.
    pub fn focused(&self) -> Option<PaneId> {
        self.focus_order.iter().copied().find(|&p| self.contains(p))
    }

    /// The most recently active pane of session `session`.
    pub fn focused_in(&self, session: SessionId) -> Option<PaneId> {
        let s = self.sessions.iter().find(|s| s.id == session)?;
        self.focus_order
            .iter()
            .copied()
            .find(|&p| s.pane_ids().any(|q| q == p))
    }

    pub fn session(&self, name: &str) -> Option<&SessionView> {
        self.sessions.iter().find(|s| s.name == name)
    }

    /// The session holding `pane`.
    pub fn session_of(&self, pane: PaneId) -> Option<&SessionView> {
        self.sessions.iter().find(|s| {
            s.windows
                .iter()
                .any(|w| w.panes.iter().any(|p| p.id == pane))
        })
    }
}

impl SessionView {
    pub fn pane_ids(&self) -> impl Iterator<Item = PaneId> + '_ {
        self.windows.iter().flat_map(WindowView::pane_ids)
    }
}

impl WindowView {
    pub fn pane_ids(&self) -> impl Iterator<Item = PaneId> + '_ {
        self.panes.iter().map(|p| p.id)
    }
}
