//! One thread per pane that watches who occupies it and, while an agent with a manifest does,
//! derives its state from the screen. It wakes only on the pane's own edges: dirty, idle
//! (output settled), title and command marks identify the occupant; while an agent is there,
//! coalesced screen-changed notices and the settled edge run the detector (once the screen has
//! been quiet for `SETTLE`, or every `MAX_DEFER` while it keeps changing). Nothing polls on a timer.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, never, select, Receiver};
use phux_core::agents::Dialog;
use phux_core::agents::{evaluate, AgentState, Manifest, Screen};
use phux_core::documents::{WatchEventKind, WatchEventName};
use phux_core::ids::PaneId;
use phux_core::screen_capture::CaptureRequest;
use phux_core::wire::{ActiveAsk, DetectionReport, Occupant};

use super::handlers::announce;
use super::identity::foreground;
use super::store::{apply_detection, depart};
use crate::bus::{watch_channel, BusEvent, Interest, Subscriber};
use crate::pane::{ask::parse_title, PaneCommand, PaneHandle};
use crate::shared::Shared;

/// Quiet after a screen change before it is evaluated: a repaint in several reads is judged
/// whole, never half drawn.
const SETTLE: Duration = Duration::from_millis(30);
/// Longest an evaluation waits behind a screen that keeps changing.
const MAX_DEFER: Duration = Duration::from_millis(150);
/// Quiet a derived working → idle change waits for, unless the idle rule is visible-idle.
const IDLE_HOLD: Duration = Duration::from_millis(1000);
/// A departure is confirmed by a second look this much later.
const DEPARTURE_RECHECK: Duration = Duration::from_millis(150);

/// The watch events that may mean the occupant changed.
const EDGES: [WatchEventName; 7] = [
    WatchEventName::Dirty,
    WatchEventName::Idle,
    WatchEventName::TitleChanged,
    WatchEventName::CommandStarted,
    WatchEventName::CommandFinished,
    WatchEventName::Asked,
    WatchEventName::PaneClosed,
];

/// Starts supervising `handle`'s pane.
pub fn supervise(shared: &Arc<Shared>, handle: &PaneHandle) {
    let (tx, rx) = watch_channel();
    let subscriber = Subscriber {
        interest: Interest::Watch(EDGES.to_vec()),
        tx,
    };
    if handle.send(PaneCommand::Subscribe(subscriber)).is_err() {
        return;
    }
    let mut supervisor = Supervisor {
        shared: Arc::clone(shared),
        handle: handle.clone(),
        pane: handle.id,
        agent: None,
        changes: never(),
        changed_since: None,
        eval_due: None,
        idle_since: None,
        departure_due: None,
        published: None,
        dialog: None,
    };
    let _ = std::thread::Builder::new()
        .name(format!("pane-{}-agent", handle.id.0))
        .spawn(move || supervisor.run(&rx));
}

struct Supervisor {
    shared: Arc<Shared>,
    handle: PaneHandle,
    pane: PaneId,
    /// The manifest of the agent occupying the pane, and its process.
    agent: Option<(Manifest, u32)>,
    changes: Receiver<BusEvent>,
    /// The first change not evaluated yet.
    changed_since: Option<Instant>,
    eval_due: Option<Instant>,
    /// When the screen first read idle after working (the hold's start).
    idle_since: Option<Instant>,
    departure_due: Option<Instant>,
    /// The state last published into the record.
    published: Option<AgentState>,
    /// The id of the dialog last read on a blocked screen: a new one becomes the pane's ask,
    /// the same one redrawn (or answered and not yet gone) does not come back.
    dialog: Option<String>,
}

