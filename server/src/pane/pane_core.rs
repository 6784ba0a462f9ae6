//! The pane core: what changes a pane's engine `Terminal`, one step at a time. It feeds every
//! PTY read to the engine, writes the engine's query answers back to the PTY, publishes events,
//! and answers the server's requests in the order they arrive. Two threads take turns with it
//! under its lock (see `command_loop`): the reader hands it each read as soon as it is read, the
//! command thread everything else. (Reads of the screen take the terminal's lock from the
//! requesting thread instead: see `PaneHandle`.)

use super::ask::parse_title;
use super::input_queue::InputQueue;
use super::osc_scan::{Mark, OscScanner};
use super::output_log::OutputLog;
use super::shell_track::ShellTrack;
use super::{lock, ObserveStart, PaneCommand, PaneError, SharedTerminal};
use crate::bus::{now_ns, Bus, BusEvent, Subscriber};
use crate::flight::{FlightEntry, FlightRecorder};
use crate::pty;
use crate::shared::Shared;
use crossbeam_channel::Sender;
use phux_core::documents::WatchEventKind;
use phux_core::engine::Terminal;
use phux_core::ids::PaneId;
use phux_core::wire::SignalName;
use rustix::fd::OwnedFd;
use std::sync::Arc;
use std::sync::MutexGuard;
use std::time::{Duration, Instant};

use phux_core::documents::watch_event::IDLE_SETTLE;
/// How long a closing pane's processes get after SIGHUP before SIGKILL.
const CLOSE_GRACE: Duration = Duration::from_secs(2);
/// Output between incremental compression steps during a burst.
const COMPRESS_EVERY_BYTES: usize = 8 * 1024 * 1024;
/// Output printed before a quiet pane packs what it keeps and trims the heap.
const PACK_AFTER_BYTES: usize = 64 * 1024;
/// Stack of the thread that packs a quiet pane's kept output (deflate's needs, with room).
const PACK_STACK: usize = 512 * 1024;

/// How long the server outlives its last pane's end.
const LAST_PANE_GRACE: Duration = Duration::from_millis(200);

pub struct PaneCore {
    id: PaneId,
    terminal: SharedTerminal,
    master: OwnedFd,
    pid: u32,
    writer: InputQueue,
    bus: Bus,
    scanner: OscScanner,
    shell: Arc<ShellTrack>,
    output: Arc<OutputLog>,
    seq: u64,
    dirty: bool,
    last_output: Instant,
    kill_at: Option<Instant>,
    last_cwd: Option<String>,
    flight: FlightRecorder,
    since_compression: usize,
    /// Output kept unpacked since the last time the pane went quiet and packed it.
    unpacked: usize,
    /// What the pane's keeper holds for the next server: its output and snapshots.
    keep: Option<crate::keeper::KeepWriters>,
    shared: Arc<Shared>,
}

impl PaneCore {
    pub fn new(
        id: PaneId,
        terminal: SharedTerminal,
        master: OwnedFd,
        pid: u32,
        writer: InputQueue,
        process: &super::handle::PaneProcess,
        shared: Arc<Shared>,
    ) -> Self {
        let last_cwd = read_cwd(pid);
        Self {
            id,
            terminal,
            master,
            pid,
            writer,
            bus: Bus::default(),
            scanner: OscScanner::default(),
            shell: Arc::clone(&process.shell),
            output: Arc::clone(&process.output),
            seq: 0,
            dirty: false,
            last_output: Instant::now(),
            kill_at: None,
            last_cwd,
            flight: FlightRecorder::new(shared.config.flight_bytes),
            since_compression: 0,
            unpacked: 0,
            keep: None,
            shared,
        }
    }

    /// Writes the pane's output and snapshots to `keep` from now on.
    pub fn keep_in(&mut self, keep: Option<crate::keeper::KeepWriters>) {
        self.keep = keep;
    }

