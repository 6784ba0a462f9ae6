//! What each named action of the keymap does, and what the modes' outcomes lead to. Changes go
//! to the server as requests; the state is read back after each, so the screen shows what the
//! server holds, not what the client assumed.

use phux_client::ClientError;
use phux_core::ids::PaneId;
use phux_core::pane_layout::Rect;
use phux_core::split::SplitDirection;
use phux_core::wire::{
    ClientMessage, Done, GetScreen, Kill, KillWindow, NewWindow, Paste, RenameSession,
    RenameWindow, SelectPane, SetSplitRatio, Spawn, SpawnOk, SpawnTarget,
};

use crate::app::{App, Ended};
use crate::input::Key;
use crate::keymap::{Action, Direction};
use crate::modes::{
    copy::base64, CopyMode, CopyOutcome, HelpOverlay, Mode, Prompt, PromptOutcome, PromptPurpose,
};
use crate::outer;

/// Cells a resize binding moves a divider by.
const RESIZE_STEP: i32 = 5;

impl App {
    pub fn perform(&mut self, action: Action) -> Result<(), ClientError> {
        let focused = self.model.focused();
        match action {
            Action::SplitDown => self.split(SplitDirection::Horizontal),
            Action::SplitRight => self.split(SplitDirection::Vertical),
            Action::KillPane => {
                if let Some(pane) = focused {
                    let label = format!("kill pane {pane}? (y/n) ");
                    self.mode = Mode::Prompt(Prompt::new(PromptPurpose::KillPane(pane), label, ""));
                }
                Ok(())
            }
            Action::KillWindow => {
                if let Some(window) = self.model.active_window() {
                    let label = format!("kill window {}? (y/n) ", window.index);
                    let purpose = PromptPurpose::KillWindow(window.id);
                    self.mode = Mode::Prompt(Prompt::new(purpose, label, ""));
                }
                Ok(())
            }
            Action::Focus(direction) => match self.neighbour(direction) {
                Some(pane) => self.focus(pane),
                None => Ok(()),
            },
            Action::NextPane => self.cycle_pane(1),
            Action::PreviousPane => self.cycle_pane(-1),
            Action::LastPane => match self.model.last_focused() {
                Some(pane) => self.focus(pane),
                None => Ok(()),
            },
            Action::Resize(direction) => self.resize(direction),
            Action::Zoom => {
                self.model.zoomed = match self.model.zoomed {
                    Some(_) => None,
                    None => focused,
                };
                self.send_size()?;
                self.refresh()
            }
            Action::CopyMode => self.copy_mode(),
            Action::Paste => self.paste(),
            Action::NewWindow => self.new_window(),
            Action::NextWindow => self.cycle_window(1),
            Action::PreviousWindow => self.cycle_window(-1),
            Action::SelectWindow(index) => {
                let window = self.model.windows().iter().find(|w| w.index == index);
                match window.map(|w| w.id) {
                    Some(id) => self.show_window(id),
                    None => Ok(()),
                }
            }
            Action::RenameWindow => {
                if let Some(window) = self.model.active_window() {
                    let purpose = PromptPurpose::RenameWindow(window.id);
                    let name = window.name.clone();
                    self.mode = Mode::Prompt(Prompt::new(purpose, "rename window: ", name));
                }
                Ok(())
            }
            Action::RenameSession => {
                let name = self.model.session_name();
                let purpose = PromptPurpose::RenameSession;
                self.mode = Mode::Prompt(Prompt::new(purpose, "rename session: ", name));
                Ok(())
            }
            Action::CommandPrompt => {
                self.mode = Mode::Prompt(Prompt::new(PromptPurpose::Command, ":", ""));
                Ok(())
            }
            Action::Help => {
                self.mode = Mode::Help(HelpOverlay::with_prefix(&self.bindings.prefix_name));
                Ok(())
            }
            Action::WindowPicker => self.open_window_picker(),
            Action::SessionPicker => self.open_session_picker(),
            Action::NewSession => self.new_session(),
            Action::NextAsking => self.jump_to_asking(),
            Action::TakeOrGive => self.take_or_give(),
            Action::Detach => {
                self.ended = Some(Ended::Detached);
                Ok(())
            }
            Action::SendPrefix => self.type_bytes(vec![self.bindings.prefix]),
        }
    }

