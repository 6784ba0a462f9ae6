//! The event loop: it only routes. Events come from the outer terminal (keys, resizes), the
//! panes' streams, the server's notices and signals; keys become pane input, a binding's
//! action, or a mode's key; frames are drawn when something changed, at most one per
//! `FRAME_INTERVAL`, and an idle client sleeps until the status line's clock changes.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use phux_client::{Client, ClientError};
use phux_core::wire::ClientNoticeKind;

use crate::compose::compose_into;
use crate::event::Event;
use crate::grid::Grid;
use crate::input::next_key;
use crate::key_path::{send_keystroke, KeyPath, Screen, Target, ECHO_WINDOW};
use crate::model::Model;
use crate::modes::Mode;
use crate::outer::{self, OuterTerminal};
use crate::panes::{Channels, PaneFeeds};
use crate::render;
use crate::status;

/// The shortest time between two frames: output faster than this is coalesced.
const FRAME_INTERVAL: Duration = Duration::from_millis(16);

/// How long after a keystroke a whole frame waits for its echo (which usually takes well
/// under a millisecond): the echo is not kept waiting behind a frame begun just before it.
const ECHO_HOLD: Duration = Duration::from_millis(3);

/// Why the client stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    Detached,
    /// A signal, or the outer terminal closed.
    Stopped,
    /// The session ended (its last pane exited) or the server stopped.
    SessionEnded,
}

pub struct App {
    pub model: Model,
    pub feeds: PaneFeeds,
    pub control: Client,
    pub client_id: u32,
    /// The secret that makes `client_id`'s resizes ours (`AttachOk::key`).
    pub client_key: String,
    pub mode: Mode,
    pub events: Sender<Event>,
    frames_tx: Sender<Event>,
    pub paste_buffer: String,
    outer: OuterTerminal,
    /// A keystroke's way around this loop, and the screen (last frame, recording) it shares.
    pub key_path: Arc<KeyPath>,
    /// The frame before the last one, whose cells the next frame is drawn into.
    spare_frame: Option<Grid>,
    prefix_pending: bool,
    /// The prefix and the chords after it.
    pub bindings: crate::bindings::Bindings,
    /// The split whose border the mouse is dragging.
    pub drag: Option<phux_core::pane_layout::SplitPlace>,
    dirty: bool,
    /// The focused pane answered a keystroke: draw without waiting for the frame pacing.
    echo_due: bool,
    pub ended: Option<Ended>,
}

impl App {
    pub fn new(
        model: Model,
        control: Client,
        (client_id, client_key): (u32, String),
        channels: Channels,
        outer: OuterTerminal,
        bindings: crate::bindings::Bindings,
    ) -> App {
        let mut model = model;
        model.prefix_hint = Some(prefix_hint(&bindings.prefix_name));
        App {
            model,
            feeds: PaneFeeds::default(),
            control,
            client_id,
            client_key,
            mode: Mode::Normal,
            events: channels.events,
            frames_tx: channels.frames_ready,
            key_path: channels.key_path,
            paste_buffer: String::new(),
            outer,
            spare_frame: None,
            prefix_pending: false,
            bindings,
            drag: None,
            dirty: true,
            echo_due: false,
            ended: None,
        }
    }

    /// Routes events until the client ends: every waiting key and notice first, then a frame
    /// when one is due: at most one per `FRAME_INTERVAL`, or at once, with only the focused
    /// pane read again, for a keystroke's echo.
    pub fn run(
        &mut self,
        events: &Receiver<Event>,
        frames: &Receiver<Event>,
    ) -> Result<Ended, ClientError> {
        self.sync_feeds()?;
        let mut last_draw = Instant::now() - FRAME_INTERVAL;
        loop {
            if let Some(ended) = self.ended {
                return Ok(ended);
            }
            let timeout = if self.dirty {
                let paced = FRAME_INTERVAL.saturating_sub(last_draw.elapsed());
                paced.max(self.echo_hold_left())
            } else {
                self.next_wake()
            };
            crossbeam_channel::select! {
                recv(events) -> event => match event {
                    Ok(event) => self.handle(event)?,
                    Err(_) => return Ok(Ended::Stopped),
                },
                // A wake: a pane's screen changed.
                recv(frames) -> _ => {},
                default(timeout) => self.dirty = true,
            }
            while let Ok(event) = events.try_recv() {
                self.handle(event)?;
            }
            self.open_route();
            self.note_output();
            // A whole frame waits a moment for an echo that is on its way, rather than
            // being drawn just before it and making it wait.
            let paced = last_draw.elapsed() >= FRAME_INTERVAL && self.echo_hold_left().is_zero();
            if self.dirty && (paced || self.echo_due) && self.ended.is_none() {
                // An echo is drawn alone, at once, even when a whole frame is due: the frame
                // (every other pane read again and composed) follows at the next pacing.
                let only = self.echo_due.then(|| self.model.focused()).flatten();
                self.draw(only);
                last_draw = Instant::now();
            }
        }
    }