    /// A keep that cannot be written is given up (logged): the pane goes on, only a crash
    /// would now lose its screen.
    fn keep_failed(&mut self, error: &crate::keeper::KeepError) {
        crate::log::line(&format!("pane {}: its keep is given up: {error}", self.id));
        self.keep = None;
    }

    /// The pane is born: watchers hear of it, and the flight recorder keeps a keyframe of the
    /// blank screen (`rec --since` on a young pane can still start from the very first byte).
    /// Called before the reader starts, so nothing the program prints comes before it.
    pub fn born(&mut self) {
        self.watch(WatchEventKind::PaneSpawned);
        if self.flight.is_enabled() {
            let (cols, rows, repaint) = self.repaint(0);
            self.flight
                .keyframe(self.seq, now_ns(self.shared.epoch), cols, rows, repaint);
        }
    }

    /// An adopted pane (`phux upgrade`) goes on from where its previous process left it: its
    /// flight window, and its sequence numbers counting on.
    pub fn carry_on(&mut self, window: crate::flight::CarriedWindow) {
        self.seq = window.seq;
        self.flight.restore(window.entries);
    }

    /// When the command thread must next wake with nothing else to do.
    pub fn timeout(&self) -> Duration {
        self.next_deadline().map_or(Duration::from_secs(3600), |d| {
            d.saturating_duration_since(Instant::now())
        })
    }

    /// The program ended (`status`) and its output was read to the end: the pane closes.
    pub fn finish(&mut self, status: Option<Option<std::process::ExitStatus>>) {
        let raw = status.flatten();
        let exit_status = raw.map(super::exit_code_of);
        let end = crate::shared::PaneEnd {
            exit_code: raw.and_then(|s| s.code()),
            signal: raw.and_then(|s| std::os::unix::process::ExitStatusExt::signal(&s)),
            terminal: Arc::clone(&self.terminal),
            output: Arc::clone(&self.output),
        };
        // Kept readable before the watchers hear of the end: a client that reacts to it finds
        // the pane's status. The server stops only after they heard.
        let last = self.shared.pane_exited(self.id, end);
        // Its end is kept for a server after a crash (with its keeper) before anyone hears.
        crate::keeper::state_file::after_change(&self.shared);
        self.watch(WatchEventKind::PaneClosed { exit_status });
        if last {
            // Followers' streams end now, so they ask again and hear `pane_exited`.
            self.bus = Bus::default();
            // A moment for the connections to hand the end to those following the pane (`run`
            // reports the status); a pane created meanwhile keeps the server up.
            std::thread::sleep(LAST_PANE_GRACE);
            if self.shared.tree().panes.is_empty() {
                self.shared.shut_down();
            }
        }
    }

