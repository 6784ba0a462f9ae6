//! The client's own engine terminal for each visible pane, fed by the observe stream the
//! recorder uses (read by the same `phux_client::observe::ObserveReader`): the server's
//! repaint of the screen, then every output chunk and resize.
//! Each stream is read and applied to the pane's terminal on its own thread; the event loop
//! only reads the cells of the panes that changed when it draws, so a keystroke's echo never
//! waits behind another pane's flood.

use std::collections::HashMap;
use std::net::Shutdown;
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crossbeam_channel::Sender;
use phux_client::observe::{ObserveReader, Observed, StreamEnd};
use phux_client::{Client, ClientError};
use phux_core::engine::{CellData, Cursor, Mode as TermMode, Terminal};
use phux_core::ids::PaneId;
use phux_core::wire::{ClientMessage, Observe, ObserveStart};

use crate::cursor_shape::ShapeTracker;
use crate::event::Event;
use crate::key_path::{KeyPath, PaneNow};
use crate::outer::MirroredModes;

/// Frames at least this large (a flood's keyframe, a full redraw) have their cells read by
/// the stream's own thread right away (see `LiveScreen::prepared`).
const PREPARE_AFTER: usize = 4096;

/// Rows of history the client's copy of a pane keeps (copy mode reads the server's).
const CLIENT_SCROLLBACK: usize = 1000;

/// A pane's terminal as its stream's reader thread keeps it: the thread applies every frame as
/// it arrives, so a flood is parsed beside the event loop, never inside it.
struct LiveScreen {
    terminal: Terminal,
    shape: ShapeTracker,
    /// The cells and cursor the reader thread read right after a large frame (a flood's
    /// keyframe), with the generation they show: the event loop takes them instead of
    /// reading the pane itself, so a paced frame during a flood costs it little.
    prepared: Option<(u64, Vec<Vec<CellData>>, Cursor)>,
    /// Rows the event loop handed back (the ones a prepared read replaced), whose cells'
    /// buffers the next prepared read fills again instead of allocating.
    spare: Vec<Vec<CellData>>,
}

/// The modes of a pane's program the client follows: how the outer terminal encodes keys for
/// it, and which mouse reports it asked for.
#[derive(Debug, Default, Clone, Copy)]
pub struct PaneModes {
    pub app_cursor: bool,
    pub bracketed_paste: bool,
    pub focus_events: bool,
    pub mouse_tracking: bool,
    pub mouse_button_event: bool,
    pub mouse_any_event: bool,
    pub mouse_sgr: bool,
}

impl PaneModes {
    /// The modes the outer terminal takes on for this pane when it is focused.
    pub fn mirrored(&self) -> MirroredModes {
        MirroredModes {
            app_cursor: self.app_cursor,
            bracketed_paste: self.bracketed_paste,
            focus_events: self.focus_events,
        }
    }
}

pub struct PaneFeed {
    /// Which stream this is, so the end of a replaced stream is ignored.
    pub stream_id: u64,
    socket: UnixStream,
    live: Arc<Mutex<LiveScreen>>,
    /// How many frames that changed the screen the reader thread has applied.
    generation: Arc<AtomicU64>,
    /// The reader thread woke the event loop and the loop has not looked yet: one wake per
    /// look, however many frames arrive meanwhile.
    woken: Arc<AtomicBool>,
    /// The generation every row was last read at.
    read_generation: u64,
    /// What was read at the last refresh: the screen's cells, its cursor, the cursor shape
    /// and the program's modes.
    pub rows: Vec<Vec<CellData>>,
    pub cursor: Cursor,
    pub shape: ShapeTracker,
    pub modes: PaneModes,
}

impl Drop for PaneFeed {
    fn drop(&mut self) {
        let _ = self.socket.shutdown(Shutdown::Both);
    }
}

/// Where the streams' reader threads signal: `frames_ready` wakes the event loop when a
/// pane's screen changed since it was last read (one wake per change, not per frame), while
/// keys and notices on `events` never queue behind output.
#[derive(Clone)]
pub struct Channels {
    pub frames_ready: Sender<Event>,
    pub events: Sender<Event>,
    /// Where a keystroke's echo is drawn without the event loop.
    pub key_path: Arc<KeyPath>,
}

