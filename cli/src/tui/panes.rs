//! The client's own engine terminal for each visible pane, fed by the observe stream the
//! recorder uses: the server's repaint of the screen, then every output chunk and resize.
//! Each stream is read on its own thread; what it reads reaches the event loop as an event.

use std::collections::HashMap;
use std::net::Shutdown;
use std::os::unix::net::UnixStream;

use crossbeam_channel::Sender;
use phux_core::engine::Terminal;
use phux_core::ids::PaneId;
use phux_core::wire::{ClientMessage, Frame, FrameReader, Observe, ObserveStart, ServerMessage};

use crate::client::{Client, ClientError};
use crate::tui::cursor_shape::ShapeTracker;
use crate::tui::event::Event;

/// Rows of history the client's copy of a pane keeps (copy mode reads the server's).
const CLIENT_SCROLLBACK: usize = 1000;

pub struct PaneFeed {
    pub terminal: Terminal,
    /// Which stream this is, so frames of a replaced stream are ignored.
    pub stream_id: u64,
    socket: UnixStream,
    /// The screen's cells as of the last frame drawn, read again only after output changed it.
    pub rows: Vec<Vec<phux_core::engine::CellData>>,
    changed: bool,
    pub shape: ShapeTracker,
}

impl Drop for PaneFeed {
    fn drop(&mut self) {
        let _ = self.socket.shutdown(Shutdown::Both);
    }
}

/// Where the streams' reader threads send: frames on their own short queue, so a flooding
/// pane fills it and waits (and the server drops and later restarts its stream) while keys and
/// notices on `events` never queue behind output.
#[derive(Clone)]
pub struct Channels {
    pub frames: Sender<Event>,
    pub events: Sender<Event>,
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

    /// Applies one frame of a pane's stream; true when the screen may have changed.
    pub fn apply(&mut self, pane: PaneId, stream_id: u64, frame: Frame) -> bool {
        let Some(feed) = self.feeds.get_mut(&pane) else {
            return false;
        };
        if feed.stream_id != stream_id {
            return false;
        }
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
    let (frames, events) = (channels.frames.clone(), channels.events.clone());
    std::thread::spawn(move || {
        let mut reader = FrameReader::new(std::io::BufReader::with_capacity(64 * 1024, stream));
        while let Ok(frame) = reader.read_frame() {
            if frames
                .send(Event::PaneFrame {
                    pane,
                    stream_id,
                    frame,
                })
                .is_err()
            {
                return;
            }
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
    })
}