impl Supervisor {
    fn run(&mut self, events: &Receiver<BusEvent>) {
        loop {
            let deadline = [self.eval_due, self.departure_due]
                .into_iter()
                .flatten()
                .min();
            let timeout = deadline.map_or(Duration::from_secs(3600), |d| {
                d.saturating_duration_since(Instant::now())
            });
            select! {
                recv(events) -> event => match event {
                    Ok(BusEvent::Watch { kind, .. }) => {
                        if !self.on_edge(kind) {
                            break;
                        }
                    }
                    Ok(_) => {}
                    Err(_) => break,
                },
                // The one-slot queue coalesces: a watch event in it may stand for a screen
                // change that found the slot taken, so anything here means "re-read".
                recv(self.changes) -> change => match change {
                    Ok(_) => self.on_change(),
                    Err(_) => self.changes = never(),
                },
                default(timeout) => self.on_deadline(),
            }
        }
        self.shared.agents.forget(self.pane);
    }

    /// Handles a watch event; false once the pane closed.
    fn on_edge(&mut self, kind: WatchEventKind) -> bool {
        match kind {
            WatchEventKind::PaneClosed { .. } => return false,
            WatchEventKind::TitleChanged { title } => {
                self.title_ask(&title);
                self.identify();
            }
            // A reported ask is stored by the request that raised it (so an answer that comes
            // before this supervisor hears of it stays the last word); a title's ask by the
            // title change that follows its event.
            WatchEventKind::Asked { .. } => {}
            WatchEventKind::Idle => {
                // A title set before this supervisor subscribed raised no event it saw: the
                // settled edge (which comes well after) reconciles the ask with the title.
                let title = self
                    .shared
                    .tree()
                    .panes
                    .get(&self.pane)
                    .and_then(|e| e.title.clone())
                    .unwrap_or_default();
                self.title_ask(&title);
                self.identify();
                // Output settled: evaluate now, whatever the interval says.
                if self.agent.is_some() {
                    self.evaluate();
                }
            }
            _ => self.identify(),
        }
        true
    }

    fn title_ask(&mut self, title: &str) {
        let ask = parse_title(title).map(|ask| ActiveAsk {
            id: ask.id,
            question: ask.question,
            suggestions: ask.suggestions,
            from_title: true,
            from_screen: false,
            selected: None,
        });
        self.write(|entry| match ask {
            // Answered, and the title still carries it: the question is not asked again.
            Some(ask) if entry.already_answered(&ask) => {}
            Some(ask) => {
                entry.forget_answered(true);
                entry.ask = Some(ask);
            }
            None => {
                entry.forget_answered(true);
                if entry.ask.as_ref().is_some_and(|a| a.from_title) {
                    entry.ask = None;
                }
            }
        });
    }

    fn write(&self, change: impl FnOnce(&mut super::store::PaneAgent)) {
        let ((), events) = self.shared.agents.update(self.pane, change);
        announce(&self.shared, self.pane, events);
    }

    /// Looks at the foreground process: an agent arriving starts detection, one leaving (seen
    /// twice) ends it.
    fn identify(&mut self) {
        let Some(fg) = foreground(self.handle.pid) else {
            return;
        };
        let manifest = if super::detection_enabled() {
            self.shared.manifests.for_occupant(&fg.names).cloned()
        } else {
            None
        };
        // The name that selected the manifest goes first: it is the one identity reports.
        let mut names = fg.names.clone();
        if let Some(at) = manifest
            .as_ref()
            .and_then(|m| names.iter().position(|n| m.binaries.contains(n)))
        {
            let name = names.remove(at);
            names.insert(0, name);
        }
        let occupant = Occupant {
            pid: fg.pid,
            names,
            kind: manifest.as_ref().map(|m| m.kind.clone()),
        };
        self.write(|entry| entry.occupant = Some(occupant));
        match (manifest, &self.agent) {
            (Some(m), Some((current, pid))) if m.kind == current.kind && *pid == fg.pid => {
                self.departure_due = None;
            }
            (Some(m), _) => self.arrive(m, fg.pid),
            (None, Some(_)) => {
                if self.departure_due.is_none() {
                    self.departure_due = Some(Instant::now() + DEPARTURE_RECHECK);
                }
            }
            (None, None) => {}
        }
    }

    fn arrive(&mut self, manifest: Manifest, pid: u32) {
        if self.agent.is_none() {
            let (tx, rx) = bounded(1);
            let subscriber = Subscriber {
                interest: Interest::Changes,
                tx,
            };
            if self.handle.send(PaneCommand::Subscribe(subscriber)).is_ok() {
                self.changes = rx;
            }
        }
        self.agent = Some((manifest, pid));
        self.departure_due = None;
        self.published = None;
        self.dialog = None;
        self.idle_since = None;
        self.evaluate();
    }