    fn terminal(&self) -> MutexGuard<'_, Terminal> {
        lock(&self.terminal)
    }

    fn next_deadline(&self) -> Option<Instant> {
        let idle = self.dirty.then(|| self.last_output + IDLE_SETTLE);
        match (idle, self.kill_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn publish(&mut self, event: BusEvent) {
        self.bus.publish(&event);
        if let BusEvent::Watch { .. } = event {
            self.shared.publish_global(&event);
        }
    }

    fn watch(&mut self, kind: WatchEventKind) {
        let t_ns = now_ns(self.shared.epoch);
        self.publish(BusEvent::Watch {
            pane: self.id,
            kind,
            t_ns,
        });
    }

    /// Takes one PTY read, on the reader's thread. True when the pane was idle until now: the
    /// command thread's next deadline moved.
    pub fn on_output(&mut self, chunk: super::io::Chunk) -> bool {
        let was_idle = !self.dirty;
        let (replies, kept) = {
            let mut terminal = lock(&self.terminal);
            // Kept before the terminal takes it: a snapshot the keep takes first stands
            // before this read.
            let kept = match &mut self.keep {
                Some(keep) => keep.before_output(&terminal, &chunk.bytes, self.output.mark()),
                None => Ok(()),
            };
            terminal.write(&chunk.bytes);
            // Under the terminal's lock: a capture and the mark it reports agree.
            self.output.append(Arc::clone(&chunk.bytes));
            (terminal.take_replies(), kept)
        };
        if let Err(e) = kept {
            self.keep_failed(&e);
        }
        if !replies.is_empty() {
            // Answers a program does not read are dropped once its input queue is full.
            let _ = self.writer.push(replies);
        }
        self.seq += 1;
        // Observers first (an echo on its way to an attached client): what follows only
        // scans the same bytes for marks and notifications, and every event it publishes goes
        // to other subscribers (watchers and change listeners), which wake threads that could
        // otherwise take this core before the output left.
        let (id, seq) = (self.id, self.seq);
        self.publish(BusEvent::Output {
            pane: id,
            seq,
            t_ns: chunk.t_ns,
            bytes: Arc::clone(&chunk.bytes),
        });
        self.last_output = Instant::now();
        if !self.dirty {
            self.dirty = true;
            self.watch(WatchEventKind::Dirty);
        }
        let marks = self.scanner.feed_at(&chunk.bytes);
        self.output.note_marks(chunk.bytes.len(), &marks);
        self.shell.on_output(&chunk.bytes, &marks);
        for (mark, _) in marks {
            self.on_mark(mark);
        }
        self.on_notifications();
        self.record(chunk.t_ns, &chunk.bytes);
        self.compress_during_output(chunk.bytes.len());
        self.publish(BusEvent::Changed { pane: id });
        was_idle
    }

    /// During long bursts, compress a step at a time so a flooding pane's memory stays small.
    fn compress_during_output(&mut self, len: usize) {
        self.since_compression += len;
        self.unpacked += len;
        if self.since_compression >= COMPRESS_EVERY_BYTES {
            self.since_compression = 0;
            let _ = self.terminal().compress_history(false);
        }
    }

    fn record(&mut self, t_ns: u64, bytes: &Arc<[u8]>) {
        if !self.flight.is_enabled() {
            return;
        }
        self.flight.output(self.seq, t_ns, Arc::clone(bytes));
        if self.flight.wants_keyframe(t_ns) {
            let (cols, rows, repaint) = self.repaint(0);
            self.flight.keyframe(self.seq, t_ns, cols, rows, repaint);
        }
    }

    fn on_mark(&mut self, mark: Mark) {
        match mark {
            Mark::CommandStarted => self.watch(WatchEventKind::CommandStarted),
            Mark::CommandFinished(exit_code) => {
                self.watch(WatchEventKind::CommandFinished { exit_code });
                self.check_cwd();
            }
            Mark::PromptStart | Mark::InputStart | Mark::Progress { .. } => {}
        }
    }

    fn on_notifications(&mut self) {
        let notes = self.terminal().take_notifications();
        for _ in 0..notes.bells.min(16) {
            self.watch(WatchEventKind::Bell);
        }
        if notes.title_changed {
            let title = self.terminal().title().unwrap_or_default();
            self.shared.set_title(self.id, &title);
            if let Some(ask) = parse_title(&title) {
                let kind = WatchEventKind::Asked {
                    id: ask.id,
                    question: ask.question,
                    suggestions: ask.suggestions,
                    elapsed_seconds: None,
                    source: Some("title".to_owned()),
                };
                self.watch(kind);
            }
            self.watch(WatchEventKind::TitleChanged { title });
        }
    }

    pub fn on_tick(&mut self) {
        if let Some(kill_at) = self.kill_at {
            if Instant::now() >= kill_at {
                pty::signal_group(self.pid, rustix::process::Signal::KILL);
                self.kill_at = None;
            }
        }
        if self.dirty && self.last_output.elapsed() >= IDLE_SETTLE {
            self.dirty = false;
            self.watch(WatchEventKind::Idle);
            self.check_cwd();
            // History the program is done writing shrinks about tenfold.
            let _ = self.terminal().compress_history(true);
            // So does the output kept for `rec --since` and `wait --after` (issue 41), and
            // what they free lies in holes malloc keeps resident until trimmed. Not after
            // every echo of a keystroke: packing and trimming cost a thread and a heap walk.
            if self.unpacked >= PACK_AFTER_BYTES {
                self.unpacked = 0;
                self.pack_kept_output();
                phux_core::engine::release_free_heap();
            }
            self.since_compression = 0;
        }
    }

    /// Packs the flight recorder's ring and the output log on a short-lived thread: deflating
    /// touches some 100 KB of stack, which would stay resident on this long-lived thread
    /// (an exiting thread's stack is given back).
    fn pack_kept_output(&mut self) {
        let (flight, output) = (&mut self.flight, &self.output);
        let packed = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .name(format!("pane-{}-pack", self.id.0))
                .stack_size(PACK_STACK)
                .spawn_scoped(scope, || {
                    flight.pack();
                    output.pack();
                })
                // A packer that panicked left both as they were: nothing to redo.
                .map(|packer| drop(packer.join()))
                .is_ok()
        });
        if !packed {
            self.flight.pack();
            self.output.pack();
        }
    }

    fn check_cwd(&mut self) {
        let cwd = read_cwd(self.pid);
        if cwd.is_some() && cwd != self.last_cwd {
            self.last_cwd.clone_from(&cwd);
            self.watch(WatchEventKind::CwdChanged {
                cwd: cwd.unwrap_or_default(),
            });
        }
    }

    pub fn on_command(&mut self, command: PaneCommand) {
        match command {
            PaneCommand::Resize { cols, rows, reply } => {
                let _ = reply.send(self.resize(cols, rows));
            }
            PaneCommand::Signal { signal, reply } => {
                let _ = reply.send(self.signal(signal));
            }
            PaneCommand::Subscribe(subscriber) => self.bus.add(subscriber),
            PaneCommand::Observe {
                subscriber,
                since_ms,
                history_rows,
                reply,
            } => self.observe(subscriber, (since_ms, history_rows), &reply),
            PaneCommand::Keyframe(reply, history_rows) => {
                let _ = reply.send(self.start_now(now_ns(self.shared.epoch), history_rows));
            }
            PaneCommand::HandOver(reply) => {
                let _ = reply.send(crate::flight::CarriedWindow {
                    seq: self.seq,
                    entries: self.flight.window(),
                });
            }
            PaneCommand::Announce(kind) => self.watch(kind),
            PaneCommand::Close => self.close(),
        }
    }

    fn resize(&mut self, cols: u16, rows: u16) -> (u16, u16) {
        // Every size reaches the engine here, whoever asked: none gets past the grid cap
        // (requests naming a size outright were refused before; derived sizes are cut).
        let (cols, rows) = phux_core::limits::clamp_grid(cols, rows);
        let (before, (cols, rows), kept) = {
            let mut terminal = lock(&self.terminal);
            let before = terminal.size();
            if terminal.resize(cols, rows).is_ok() {
                let _ = pty::resize(&self.master, cols, rows);
            }
            let after = terminal.size();
            // The keep replays the output after it at the new size.
            let kept = match &mut self.keep {
                Some(keep) if after != before => keep.ring.resized(after.0, after.1).map(drop),
                _ => Ok(()),
            };
            (before, after, kept)
        };
        if let Err(e) = kept {
            self.keep_failed(&crate::keeper::KeepError::Io(e));
        }
        self.shared.set_size(self.id, cols, rows);
        let t_ns = now_ns(self.shared.epoch);
        self.publish(BusEvent::Resized {
            pane: self.id,
            cols,
            rows,
            t_ns,
        });
        self.publish(BusEvent::Changed { pane: self.id });
        // Watchers hear of a size that really changed, not of every request.
        if before != (cols, rows) {
            self.watch(WatchEventKind::Resized { cols, rows });
        }
        (cols, rows)
    }

    fn signal(&mut self, signal: SignalName) -> Result<(), PaneError> {
        use rustix::process::Signal;
        let signal = match signal {
            SignalName::Interrupt => Signal::INT,
            SignalName::Freeze => Signal::STOP,
            SignalName::Resume => Signal::CONT,
            SignalName::Terminate => Signal::TERM,
            SignalName::Kill => Signal::KILL,
        };
        pty::signal_foreground(&self.master, self.pid, signal)
            .map_err(|e| PaneError::Signal(e.to_string()))
    }

    /// Attaches an observer before the pane core runs: it starts at the blank screen and gets every
    /// byte the program ever writes.
    pub fn observe_from_birth(&mut self, subscriber: Subscriber) -> ObserveStart {
        self.bus.add(subscriber);
        self.start_now(now_ns(self.shared.epoch), 0)
    }

    /// Starts an observer at the current screen, or `since_ms` in the past from the flight
    /// recorder. Both happen on this thread, so no output falls between history and live.
    fn observe(
        &mut self,
        subscriber: Subscriber,
        (since_ms, history_rows): (Option<u64>, usize),
        reply: &Sender<ObserveStart>,
    ) {
        let now = now_ns(self.shared.epoch);
        let mut history = since_ms
            .map(|ms| {
                let from = now.saturating_sub(ms.saturating_mul(1_000_000));
                crate::flight::start_at(self.flight.since(from), from)
            })
            .unwrap_or_default();
        let start = match history.first().cloned() {
            Some(FlightEntry::Keyframe {
                seq,
                t_ns,
                cols,
                rows,
                repaint,
            }) => {
                history.remove(0);
                ObserveStart {
                    cols,
                    rows,
                    repaint: repaint.to_vec(),
                    seq,
                    t_ns,
                    age_ns: now.saturating_sub(t_ns),
                    live_seq: self.seq,
                    history: self.replayed(history),
                }
            }
            _ => self.start_now(now, history_rows),
        };
        if reply.send(start).is_ok() {
            self.bus.add(subscriber);
        }
    }

    /// An observer's start at the screen as it is now, with `history_rows` of history above.
    fn start_now(&self, t_ns: u64, history_rows: usize) -> ObserveStart {
        let (cols, rows, repaint) = self.repaint(history_rows);
        ObserveStart {
            cols,
            rows,
            repaint,
            seq: self.seq,
            t_ns,
            age_ns: 0,
            live_seq: self.seq,
            history: Vec::new(),
        }
    }

    /// The grid size and the engine's repaint of the screen (with `history_rows` of history
    /// above it), read under one lock.
    fn repaint(&self, history_rows: usize) -> (u16, u16, Vec<u8>) {
        let terminal = self.terminal();
        let (cols, rows) = terminal.size();
        (cols, rows, terminal.vt_repaint_with_history(history_rows))
    }

    fn replayed(&self, entries: Vec<FlightEntry>) -> Vec<BusEvent> {
        let pane = self.id;
        entries
            .into_iter()
            .filter_map(|entry| match entry {
                FlightEntry::Output { seq, t_ns, bytes } => Some(BusEvent::Output {
                    pane,
                    seq,
                    t_ns,
                    bytes,
                }),
                FlightEntry::Resize { t_ns, cols, rows } => Some(BusEvent::Resized {
                    pane,
                    cols,
                    rows,
                    t_ns,
                }),
                FlightEntry::Keyframe { .. } => None,
            })
            .collect()
    }

    fn close(&mut self) {
        pty::signal_group(self.pid, rustix::process::Signal::HUP);
        let _ = pty::signal_foreground(&self.master, self.pid, rustix::process::Signal::HUP);
        pty::signal_group(self.pid, rustix::process::Signal::CONT);
        self.kill_at = Some(Instant::now() + CLOSE_GRACE);
    }
}

fn read_cwd(pid: u32) -> Option<String> {
    std::fs::read_link(format!("/proc/{pid}/cwd"))
        .ok()
        .map(|p| p.display().to_string())
}