/// Every pane the client shows, by id.
#[derive(Default)]
pub struct PaneFeeds {
    feeds: HashMap<PaneId, PaneFeed>,
    next_stream: u64,
}

impl PaneFeeds {
    pub fn get(&self, pane: PaneId) -> Option<&PaneFeed> {
        self.feeds.get(&pane)
    }

    /// Keeps streams for exactly `visible`, opening the missing ones.
    pub fn keep(
        &mut self,
        visible: &[PaneId],
        origin: &Client,
        channels: &Channels,
    ) -> Result<(), ClientError> {
        self.feeds.retain(|pane, _| visible.contains(pane));
        for &pane in visible {
            if self.feeds.contains_key(&pane) {
                continue;
            }
            self.next_stream += 1;
            match open(pane, self.next_stream, origin, channels) {
                Ok(feed) => {
                    self.feeds.insert(pane, feed);
                }
                // The pane went away between reading the state and observing it.
                Err(ClientError::Server { .. }) => {}
                Err(other) => return Err(other),
            }
        }
        Ok(())
    }

    /// How many changes `pane`'s screen has had (0 for a pane not shown).
    pub fn generation(&self, pane: PaneId) -> u64 {
        self.feeds
            .get(&pane)
            .map_or(0, |f| f.generation.load(Ordering::Acquire))
    }

    /// `pane`'s change counter itself, for the key path's keystrokes.
    pub fn generation_counter(&self, pane: PaneId) -> Option<Arc<AtomicU64>> {
        self.feeds.get(&pane).map(|f| Arc::clone(&f.generation))
    }

    /// The event loop looks at the panes now: a change from here on wakes it again.
    pub fn looked(&self) {
        for feed in self.feeds.values() {
            feed.woken.store(false, Ordering::Release);
        }
    }

    /// Whether any pane's screen changed since all its rows were last read.
    pub fn any_changed(&self) -> bool {
        self.feeds.values().any(PaneFeed::changed)
    }

    /// Reads the cells of every pane whose screen changed (only `only`, when given: a
    /// keystroke's echo is drawn without waiting for another pane's flood to be read).
    pub fn refresh_cells(&mut self, only: Option<PaneId>) {
        for (&pane, feed) in self.feeds.iter_mut() {
            if only.is_some_and(|o| o != pane) {
                continue;
            }
            // Taken before reading: a frame applied meanwhile leaves the pane changed.
            let generation = feed.generation.load(Ordering::Acquire);
            if generation != feed.read_generation {
                feed.refresh(generation);
                feed.read_generation = generation;
            }
        }
    }

    /// A keystroke's echo, read cheaply: when `pane`'s cursor is still on the row it was on
    /// and the size is the same, only that row's cells (and the cursor) are read again, and the
    /// pane stays due for the next paced frame, which reads every row. Returns that row; `None`
    /// when the echo moved the cursor to another row (a newline, a scroll): the caller reads
    /// the whole pane.
    pub fn refresh_cursor_row(&mut self, pane: PaneId) -> Option<u16> {
        let feed = self.feeds.get_mut(&pane)?;
        let live = lock(&feed.live);
        let terminal = &live.terminal;
        let (_, rows) = terminal.size();
        let cursor = terminal.cursor();
        let y = usize::from(cursor.y);
        if cursor.y != feed.cursor.y || feed.rows.len() != usize::from(rows) || y >= feed.rows.len()
        {
            return None;
        }
        terminal.viewport_row_cells_into(cursor.y, &mut feed.rows[y]);
        feed.cursor = cursor;
        feed.shape = live.shape;
        feed.modes = modes_of(terminal);
        Some(cursor.y)
    }

    /// The stream ended: the pane closed, or the server dropped this client's stream because
    /// it fell behind. The feed goes; the next `keep` opens a new stream (starting from a fresh
    /// repaint) if the pane is still shown.
    pub fn ended(&mut self, pane: PaneId, stream_id: u64) {
        if self
            .feeds
            .get(&pane)
            .is_some_and(|f| f.stream_id == stream_id)
        {
            self.feeds.remove(&pane);
        }
    }
}