    fn on_deadline(&mut self) {
        let now = Instant::now();
        if self.departure_due.is_some_and(|d| d <= now) {
            self.departure_due = None;
            let still_there = foreground(self.handle.pid)
                .is_some_and(|fg| self.shared.manifests.for_occupant(&fg.names).is_some());
            if !still_there {
                self.leave();
            }
        }
        if self.eval_due.is_some_and(|d| d <= now) {
            self.evaluate();
        }
    }

    fn leave(&mut self) {
        self.agent = None;
        // Dropping the receiver ends the pane's change subscription at its next publish.
        self.changes = never();
        self.eval_due = None;
        self.published = None;
        self.dialog = None;
        self.write(depart);
    }

    /// A change starts (or extends) a short wait for the screen to settle, so a repaint
    /// arriving in several reads is judged whole; a screen that never settles (a spinner) is
    /// still judged every `MAX_DEFER`.
    fn on_change(&mut self) {
        let now = Instant::now();
        let since = *self.changed_since.get_or_insert(now);
        self.eval_due = Some((now + SETTLE).min(since + MAX_DEFER));
    }

    fn evaluate(&mut self) {
        let Some((manifest, _)) = &self.agent else {
            return;
        };
        let now = Instant::now();
        self.changed_since = None;
        self.eval_due = None;
        let screen = self.handle.screen(CaptureRequest {
            scrollback: None,
            cells: false,
        });
        let title = screen.title.clone().unwrap_or_default();
        let progress = self.handle.shell().progress();
        let view = Screen {
            lines: &screen.lines,
            title: &title,
            osc_progress: &progress,
        };
        let result = evaluate(manifest, &view, self.published);
        let mut state = result.detector_state;
        if state == AgentState::Idle
            && !result.visible_idle
            && self.published == Some(AgentState::Working)
        {
            let since = *self.idle_since.get_or_insert(now);
            if now < since + IDLE_HOLD {
                self.eval_due = Some(since + IDLE_HOLD);
                state = AgentState::Working;
            }
        } else {
            self.idle_since = None;
        }
        let report = DetectionReport {
            kind: manifest.kind.clone(),
            name: manifest.name.clone(),
            state,
            matched_rule: result.matched_rule,
            visible_idle: result.visible_idle,
            fallback_reason: result.fallback_reason,
        };
        let dialog = result.dialog.filter(|_| state == AgentState::Blocked);
        let new_dialog = dialog.as_ref().map(Dialog::ask_id) != self.dialog;
        self.dialog = dialog.as_ref().map(Dialog::ask_id);
        if self.published == Some(state) && !new_dialog {
            // Same state: refresh explain's view (and where the dialog's pointer is); nothing
            // changed, so nothing is announced.
            let selected = dialog.and_then(|d| d.selected);
            let _ = self.shared.agents.update(self.pane, |e| {
                e.detection = Some(report);
                if let Some(ask) = e.ask.as_mut().filter(|a| a.from_screen) {
                    ask.selected = selected;
                }
            });
            return;
        }
        self.published = Some(state);
        let ask = dialog.map(|d| ActiveAsk {
            id: d.ask_id(),
            question: d.question,
            suggestions: d.choices,
            from_title: false,
            from_screen: true,
            selected: d.selected,
        });
        self.write(|entry| apply_detection(entry, report, ask.clone()));
        if let Some(ask) = ask {
            let asked = self.shared.agents.get(self.pane).ask;
            if asked.as_ref().is_some_and(|a| a.id == ask.id) {
                announce(
                    &self.shared,
                    self.pane,
                    vec![WatchEventKind::Asked {
                        id: ask.id,
                        question: ask.question,
                        suggestions: ask.suggestions,
                        elapsed_seconds: None,
                        source: Some("screen".to_owned()),
                    }],
                );
            }
        }
    }
}