    /// How much longer a whole frame waits for the echo of the last keystroke.
    fn echo_hold_left(&self) -> Duration {
        self.key_path
            .awaited()
            .map_or(Duration::ZERO, |t| ECHO_HOLD.saturating_sub(t.at.elapsed()))
    }

    /// Notes which panes changed: any change makes a frame due at the next pacing; the
    /// focused pane answering a keystroke makes one due at once.
    fn note_output(&mut self) {
        self.feeds.looked();
        if self.feeds.any_changed() {
            self.dirty = true;
        }
        // An echo the pane's stream thread drew is no longer awaited.
        let Some(typed) = self.key_path.awaited() else {
            return;
        };
        let focused = self.model.focused();
        if typed.at.elapsed() >= ECHO_WINDOW || focused != Some(typed.pane) {
            self.key_path.forget(typed.at);
        } else if self.feeds.generation(typed.pane) > typed.before {
            self.echo_due = true;
            self.key_path.forget(typed.at);
        }
    }

    /// Opens the key path to the focused pane when this loop has nothing to make of a plain
    /// keystroke (no mode, no prefix pending), and closes it otherwise.
    fn open_route(&mut self) {
        let placement = self.model.placement();
        let target = self
            .model
            .focused()
            .filter(|_| matches!(self.mode, Mode::Normal) && !self.prefix_pending)
            .filter(|_| self.ended.is_none())
            .and_then(|pane| {
                Some(Target {
                    pane,
                    generation: self.feeds.generation_counter(pane)?,
                    prefix: self.bindings.prefix,
                    content: placement.of(pane)?.content,
                    modes: self.outer.modes(),
                })
            });
        self.key_path.set(target);
    }

    fn handle(&mut self, event: Event) -> Result<(), ClientError> {
        match event {
            Event::Input(bytes) => {
                let result = self.input(&bytes);
                self.key_path.handled_one();
                match result {
                    // A refused action is a message, not the end of the client.
                    Err(ClientError::Server { message, .. }) => self.model.say(message),
                    other => other?,
                }
            }
            Event::InputClosed | Event::Stop => self.ended = Some(Ended::Stopped),
            Event::Resized => self.outer_resized()?,
            Event::FramesReady => {}
            Event::PaneEnded {
                pane,
                stream_id,
                lagged,
            } => {
                if lagged {
                    self.model.say(format!(
                        "{pane}: the server ended its stream (this client fell behind); redrawn"
                    ));
                }
                self.feeds.ended(pane, stream_id);
                self.refresh()?;
            }
            Event::Notice(ClientNoticeKind::Detach) => {
                // The server also sends a client away when its session is gone.
                let gone = self
                    .control
                    .state()
                    .map(|s| !s.sessions.iter().any(|s| s.id == self.model.session_id))
                    .unwrap_or(true);
                self.ended = Some(if gone {
                    Ended::SessionEnded
                } else {
                    Ended::Detached
                });
            }
            Event::Notice(_) => self.refresh()?,
            Event::ServerGone => self.ended = Some(Ended::SessionEnded),
            Event::Output(news) => {
                let before = status::left_text(&self.model);
                self.model.note_output(news);
                if status::left_text(&self.model) != before {
                    self.dirty = true;
                }
            }
            Event::CommandDone(message) => {
                self.model.say(message);
                self.refresh()?;
            }
        }
        Ok(())
    }

