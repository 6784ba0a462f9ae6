//! The `#` activity mark of the status line: a window with output since it was last viewed,
//! as tmux marks it. The server's `dirty` (output began) and `idle` (output stopped) events
//! of every pane arrive on their own connection; the model marks the window of a pane that
//! is not the one shown, and showing a window clears its mark.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use crossbeam_channel::Sender;
use phux_client::Pushed;
use phux_client::{Client, ClientError};
use phux_core::documents::watch_event::IDLE_SETTLE as SERVER_IDLE_SETTLE;
use phux_core::documents::WatchEventKind;
use phux_core::ids::{PaneId, WindowId};
use phux_core::wire::ServerMessage;

use crate::event::Event;

/// Output news of one pane.
#[derive(Debug, Clone, Copy)]
pub struct Output {
    pub pane: PaneId,
    /// `idle`: the output stopped (it ran until a moment ago); otherwise it began.
    pub stopped: bool,
    pub at: Instant,
}

/// Which windows had output since they were last shown.
#[derive(Debug, Default)]
pub struct Activity {
    marked: HashSet<WindowId>,
    /// When each window stopped being the one shown.
    left: HashMap<WindowId, Instant>,
}

impl Activity {
    pub fn is_marked(&self, window: WindowId) -> bool {
        self.marked.contains(&window)
    }

    /// `shown` was just left for another window.
    pub fn left(&mut self, shown: WindowId) {
        self.left.insert(shown, Instant::now());
    }

    /// `window` is shown now: its mark goes.
    pub fn viewed(&mut self, window: WindowId) {
        self.marked.remove(&window);
        self.left.remove(&window);
    }

    /// Output news for a pane of `window` while `shown` is the window on screen.
    pub fn output(&mut self, window: WindowId, shown: Option<WindowId>, news: Output) {
        if Some(window) == shown {
            return;
        }
        let after_leaving = match self.left.get(&window) {
            // Output that began, or that went on for a while after the window was left.
            Some(left) => {
                !news.stopped || news.at.saturating_duration_since(*left) > SERVER_IDLE_SETTLE
            }
            None => true,
        };
        if after_leaving {
            self.marked.insert(window);
        }
    }
}

/// Subscribes to every pane's `dirty` and `idle` events on a connection of its own and hands
/// them to the event loop as `Event::Output`.
pub fn watch(origin: &Client, tx: &Sender<Event>) -> Result<(), ClientError> {
    let mut stream = origin.sibling()?;
    stream.subscribe(None, vec!["dirty".into(), "idle".into()])?;
    let tx = tx.clone();
    std::thread::spawn(move || {
        while let Ok(Pushed::Message(message)) = stream.next_message(None) {
            let ServerMessage::Event(event) = message else {
                continue;
            };
            let stopped = match event.event {
                WatchEventKind::Dirty => false,
                WatchEventKind::Idle => true,
                _ => continue,
            };
            let Some(pane) = event.pane else { continue };
            let news = Output {
                pane,
                stopped,
                at: Instant::now(),
            };
            if tx.send(Event::Output(news)).is_err() {
                return;
            }
        }
    });
    Ok(())
}