    /// A key while a mode has the keyboard.
    pub fn mode_key(&mut self, key: Key) -> Result<(), ClientError> {
        match &mut self.mode {
            Mode::Normal => Ok(()),
            Mode::Help(help) => {
                if !help.key(key) {
                    self.mode = Mode::Normal;
                }
                Ok(())
            }
            Mode::Picker(_) => self.picker_key(key),
            Mode::Copy(copy) => match copy.key(key) {
                CopyOutcome::Stay => Ok(()),
                CopyOutcome::Quit => {
                    self.mode = Mode::Normal;
                    Ok(())
                }
                CopyOutcome::Copied(text) => {
                    self.mode = Mode::Normal;
                    // OSC 52: the outer terminal puts it on the clipboard.
                    outer::write_all(
                        format!("\x1b]52;c;{}\x07", base64(text.as_bytes())).as_bytes(),
                    );
                    self.model
                        .say(format!("copied {} characters", text.chars().count()));
                    self.paste_buffer = text;
                    Ok(())
                }
            },
            Mode::Prompt(prompt) => match prompt.key(key) {
                PromptOutcome::Editing => Ok(()),
                PromptOutcome::Cancelled => {
                    self.mode = Mode::Normal;
                    Ok(())
                }
                PromptOutcome::Submitted(text) => {
                    let purpose = prompt.purpose.clone();
                    self.mode = Mode::Normal;
                    self.answer(purpose, text)
                }
            },
        }
    }

    fn answer(&mut self, purpose: PromptPurpose, text: String) -> Result<(), ClientError> {
        let result = match purpose {
            PromptPurpose::Command => {
                crate::command::run_in_background(self, &text);
                return Ok(());
            }
            PromptPurpose::RenameWindow(window) => {
                self.request_done(ClientMessage::RenameWindow(RenameWindow {
                    id: 0,
                    window,
                    name: text,
                }))
            }
            PromptPurpose::RenameSession => {
                let from = self.model.session_name();
                self.request_done(ClientMessage::RenameSession(RenameSession {
                    id: 0,
                    from,
                    to: text,
                }))
            }
            PromptPurpose::KillPane(pane) => self.request_done(ClientMessage::Kill(Kill {
                id: 0,
                panes: vec![pane],
            })),
            PromptPurpose::KillWindow(window) => {
                self.request_done(ClientMessage::KillWindow(KillWindow { id: 0, window }))
            }
        };
        match result {
            Ok(()) => {}
            Err(ClientError::Server { message, .. }) => self.model.say(message),
            Err(other) => return Err(other),
        }
        self.send_size()?;
        self.refresh()
    }

    /// `C-a T`: takes the focused pane's input lease for this client (it ends when the client
    /// does), or gives it back when this client's person holds it.
    fn take_or_give(&mut self) -> Result<(), ClientError> {
        let Some(pane) = self.model.focused() else {
            return Ok(());
        };
        let me = self.control.actor().unwrap_or_default().to_owned();
        let held_by_me = self
            .model
            .pane_view(pane)
            .and_then(|v| v.lease.as_ref())
            .is_some_and(|l| l.holder == me);
        let answer = if held_by_me {
            phux_client::lease::give(&mut self.control, pane, &me)
        } else {
            phux_client::lease::take(&mut self.control, pane, &me, false, None, true)
        };
        match answer {
            Ok(_) if held_by_me => self.model.say(format!("{pane} given back")),
            Ok(_) => self
                .model
                .say(format!("{pane} taken: only your keys reach it")),
            Err(ClientError::Server { message, .. }) => self.model.say(message),
            Err(other) => return Err(other),
        }
        self.refresh()
    }

    fn request_done(&mut self, message: ClientMessage) -> Result<(), ClientError> {
        let Done {} = self.control.request(message)?;
        Ok(())
    }

    fn split(&mut self, split: SplitDirection) -> Result<(), ClientError> {
        let Some(pane) = self.model.focused() else {
            return Ok(());
        };
        let ok: SpawnOk = self.control.request(ClientMessage::Spawn(Spawn {
            id: 0,
            target: Some(SpawnTarget::Pane(pane)),
            split,
            ratio: 0.5,
            cwd: None,
            command: None,
            env: Vec::new(),
            cols: None,
            rows: None,
            detached: false,
            unplaced: false,
        }))?;
        self.model.zoomed = None;
        self.refresh()?;
        self.focus(ok.pane)?;
        self.send_size()?;
        self.refresh()
    }

    /// Focuses `pane` here and tells the server it is the most recently active one.
    pub fn focus(&mut self, pane: PaneId) -> Result<(), ClientError> {
        self.model.focus_pane(pane);
        self.request_done(ClientMessage::SelectPane(SelectPane { id: 0, pane }))
            .or_else(|e| match e {
                ClientError::Server { .. } => Ok(()),
                other => Err(other),
            })?;
        self.refresh()
    }

    fn cycle_pane(&mut self, step: isize) -> Result<(), ClientError> {
        let panes = self.model.visible_panes();
        let Some(current) = self.model.focused() else {
            return Ok(());
        };
        let Some(at) = panes.iter().position(|&p| p == current) else {
            return Ok(());
        };
        let next = (at as isize + step).rem_euclid(panes.len() as isize) as usize;
        self.focus(panes[next])
    }