impl PaneFeed {
    fn changed(&self) -> bool {
        self.generation.load(Ordering::Acquire) != self.read_generation
    }

    /// Reads the pane as it is at `generation` (or later), taking what the reader thread
    /// prepared when that is current.
    fn refresh(&mut self, generation: u64) {
        let mut live = lock(&self.live);
        // A stale preparation stays: the next one reads into its rows.
        match live.prepared.take_if(|(at, _, _)| *at >= generation) {
            Some((_, rows, cursor)) => {
                live.spare = std::mem::replace(&mut self.rows, rows);
                self.cursor = cursor;
            }
            None => {
                live.read_into(&mut self.rows);
                self.cursor = live.terminal.cursor();
            }
        }
        let terminal = &live.terminal;
        self.shape = live.shape;
        self.modes = modes_of(terminal);
    }
}

/// The modes of `terminal`'s program the client follows.
fn modes_of(terminal: &Terminal) -> PaneModes {
    PaneModes {
        app_cursor: terminal.application_cursor_keys(),
        bracketed_paste: terminal.bracketed_paste(),
        focus_events: terminal.mode(TermMode::FOCUS_EVENTS),
        mouse_tracking: terminal.mouse_tracking(),
        mouse_button_event: terminal.mode(TermMode::MOUSE_BUTTON_EVENT),
        mouse_any_event: terminal.mode(TermMode::MOUSE_ANY_EVENT),
        mouse_sgr: terminal.mode(TermMode::MOUSE_SGR),
    }
}

fn lock(live: &Mutex<LiveScreen>) -> std::sync::MutexGuard<'_, LiveScreen> {
    live.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl LiveScreen {
    /// Prepares every row's cells and the cursor now, stamped `generation`, into the rows
    /// of the last preparation if the event loop did not take them, else the spare ones.
    fn prepare(&mut self, generation: u64) {
        let mut rows = match self.prepared.take() {
            Some((_, rows, _)) => rows,
            None => std::mem::take(&mut self.spare),
        };
        self.read_into(&mut rows);
        self.prepared = Some((generation, rows, self.terminal.cursor()));
    }

    /// Every row's cells now, written into `rows` (their buffers reused).
    fn read_into(&self, rows: &mut Vec<Vec<CellData>>) {
        let (_, count) = self.terminal.size();
        rows.resize_with(usize::from(count), Vec::new);
        for (y, row) in (0..count).zip(rows.iter_mut()) {
            self.terminal.viewport_row_cells_into(y, row);
        }
    }

    /// What an echo drawn by the stream's thread needs of the pane now.
    fn now(&self) -> PaneNow {
        let terminal = &self.terminal;
        let (cols, rows) = terminal.size();
        let cursor = terminal.cursor();
        PaneNow {
            cols,
            rows,
            cursor,
            shape: self.shape,
            modes: modes_of(terminal).mirrored(),
            cursor_row: terminal.viewport_row_cells(cursor.y),
        }
    }

    /// Applies one item of the pane's stream; true when the screen may have changed.
    fn apply(&mut self, item: Observed) -> bool {
        match item {
            Observed::Output { bytes, .. } => {
                self.terminal.write(&bytes);
                self.shape.scan(&bytes);
                // The server's terminal answers the program's queries; this copy's answers
                // would be a second reply.
                let _ = self.terminal.take_replies();
                true
            }
            Observed::Resized { cols, rows, .. } => self.terminal.resize(cols, rows).is_ok(),
            Observed::Ended(_) => false,
        }
    }
}

