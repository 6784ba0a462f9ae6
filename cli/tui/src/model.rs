//! What the client shows: the session, its windows and split trees (as the server last said),
//! which window is active, the focused pane of each window, zoom, and a passing message.
//! Nothing here talks to the server or the outer terminal.

use std::collections::HashMap;
use std::time::Instant;

use phux_core::ids::{PaneId, SessionId, WindowId};
use phux_core::pane_layout::{place, LayoutNode, Placement, Rect};
use phux_core::state_view::{PaneView, SessionView, StateView, WindowView};

use super::activity::{Activity, Output};

pub struct Model {
    pub session_id: SessionId,
    pub state: StateView,
    pub window: Option<WindowId>,
    /// The window shown before the current one (`-` in the status line).
    pub last_window: Option<WindowId>,
    focus: HashMap<WindowId, PaneId>,
    /// The pane focused before the current one, per window (`C-a =`).
    last_focus: HashMap<WindowId, PaneId>,
    pub zoomed: Option<PaneId>,
    /// The outer terminal's size.
    pub outer: (u16, u16),
    pub message: Option<(String, Instant)>,
    /// Windows with output since they were last shown (`#`).
    pub activity: Activity,
    /// How to reach the bindings (`C-a ? help`), shown in the status line until the prefix is
    /// first typed: nothing else on screen says which key is the prefix.
    pub prefix_hint: Option<String>,
}

impl Model {
    pub fn new(session_id: SessionId, state: StateView, outer: (u16, u16)) -> Model {
        let mut model = Model {
            session_id,
            state: StateView::default(),
            window: None,
            last_window: None,
            focus: HashMap::new(),
            last_focus: HashMap::new(),
            zoomed: None,
            outer,
            message: None,
            activity: Activity::default(),
            prefix_hint: None,
        };
        model.refresh(state);
        model
    }

    pub fn session(&self) -> Option<&SessionView> {
        self.state.sessions.iter().find(|s| s.id == self.session_id)
    }

    pub fn session_name(&self) -> String {
        self.session().map(|s| s.name.clone()).unwrap_or_default()
    }

    pub fn windows(&self) -> &[WindowView] {
        self.session().map_or(&[], |s| s.windows.as_slice())
    }

    pub fn active_window(&self) -> Option<&WindowView> {
        let id = self.window?;
        self.windows().iter().find(|w| w.id == id)
    }

    pub fn focused(&self) -> Option<PaneId> {
        self.focus.get(&self.window?).copied()
    }

    pub fn pane_view(&self, pane: PaneId) -> Option<&PaneView> {
        self.state.panes().find(|p| p.id == pane)
    }

    /// A new reading of the server's state: the active window and each focus stay where they
    /// were while they exist, and fall back to the server's most recent pane otherwise.
    pub fn refresh(&mut self, state: StateView) {
        self.state = state;
        let recent = self.state.focused_in(self.session_id);
        let window_of = |model: &Model, pane: PaneId| {
            model
                .windows()
                .iter()
                .find(|w| w.panes.iter().any(|p| p.id == pane))
                .map(|w| w.id)
        };
        let still_there = |model: &Model, w: WindowId| model.windows().iter().any(|w2| w2.id == w);
        if !self.window.is_some_and(|w| still_there(self, w)) {
            self.window = recent
                .and_then(|p| window_of(self, p))
                .or_else(|| self.windows().first().map(|w| w.id));
            if let Some(window) = self.window {
                self.activity.viewed(window);
            }
        }
        if !self.last_window.is_some_and(|w| still_there(self, w)) {
            self.last_window = None;
        }
        let windows: Vec<(WindowId, Vec<PaneId>)> = self
            .windows()
            .iter()
            .map(|w| (w.id, w.pane_ids().collect()))
            .collect();
        self.focus
            .retain(|w, _| windows.iter().any(|(id, _)| id == w));
        for (window, panes) in windows {
            let valid = self.focus.get(&window).is_some_and(|p| panes.contains(p));
            if !valid {
                let pick = recent
                    .filter(|p| panes.contains(p))
                    .or_else(|| panes.first().copied());
                if let Some(pane) = pick {
                    self.focus.insert(window, pane);
                }
            }
        }
        if self.zoomed.is_some_and(|z| Some(z) != self.focused()) {
            self.zoomed = None;
        }
    }