    /// Reads the state again and follows it: panes to observe, sizes to apply.
    pub fn refresh(&mut self) -> Result<(), ClientError> {
        let state = self.control.state()?;
        if !state.sessions.iter().any(|s| s.id == self.model.session_id) {
            self.ended = Some(Ended::SessionEnded);
            return Ok(());
        }
        self.model.refresh(state);
        self.sync_feeds()?;
        self.dirty = true;
        Ok(())
    }

    fn sync_feeds(&mut self) -> Result<(), ClientError> {
        let visible = self.model.visible_panes();
        let channels = Channels {
            frames_ready: self.frames_tx.clone(),
            events: self.events.clone(),
            key_path: Arc::clone(&self.key_path),
        };
        self.feeds.keep(&visible, &self.control, &channels)
    }

    fn outer_resized(&mut self) -> Result<(), ClientError> {
        self.model.outer = outer::size();
        {
            let mut screen = self.key_path.screen();
            if let Some(recorder) = screen.recorder.as_mut() {
                recorder.resize(self.model.outer);
            }
            screen.last_frame = None;
        }
        self.send_size()?;
        self.refresh()
    }

    /// Tells the server this client's area (which also applies sizes after a layout change).
    pub fn send_size(&mut self) -> Result<(), ClientError> {
        let (cols, rows) = self.model.outer;
        let request = phux_core::wire::ClientResize {
            id: 0,
            client: self.client_id,
            key: self.client_key.clone(),
            cols,
            rows: rows.saturating_sub(1).max(1),
            session: None,
        };
        let _: phux_core::wire::Done = self
            .control
            .request(phux_core::wire::ClientMessage::ClientResize(request))?;
        Ok(())
    }

    /// Routes typed bytes: to the focused pane, except the prefix and what a mode takes.
    fn input(&mut self, bytes: &[u8]) -> Result<(), ClientError> {
        let mut rest = bytes;
        while !rest.is_empty() && self.ended.is_none() {
            if let Some((event, len)) = crate::mouse::parse(rest) {
                rest = &rest[len..];
                self.mouse(event)?;
                self.dirty = true;
                continue;
            }
            if !matches!(self.mode, Mode::Normal) {
                let (key, len) = next_key(rest).unwrap_or((crate::input::Key::Other, 1));
                rest = &rest[len.max(1)..];
                self.mode_key(key)?;
                self.dirty = true;
                continue;
            }
            if self.prefix_pending {
                let (key, len) = next_key(rest).unwrap_or((crate::input::Key::Other, 1));
                rest = &rest[len.max(1)..];
                self.prefix_pending = false;
                if let Some(action) = self.bindings.lookup(key) {
                    self.perform(action)?;
                }
                self.dirty = true;
                continue;
            }
            // Up to the prefix or a mouse report, whichever comes first.
            let cut = (0..rest.len())
                .find(|&i| rest[i] == self.bindings.prefix || rest[i..].starts_with(b"\x1b[<"))
                .unwrap_or(rest.len());
            if cut > 0 {
                self.type_bytes(rest[..cut].to_vec())?;
            }
            if cut < rest.len() && rest[cut] == self.bindings.prefix {
                self.prefix_pending = true;
                // The person found the prefix: the hint has done its work.
                self.model.prefix_hint = None;
                rest = &rest[cut + 1..];
            } else if cut < rest.len() {
                rest = &rest[cut..];
                if crate::mouse::parse(rest).is_none() {
                    // An incomplete report: hand it on rather than lose it.
                    self.type_bytes(rest.to_vec())?;
                    rest = &[];
                }
            } else {
                rest = &[];
            }
        }
        Ok(())
    }

    /// Bytes for the focused pane, as the outer terminal sent them.
    pub fn type_bytes(&mut self, bytes: Vec<u8>) -> Result<(), ClientError> {
        let Some(pane) = self.model.focused() else {
            return Ok(());
        };
        self.key_path.typed(pane, self.feeds.generation(pane));
        match send_keystroke(&mut self.control, pane, bytes) {
            Ok(()) => Ok(()),
            // The pane just went away; the next state says where focus goes.
            Err(ClientError::Server { .. }) => self.refresh(),
            Err(other) => Err(other),
        }
    }