/// The cells of `pane`'s screen now, read once from the start of a viewer's stream (the
/// server's repaint, through an engine terminal of the client's own): the picker's preview of
/// a pane this client does not show.
pub fn screen_cells(origin: &Client, pane: PaneId) -> Result<Vec<Vec<CellData>>, ClientError> {
    let mut client = origin.sibling()?;
    let socket = origin.socket().to_path_buf();
    let start: ObserveStart = client.request(ClientMessage::Observe(Observe {
        id: 0,
        pane,
        since_ms: None,
        viewer: true,
        history_rows: None,
    }))?;
    let transport = |message: String| ClientError::Transport {
        socket: socket.clone(),
        message,
    };
    let mut terminal = Terminal::new(start.cols, start.rows, 0)
        .map_err(|e| transport(format!("the terminal engine is unavailable: {e}")))?;
    let mut reader = ObserveReader::new(client.into_stream(), 64 * 1024);
    match reader.next_item() {
        Some(Observed::Output { bytes, .. }) => terminal.write(&bytes),
        Some(Observed::Ended(StreamEnd::Disconnected)) | None => {
            return Err(transport("the server ended the stream".into()))
        }
        Some(_) => {}
    }
    let (_, rows) = terminal.size();
    Ok((0..rows).map(|y| terminal.viewport_row_cells(y)).collect())
}

fn open(
    pane: PaneId,
    stream_id: u64,
    origin: &Client,
    channels: &Channels,
) -> Result<PaneFeed, ClientError> {
    // The same server as the control connection: local, or a remote host over its link.
    let mut client = origin.sibling()?;
    let socket = origin.socket();
    let start: ObserveStart = client.request(ClientMessage::Observe(Observe {
        id: 0,
        pane,
        since_ms: None,
        viewer: true,
        history_rows: None,
    }))?;
    client.set_read_timeout(None)?;
    let terminal = Terminal::new(start.cols, start.rows, CLIENT_SCROLLBACK).map_err(|e| {
        ClientError::Transport {
            socket: socket.to_path_buf(),
            message: format!("the terminal engine is unavailable: {e}"),
        }
    })?;
    let stream = client.into_stream();
    let socket_clone = stream.try_clone().map_err(|e| ClientError::Transport {
        socket: socket.to_path_buf(),
        message: e.to_string(),
    })?;
    let live = Arc::new(Mutex::new(LiveScreen {
        terminal,
        shape: ShapeTracker::default(),
        prepared: None,
        spare: Vec::new(),
    }));
    // Generation 1 against a read at 0: the first frame reads the repaint.
    let generation = Arc::new(AtomicU64::new(1));
    let woken = Arc::new(AtomicBool::new(false));
    let (ready, events) = (channels.frames_ready.clone(), channels.events.clone());
    let key_path = Arc::clone(&channels.key_path);
    let thread_live = Arc::clone(&live);
    let (thread_generation, thread_woken) = (Arc::clone(&generation), Arc::clone(&woken));
    std::thread::spawn(move || {
        let mut reader = ObserveReader::new(stream, 64 * 1024);
        let mut pace = super::feed_pace::FeedPace::default();
        let end = loop {
            let Some(item) = reader.next_item() else {
                break StreamEnd::Disconnected;
            };
            if let Observed::Ended(end) = item {
                break end;
            }
            let large =
                matches!(&item, Observed::Output { bytes, .. } if bytes.len() >= PREPARE_AFTER);
            pace.frame(large);
            let mut live = lock(&thread_live);
            if !live.apply(item) {
                continue;
            }
            // Counted under the lock: the prepared cells are exactly this generation's (a
            // preparation a later small frame made stale is read again by the event loop).
            let generation = thread_generation.fetch_add(1, Ordering::AcqRel) + 1;
            if large {
                live.prepare(generation);
            }
            drop(live);
            if !large {
                key_path.draw_echo(pane, generation, || lock(&thread_live).now());
            }
            // One wake per look: a loop already woken sees this change when it looks.
            if !thread_woken.swap(true, Ordering::AcqRel) {
                let _ = ready.try_send(Event::FramesReady);
            }
            pace.applied();
        };
        let _ = events.send(Event::PaneEnded {
            pane,
            stream_id,
            lagged: end.lagged(),
        });
    });
    Ok(PaneFeed {
        stream_id,
        socket: socket_clone,
        live,
        generation,
        woken,
        read_generation: 0,
        rows: Vec::new(),
        cursor: Cursor {
            x: 0,
            y: 0,
            visible: false,
        },
        shape: ShapeTracker::default(),
        modes: PaneModes::default(),
    })
}
