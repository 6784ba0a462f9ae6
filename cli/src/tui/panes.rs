//! The client's own engine terminal for each visible pane, fed by the observe stream the
//! recorder uses: the server's repaint of the screen, then every output chunk and resize.
//! Each stream is read on its own thread into the pane's own short queue; the event loop takes
//! one frame from each pane in turn, so a keystroke's echo never waits behind another pane's
//! flood.

use std::collections::HashMap;
use std::net::Shutdown;
use std::os::unix::net::UnixStream;

use crossbeam_channel::{bounded, Receiver, Sender};
use phux_core::engine::Terminal;
use phux_core::ids::PaneId;
use phux_core::wire::{ClientMessage, Frame, FrameReader, Observe, ObserveStart, ServerMessage};

use crate::client::{Client, ClientError};
use crate::tui::cursor_shape::ShapeTracker;
use crate::tui::event::Event;

/// Rows of history the client's copy of a pane keeps (copy mode reads the server's).
const CLIENT_SCROLLBACK: usize = 1000;

/// Output frames of one pane that may wait for the event loop.
const FRAME_QUEUE: usize = 8;

pub struct PaneFeed {
    pub terminal: Terminal,
    /// Which stream this is, so frames of a replaced stream are ignored.
    pub stream_id: u64,
    socket: UnixStream,
    /// The screen's cells as of the last frame drawn, read again only after output changed it.
    pub rows: Vec<Vec<phux_core::engine::CellData>>,
    changed: bool,
    pub shape: ShapeTracker,
    /// Frames read from the stream, waiting for the event loop.
    queue: Receiver<Frame>,
}

impl Drop for PaneFeed {
    fn drop(&mut self) {
        let _ = self.socket.shutdown(Shutdown::Both);
    }
}

/// Where the streams' reader threads signal: `frames_ready` wakes the event loop when a frame
/// waits in a pane's queue (each pane's queue is short, so a flooding pane fills its own and
/// waits, and the server drops and later restarts its stream), while keys and notices on
/// `events` never queue behind output.
#[derive(Clone)]
pub struct Channels {
    pub frames_ready: Sender<Event>,
    pub events: Sender<Event>,
}

/// What one round over the panes' queues did.
#[derive(Debug, Default, Clone, Copy)]
pub struct Round {
    /// Frames taken (0: every queue was empty).
    pub frames: usize,
    /// Some frame may have changed a screen.
    pub changed: bool,
    /// A frame of this pane (the focused one) changed its screen.
    pub focused_changed: bool,
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

    /// Takes at most one waiting frame from each pane and applies it.
    pub fn apply_round(&mut self, focused: Option<PaneId>) -> Round {
        let mut round = Round::default();
        for (&pane, feed) in self.feeds.iter_mut() {
            let Ok(frame) = feed.queue.try_recv() else {
                continue;
            };
            round.frames += 1;
            if feed.apply(frame) {
                round.changed = true;
                round.focused_changed |= Some(pane) == focused;
            }
        }
        round
    }

    /// Reads the cells of every pane whose screen changed since the last frame.
    pub fn refresh_cells(&mut self) {
        for feed in self.feeds.values_mut().filter(|f| f.changed) {
            let (_, rows) = feed.terminal.size();
            feed.rows = (0..rows)
                .map(|y| feed.terminal.viewport_row_cells(y))
                .collect();
            feed.changed = false;
        }
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
    /// Applies one frame of the pane's stream; true when the screen may have changed.
    fn apply(&mut self, frame: Frame) -> bool {
        let feed = self;
        match frame {
            Frame::Output(chunk) => {
                feed.terminal.write(&chunk.bytes);
                feed.shape.scan(&chunk.bytes);
                feed.changed = true;
                // The server's terminal answers the program's queries; this copy's answers
                // would be a second reply.
                let _ = feed.terminal.take_replies();
                true
            }
            Frame::Json(_) => match frame.decode::<ServerMessage>() {
                Ok(ServerMessage::Resized(r)) => {
                    feed.changed = true;
                    feed.terminal.resize(r.cols, r.rows).is_ok()
                }
                _ => false,
            },
            Frame::Unknown { .. } => false,
        }
    }
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
    let (ready, events) = (channels.frames_ready.clone(), channels.events.clone());
    let (queue_tx, queue) = bounded::<Frame>(FRAME_QUEUE);
    std::thread::spawn(move || {
        let mut reader = FrameReader::new(std::io::BufReader::with_capacity(64 * 1024, stream));
        while let Ok(frame) = reader.read_frame() {
            if queue_tx.send(frame).is_err() {
                return;
            }
            // A wake already waiting covers this frame too.
            let _ = ready.try_send(Event::FramesReady);
        }
        let _ = events.send(Event::PaneEnded { pane, stream_id });
    });
    Ok(PaneFeed {
        terminal,
        stream_id,
        socket: socket_clone,
        rows: Vec::new(),
        changed: true,
        shape: ShapeTracker::default(),
        queue,
    })
}