    /// Draws a frame; with `only`, that pane is the only one whose screen is read again (the
    /// others show what they showed, and stay due for the next frame).
    fn draw(&mut self, only: Option<phux_core::ids::PaneId>) {
        // Held while the panes are read and the frame is written: an echo drawn meanwhile by a
        // pane's stream thread lands in the frame this one is compared with, not under it.
        let key_path = Arc::clone(&self.key_path);
        let mut screen = key_path.screen();
        if let Some(pane) = only {
            if self.draw_pane_alone(pane, &mut screen) {
                return;
            }
        }
        self.echo_due = false;
        self.feeds.refresh_cells(only);
        self.dirty = only.is_some() && self.feeds.any_changed();
        let (cols, rows) = self.model.outer;
        let mut grid = self
            .spare_frame
            .take()
            .unwrap_or_else(|| Grid::new(cols, rows));
        compose_into(&mut grid, &self.model, &self.feeds);
        self.draw_mode(&mut grid);
        let bytes = render::frame(screen.last_frame.as_ref(), &grid);
        self.mirror_modes();
        screen.show(&bytes);
        self.spare_frame = screen.last_frame.replace(grid);
    }

    /// A keystroke's echo: only `pane`'s cells are read and drawn into the last frame (no mode
    /// is open and nothing else is due at once; a full frame follows at the next pacing).
    /// False when that does not apply and a whole frame must be drawn.
    fn draw_pane_alone(&mut self, pane: phux_core::ids::PaneId, screen: &mut Screen) -> bool {
        if !matches!(self.mode, Mode::Normal) {
            return false;
        }
        let placement = self.model.placement();
        let Some(placed) = placement.of(pane) else {
            return false;
        };
        let Some(last) = screen.last_frame.as_mut() else {
            return false;
        };
        if (last.cols, last.rows) != self.model.outer {
            return false;
        }
        // Typing changes the cursor's row; the rest of the pane follows at the paced frame.
        let only_row = self.feeds.refresh_cursor_row(pane);
        if only_row.is_none() {
            self.feeds.refresh_cells(Some(pane));
        }
        let Some(feed) = self.feeds.get(pane) else {
            return false;
        };
        let cursor = crate::compose::cursor(&self.feeds, placed);
        let bytes = render::pane_update(last, placed.content, &feed.rows, cursor, only_row);
        self.echo_due = false;
        // The rest of the screen (and anything else that changed) waits for the paced frame.
        self.dirty = true;
        self.mirror_modes();
        screen.show(&bytes);
        true
    }

    fn draw_mode(&self, grid: &mut Grid) {
        match &self.mode {
            Mode::Normal => {}
            Mode::Help(help) => help.draw(grid),
            Mode::Prompt(prompt) => prompt.draw(grid),
            Mode::Picker(picker) => picker.draw(grid),
            Mode::Copy(copy) => {
                if let Some(placed) = self.model.placement().of(copy.pane) {
                    copy.draw(grid, placed.content);
                }
            }
        }
    }

    /// The outer terminal encodes keys as the focused pane's program asked its terminal to.
    fn mirror_modes(&mut self) {
        let wanted = self
            .model
            .focused()
            .and_then(|p| self.feeds.get(p))
            .filter(|_| matches!(self.mode, Mode::Normal))
            .map(|feed| feed.modes.mirrored())
            .unwrap_or_default();
        self.outer.mirror(wanted);
    }

    /// With nothing to draw: sleep until the clock's minute turns or a message expires.
    fn next_wake(&self) -> Duration {
        let message = self
            .model
            .message
            .as_ref()
            .and_then(|(_, at)| crate::status::MESSAGE_TIME.checked_sub(at.elapsed()));
        match message {
            Some(left) => left.min(until_next_minute()) + Duration::from_millis(5),
            None => until_next_minute(),
        }
    }
}

/// The status line's pointer to the bindings, in the configured prefix's name.
pub fn prefix_hint(prefix_name: &str) -> String {
    format!("{prefix_name} ? help")
}

/// How long until the status line's clock shows another minute.
fn until_next_minute() -> Duration {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    Duration::from_secs(60 - now.as_secs() % 60) + Duration::from_millis(5)
}
