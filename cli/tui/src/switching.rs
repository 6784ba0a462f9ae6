//! Going elsewhere: the window and session pickers (`C-a w`, `C-a s`), a new session
//! (`C-a C`), the next pane that is asking (`C-a q`), and switching the client to another
//! session, which the server is told so sizes and `ls` follow.

use phux_client::lifecycle::{new_session, ProcessSpec};
use phux_client::ClientError;
use phux_core::agents::AgentState;
use phux_core::ids::{PaneId, SessionId, WindowId};
use phux_core::pane_layout::LayoutNode;
use phux_core::state_view::{StateView, WindowView};
use phux_core::wire::{ClientMessage, ClientResize, Done};

use crate::app::App;
use crate::modes::{Mode, PickTarget, Picker, PickerItem, PickerOutcome};

impl App {
    /// `C-a w`: every window of every session, this one selected.
    pub fn open_window_picker(&mut self) -> Result<(), ClientError> {
        self.refresh()?;
        let state = &self.model.state;
        let mut items = Vec::new();
        for session in &state.sessions {
            for window in &session.windows {
                let focused = self.model.focused_in(window.id).or_else(|| {
                    state
                        .focus_order
                        .iter()
                        .copied()
                        .find(|p| window.panes.iter().any(|v| v.id == *p))
                });
                let preview = focused.or_else(|| window.panes.first().map(|p| p.id));
                let title = preview
                    .and_then(|p| window.panes.iter().find(|v| v.id == p))
                    .map(|v| {
                        v.title
                            .clone()
                            .filter(|t| !t.is_empty())
                            .unwrap_or_else(|| v.id.to_string())
                    })
                    .unwrap_or_default();
                let preview = preview.map(|p| (window_layout(window, p), Some(p)));
                let panes = plural(window.panes.len(), "pane");
                let asking = asking_mark(state, window.pane_ids());
                items.push(PickerItem {
                    label: format!(
                        "{}:{} {}  {panes}  \"{title}\"{asking}",
                        session.name, window.index, window.name
                    ),
                    target: PickTarget::Window {
                        session: session.id,
                        window: window.id,
                    },
                    preview,
                });
            }
        }
        let current = self.model.window.map(|window| PickTarget::Window {
            session: self.model.session_id,
            window,
        });
        self.open_picker(Picker::new("windows", items, current))
    }

    /// `C-a s`: every session, this one selected.
    pub fn open_session_picker(&mut self) -> Result<(), ClientError> {
        self.refresh()?;
        let state = &self.model.state;
        let items = state
            .sessions
            .iter()
            .map(|session| {
                let attached = match session.attached_clients {
                    0 => String::new(),
                    n => format!("  ({n} attached)"),
                };
                let asking = asking_mark(state, session.windows.iter().flat_map(|w| w.pane_ids()));
                PickerItem {
                    label: format!(
                        "{}  {}{attached}{asking}",
                        session.name,
                        plural(session.windows.len(), "window")
                    ),
                    target: PickTarget::Session(session.id),
                    preview: state.focused_in(session.id).and_then(|pane| {
                        let window = session
                            .windows
                            .iter()
                            .find(|w| w.panes.iter().any(|p| p.id == pane))?;
                        Some((window_layout(window, pane), Some(pane)))
                    }),
                }
            })
            .collect();
        let current = Some(PickTarget::Session(self.model.session_id));
        self.open_picker(Picker::new("sessions", items, current))
    }

    fn open_picker(&mut self, picker: Picker) -> Result<(), ClientError> {
        self.mode = Mode::Picker(Box::new(picker));
        self.load_preview()
    }

    /// A key while a picker is open.
    pub fn picker_key(&mut self, key: crate::input::Key) -> Result<(), ClientError> {
        let Mode::Picker(picker) = &mut self.mode else {
            return Ok(());
        };
        match picker.key(key) {
            PickerOutcome::Stay => self.load_preview(),
            PickerOutcome::Closed => {
                self.mode = Mode::Normal;
                Ok(())
            }
            PickerOutcome::Chosen(target) => {
                self.mode = Mode::Normal;
                match target {
                    PickTarget::Session(session) => self.switch_session(session),
                    PickTarget::Window { session, window } => {
                        self.switch_session(session)?;
                        self.show_window(window)
                    }
                }
            }
        }
    }

    /// Reads the selected entry's screen when the selection moved to another pane.
    fn load_preview(&mut self) -> Result<(), ClientError> {
        let Mode::Picker(picker) = &self.mode else {
            return Ok(());
        };
        let wanted = picker.wanted_preview();
        if wanted == picker.previewed {
            return Ok(());
        }
        let mut screens = Vec::new();
        for pane in wanted.map_or_else(Vec::new, |entry| picker.preview_panes(entry)) {
            // A pane on screen is drawn from the client's copy; another is read once.
            let cells = match self.feeds.get(pane) {
                Some(feed) => feed.rows.clone(),
                None => match crate::panes::screen_cells(&self.control, pane) {
                    Ok(cells) => cells,
                    Err(ClientError::Server { message, .. }) => vec![text_cells(&message)],
                    Err(other) => return Err(other),
                },
            };
            screens.push((pane, cells));
        }
        if let Mode::Picker(picker) = &mut self.mode {
            picker.previewed = wanted;
            picker.screens = screens;
        }
        Ok(())
    }