    /// The pane whose area touches the focused one's on that side, overlapping it the most.
    fn neighbour(&self, direction: Direction) -> Option<PaneId> {
        let placement = self.model.placement();
        let from = placement.of(self.model.focused()?)?.area;
        let overlap = |a0: u16, a1: u16, b0: u16, b1: u16| a1.min(b1).saturating_sub(a0.max(b0));
        placement
            .panes
            .iter()
            .filter(|p| Some(p.pane) != self.model.focused())
            .filter_map(|p| {
                let to = p.area;
                let touches = match direction {
                    Direction::Left => to.x + to.cols + 1 == from.x,
                    Direction::Right => from.x + from.cols + 1 == to.x,
                    Direction::Up => to.y + to.rows == from.y,
                    Direction::Down => from.y + from.rows == to.y,
                };
                let shared = match direction {
                    Direction::Left | Direction::Right => {
                        overlap(from.y, from.y + from.rows, to.y, to.y + to.rows)
                    }
                    Direction::Up | Direction::Down => {
                        overlap(from.x, from.x + from.cols, to.x, to.x + to.cols)
                    }
                };
                (touches && shared > 0).then_some((shared, p.pane))
            })
            .max_by_key(|(shared, _)| *shared)
            .map(|(_, pane)| pane)
    }

    /// Moves the innermost divider of that axis around the focused pane by `RESIZE_STEP`.
    fn resize(&mut self, direction: Direction) -> Result<(), ClientError> {
        let Some(pane) = self.model.focused() else {
            return Ok(());
        };
        let Some(layout) = self.model.active_window().and_then(|w| w.layout.clone()) else {
            return Ok(());
        };
        let (split, delta) = match direction {
            Direction::Left => (SplitDirection::Vertical, -RESIZE_STEP),
            Direction::Right => (SplitDirection::Vertical, RESIZE_STEP),
            Direction::Up => (SplitDirection::Horizontal, -RESIZE_STEP),
            Direction::Down => (SplitDirection::Horizontal, RESIZE_STEP),
        };
        let area: Rect = self.model.area();
        let Some(ratio) =
            phux_core::pane_layout::ratio_after_move(&layout, area, pane, split, delta)
        else {
            return Ok(());
        };
        let result = self.request_done(ClientMessage::SetSplitRatio(SetSplitRatio {
            id: 0,
            pane,
            split,
            ratio,
            path: None,
        }));
        if let Err(ClientError::Server { message, .. }) = &result {
            self.model.say(message.clone());
        } else {
            result?;
        }
        self.send_size()?;
        self.refresh()
    }

    fn copy_mode(&mut self) -> Result<(), ClientError> {
        let Some(pane) = self.model.focused() else {
            return Ok(());
        };
        let screen: phux_core::documents::ScreenState =
            self.control.request(ClientMessage::GetScreen(GetScreen {
                id: 0,
                pane,
                scrollback: Some(0),
                cells: false,
            }))?;
        let mut lines = screen.scrollback;
        lines.extend(screen.lines);
        let rows = self
            .model
            .placement()
            .of(pane)
            .map_or(1, |p| p.content.rows);
        self.mode = Mode::Copy(Box::new(CopyMode::new(pane, lines, rows)));
        Ok(())
    }

    fn paste(&mut self) -> Result<(), ClientError> {
        let Some(pane) = self.model.focused() else {
            return Ok(());
        };
        if self.paste_buffer.is_empty() {
            self.model.say("the copy buffer is empty");
            return Ok(());
        }
        let text = self.paste_buffer.clone();
        self.request_done(ClientMessage::Paste(Paste {
            id: 0,
            pane,
            text,
            operation_id: None,
            actor: None,
            retry: false,
        }))
    }

    fn new_window(&mut self) -> Result<(), ClientError> {
        let session = self.model.session_name();
        let (cols, rows) = (
            self.model.area().cols,
            self.model.area().rows.saturating_sub(1),
        );
        let ok: SpawnOk = self.control.request(ClientMessage::NewWindow(NewWindow {
            id: 0,
            session,
            cwd: None,
            command: None,
            cols: Some(cols.max(1)),
            rows: Some(rows.max(1)),
        }))?;
        self.refresh()?;
        let window = self
            .model
            .windows()
            .iter()
            .find(|w| w.pane_ids().any(|p| p == ok.pane))
            .map(|w| w.id);
        if let Some(window) = window {
            self.show_window(window)?;
        }
        Ok(())
    }

    fn cycle_window(&mut self, step: isize) -> Result<(), ClientError> {
        let windows: Vec<_> = self.model.windows().iter().map(|w| w.id).collect();
        let Some(at) = windows.iter().position(|&w| Some(w) == self.model.window) else {
            return Ok(());
        };
        let next = (at as isize + step).rem_euclid(windows.len() as isize) as usize;
        self.show_window(windows[next])
    }

    pub(crate) fn show_window(
        &mut self,
        window: phux_core::ids::WindowId,
    ) -> Result<(), ClientError> {
        self.model.select_window(window);
        self.sync_after_switch()
    }

    fn sync_after_switch(&mut self) -> Result<(), ClientError> {
        match self.model.focused() {
            Some(pane) => self.focus(pane),
            None => self.refresh(),
        }
    }
}