    pub fn focus_pane(&mut self, pane: PaneId) {
        let Some(window) = self.window else { return };
        if let Some(old) = self.focus.insert(window, pane) {
            if old != pane {
                self.last_focus.insert(window, old);
                self.zoomed = None;
            }
        }
    }

    /// The pane focused in `window` here, if it was ever shown.
    pub fn focused_in(&self, window: WindowId) -> Option<PaneId> {
        self.focus.get(&window).copied()
    }

    /// Shows another session: its windows and focus come from the next `refresh`.
    pub fn show_session(&mut self, session: SessionId) {
        if self.session_id != session {
            self.session_id = session;
            self.activity = Activity::default();
            self.window = None;
            self.last_window = None;
            self.zoomed = None;
        }
    }

    pub fn last_focused(&self) -> Option<PaneId> {
        self.last_focus.get(&self.window?).copied()
    }

    pub fn select_window(&mut self, window: WindowId) {
        if self.window != Some(window) {
            if let Some(left) = self.window {
                self.activity.left(left);
            }
            self.activity.viewed(window);
            self.last_window = self.window;
            self.window = Some(window);
            self.zoomed = None;
        }
    }

    /// A pane's output began or stopped: its window is marked unless it is the one shown.
    pub fn note_output(&mut self, news: Output) {
        let window = self
            .windows()
            .iter()
            .find(|w| w.panes.iter().any(|p| p.id == news.pane))
            .map(|w| w.id);
        if let Some(window) = window {
            self.activity.output(window, self.window, news);
        }
    }

    /// The area the session's windows are drawn in: the outer terminal less the status line,
    /// cut to the size the window-size policy gave the session (the rest is letterbox).
    pub fn area(&self) -> Rect {
        let (cols, rows) = (self.outer.0, self.outer.1.saturating_sub(1));
        let (cols, rows) = match self.session().and_then(|s| s.window_size) {
            Some(size) => (cols.min(size.cols), rows.min(size.rows)),
            None => (cols, rows),
        };
        Rect::new(0, 0, cols, rows)
    }

    /// Where each pane of the active window goes (only the zoomed one, when zoomed).
    pub fn placement(&self) -> Placement {
        let area = self.area();
        if let Some(zoomed) = self.zoomed {
            return place(&LayoutNode::Pane { pane: zoomed }, area);
        }
        match self.active_window() {
            Some(window) => match &window.layout {
                Some(layout) => place(layout, area),
                None => place(&fallback_layout(window), area),
            },
            None => Placement::default(),
        }
    }

    pub fn visible_panes(&self) -> Vec<PaneId> {
        self.placement().panes.iter().map(|p| p.pane).collect()
    }

    /// Shows `text` in the status line for a few seconds.
    pub fn say(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), Instant::now()));
    }
}

/// A server that sends no tree: panes stacked in order.
fn fallback_layout(window: &WindowView) -> LayoutNode {
    let ids: Vec<PaneId> = window.pane_ids().collect();
    let mut panes = ids.into_iter().rev();
    let Some(last) = panes.next() else {
        return LayoutNode::Pane { pane: PaneId(0) };
    };
    let mut node = LayoutNode::Pane { pane: last };
    for (n, pane) in panes.enumerate() {
        node = LayoutNode::Split {
            split: phux_core::split::SplitDirection::Horizontal,
            ratio: 1.0 / (n as f64 + 2.0),
            first: Box::new(LayoutNode::Pane { pane }),
            second: Box::new(node),
        };
    }
    node
}