    /// Shows `session` in this client; the server moves the client there, so the window-size
    /// policy and `ls`'s attached counts follow.
    pub fn switch_session(&mut self, session: SessionId) -> Result<(), ClientError> {
        if session == self.model.session_id {
            return Ok(());
        }
        let Some(name) = self
            .model
            .state
            .sessions
            .iter()
            .find(|s| s.id == session)
            .map(|s| s.name.clone())
        else {
            return Ok(());
        };
        let (cols, rows) = self.model.outer;
        let Done {} = self
            .control
            .request(ClientMessage::ClientResize(ClientResize {
                id: 0,
                client: self.client_id,
                key: self.client_key.clone(),
                cols,
                rows: rows.saturating_sub(1).max(1),
                session: Some(name),
            }))?;
        self.model.show_session(session);
        self.refresh()?;
        match self.model.focused() {
            Some(pane) => self.focus(pane),
            None => Ok(()),
        }
    }

    /// `C-a C`: a new session (named by the server), shown at once.
    pub fn new_session(&mut self) -> Result<(), ClientError> {
        let created = new_session(&mut self.control, None, ProcessSpec::default())?;
        self.refresh()?;
        let session = self.model.state.session(&created.session).map(|s| s.id);
        if let Some(session) = session {
            self.switch_session(session)?;
        }
        self.model.say(format!("new session {}", created.session));
        Ok(())
    }

    /// `C-a q`: the next pane, after the focused one in `ls` order across every session, that
    /// has an unanswered ask or whose agent is blocked.
    pub fn jump_to_asking(&mut self) -> Result<(), ClientError> {
        self.refresh()?;
        let asking = self.asking_panes()?;
        let order: Vec<PaneId> = self.model.state.panes().map(|p| p.id).collect();
        let start = self
            .model
            .focused()
            .and_then(|f| order.iter().position(|&p| p == f))
            .map_or(0, |at| at + 1);
        let next = (0..order.len())
            .map(|n| order[(start + n) % order.len()])
            .find(|p| asking.contains(p));
        let Some(pane) = next else {
            self.model.say("no pane is asking");
            return Ok(());
        };
        self.show_pane(pane)?;
        let question = self
            .model
            .state
            .asks
            .iter()
            .find(|a| a.pane == pane)
            .map(|a| a.question.clone());
        self.model.say(match question {
            Some(question) => format!("{pane} asks: {question}"),
            None => format!("{pane} is blocked"),
        });
        Ok(())
    }

    /// Panes with an unanswered ask, and panes whose agent is blocked.
    fn asking_panes(&mut self) -> Result<Vec<PaneId>, ClientError> {
        let mut panes: Vec<PaneId> = self.model.state.asks.iter().map(|a| a.pane).collect();
        let reports = phux_client::agents::inspect(&mut self.control, Vec::new())?;
        panes.extend(
            reports
                .iter()
                .filter(|r| {
                    r.state == Some(AgentState::Blocked)
                        || r.detection
                            .as_ref()
                            .is_some_and(|d| d.state == AgentState::Blocked)
                })
                .map(|r| r.pane),
        );
        Ok(panes)
    }

    /// Switches to `pane`'s session and window and focuses it.
    fn show_pane(&mut self, pane: PaneId) -> Result<(), ClientError> {
        let place: Option<(SessionId, WindowId)> = self.model.state.sessions.iter().find_map(|s| {
            s.windows
                .iter()
                .find(|w| w.panes.iter().any(|p| p.id == pane))
                .map(|w| (s.id, w.id))
        });
        let Some((session, window)) = place else {
            return Ok(());
        };
        self.switch_session(session)?;
        self.model.select_window(window);
        self.focus(pane)?;
        self.send_size()?;
        self.refresh()
    }
}

/// A line of plain text as cells (a message where a screen could not be read).
fn text_cells(text: &str) -> Vec<phux_core::engine::CellData> {
    text.chars()
        .map(|c| phux_core::engine::CellData {
            text: c.to_string(),
            ..Default::default()
        })
        .collect()
}

/// The window's split tree; a lone pane for a server that sends none.
fn window_layout(window: &WindowView, pane: PaneId) -> LayoutNode {
    window.layout.clone().unwrap_or(LayoutNode::Pane { pane })
}

/// `  ASK` when one of `panes` asks a question nobody answered.
fn asking_mark(state: &StateView, mut panes: impl Iterator<Item = PaneId>) -> &'static str {
    if panes.any(|p| state.asks.iter().any(|a| a.pane == p)) {
        "  ASK"
    } else {
        ""
    }
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
