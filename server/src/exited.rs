//! Panes whose program ended, kept readable for a while as tmux's remain-on-exit keeps them:
//! their last screen and scrollback, their exit status or signal, and when they ended. The
//! store is bounded in count and age (`ServerConfig::keep_exited`, `keep_exited_for`); the
//! oldest go first. Exited panes never keep the server alive: it still ends with its last live
//! pane.

use crate::pane::output_log::OutputLog;
use crate::pane::{lock, SharedTerminal};
use phux_core::documents::ScreenState;
use phux_core::ids::PaneId;
use phux_core::screen_capture::{capture, CaptureRequest};
use phux_core::state_view::ExitedPaneView;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One ended pane: what `ls` reports and what `snapshot` reads.
pub struct ExitedPane {
    pub view: ExitedPaneView,
    terminal: SharedTerminal,
    output: Arc<OutputLog>,
    ended: Instant,
}

impl ExitedPane {
    pub fn new(view: ExitedPaneView, terminal: SharedTerminal, output: Arc<OutputLog>) -> Self {
        Self {
            view,
            terminal,
            output,
            ended: Instant::now(),
        }
    }

    /// One a previous server process kept (`phux upgrade`), which ended `age` ago.
    pub fn carried(
        view: ExitedPaneView,
        terminal: phux_core::engine::Terminal,
        output_mark: u64,
        age: Duration,
    ) -> Self {
        let now = Instant::now();
        Self {
            view,
            terminal: Arc::new(std::sync::Mutex::new(terminal)),
            output: Arc::new(OutputLog::starting_at(output_mark)),
            ended: now.checked_sub(age).unwrap_or(now),
        }
    }

    /// Its terminal in the engine's snapshot format, its size and the rows of history it
    /// keeps; where its output ended; how long ago it ended: what `phux upgrade` carries.
    pub fn to_carry(&self) -> Result<CarriedExited, phux_core::engine::EngineError> {
        let terminal = lock(&self.terminal);
        let (cols, rows) = terminal.size();
        Ok(CarriedExited {
            snapshot: terminal.snapshot()?,
            cols,
            rows,
            history_limit: terminal.options().scrollback_rows,
            output_mark: self.output.mark(),
            age: self.ended.elapsed(),
        })
    }

    /// How long ago it ended.
    pub fn age(&self) -> Duration {
        self.ended.elapsed()
    }

    /// The last screen, captured as a live pane's is (its mark is where its output ended).
    pub fn screen(&self, request: CaptureRequest) -> ScreenState {
        let terminal = lock(&self.terminal);
        let mut state = capture(&terminal, self.view.id, request);
        state.mark = Some(self.output.mark());
        state
    }
}

/// An ended pane no longer kept lets its keeper go (it kept the pane for a server after a
/// crash).
impl Drop for ExitedPane {
    fn drop(&mut self) {
        crate::keeper::release(self.view.id);
    }
}

/// What `phux upgrade` carries of an ended pane besides its view.
pub struct CarriedExited {
    pub snapshot: Vec<u8>,
    pub cols: u16,
    pub rows: u16,
    pub history_limit: usize,
    pub output_mark: u64,
    pub age: Duration,
}

/// The ended panes still kept, oldest first.
pub struct ExitedPanes {
    panes: VecDeque<ExitedPane>,
    keep: usize,
    keep_for: Duration,
}

impl ExitedPanes {
    pub fn new(keep: usize, keep_for: Duration) -> Self {
        Self {
            panes: VecDeque::new(),
            keep,
            keep_for,
        }
    }

    /// Keeps `pane`, dropping the oldest beyond the bound (nothing is kept when it is 0).
    pub fn add(&mut self, pane: ExitedPane) {
        self.panes.push_back(pane);
        self.prune();
    }

    fn prune(&mut self) {
        let keep_for = self.keep_for;
        self.panes.retain(|p| p.ended.elapsed() < keep_for);
        while self.panes.len() > self.keep {
            self.panes.pop_front();
        }
    }

    pub fn get(&mut self, pane: PaneId) -> Option<&ExitedPane> {
        self.prune();
        self.panes.iter().find(|p| p.view.id == pane)
    }

    /// The ended panes still kept, oldest first.
    pub fn kept(&mut self) -> impl Iterator<Item = &ExitedPane> {
        self.prune();
        self.panes.iter()
    }

    /// What `ls --json` and `status --json` report, oldest first.
    pub fn views(&mut self) -> Vec<ExitedPaneView> {
        self.prune();
        self.panes.iter().map(|p| p.view.clone()).collect()
    }
}
