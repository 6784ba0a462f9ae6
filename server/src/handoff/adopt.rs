//! The new process's side of `phux upgrade`: it receives the socket and the PTY masters, reads
//! the manifest, rebuilds each pane's terminal from its snapshot around its adopted PTY (the
//! panes spread across the cores: their output goes unread until then), and the ended panes
//! still kept.

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use phux_core::engine::{EngineError, Terminal, TerminalOptions};
use phux_core::ids::PaneId;

use super::manifest::{self, Blobs, ExitedState, Manifest, PaneState};
use super::restoring::{self, Restoring};
use super::{fds, flight_window, in_parallel, Phases};
use crate::flight::CarriedWindow;
use crate::session_tree::{PaneEntry, Session, SessionTree, Window};
use crate::shared::Shared;
use crate::socket::BoundSocket;

/// The longest a hand-off is taken to have lasted when the new process sets its clock.
const MAX_HAND_OFF_NS: u64 = 60_000_000_000;

/// What the previous process handed over, received before the server is built.
pub struct Inheritance {
    manifest: Manifest,
    /// Its blobs but the panes' snapshots, which `restoring` took.
    blobs: Blobs,
    restoring: Restoring,
    masters: Vec<OwnedFd>,
    phases: Phases,
}

impl Inheritance {
    /// Ends the phase `name` of the new process's start (see `Phases`).
    pub fn lap(&mut self, name: &'static str) {
        self.phases.lap(name);
    }

    /// The server's clock as the previous process left it, going on: its epoch, set back as
    /// far as the old one's. `None` when the manifest does not say (a process that carried no
    /// flight windows) or the machine's clock does not reach back that far.
    pub fn epoch(&self) -> Option<Instant> {
        let clock = self.manifest.clock?;
        // Measured on the wall clock (the monotonic one's value does not cross the exec), and
        // capped: a hand-off never takes a minute, a clock set forward meanwhile might.
        let handed_ns = manifest::unix_ns()
            .saturating_sub(self.manifest.frozen_at_unix_ns)
            .min(MAX_HAND_OFF_NS);
        clock.epoch(handed_ns)
    }
}

/// Receives the socket and the panes' descriptors, and reads (and removes) the manifest.
/// `phases` were started as this process started.
pub fn receive(
    manifest_path: &Path,
    socket: PathBuf,
    mut phases: Phases,
) -> std::io::Result<(BoundSocket, Inheritance)> {
    let (manifest, mut blobs) = manifest::take(manifest_path)?;
    phases.lap("manifest read");
    let jobs = (manifest.panes.iter())
        .map(|p| TerminalOptions::new(p.cols, p.rows, p.history_limit))
        .zip(std::mem::take(&mut blobs.snapshots))
        .map(|(options, snapshot)| (snapshot, options))
        .collect();
    let restoring = restoring::start(jobs);
    let to_start = phases
        .started_unix_ns
        .saturating_sub(manifest.frozen_at_unix_ns);
    phases.add_first("freeze to this start", to_start as f64 / 1e6);
    let mut fds = fds::receive(manifest.descriptors)?.into_iter();
    let (Some(listener), Some(lock)) = (fds.next(), fds.next()) else {
        return Err(std::io::Error::other("the socket was not handed over"));
    };
    let bound = BoundSocket::adopt(socket, listener, lock)?;
    let mut inheritance = Inheritance {
        manifest,
        blobs,
        restoring,
        masters: fds.collect(),
        phases,
    };
    inheritance.phases.lap("descriptors");
    Ok((bound, inheritance))
}

/// Rebuilds the session tree: each pane's terminal from its snapshot around its adopted PTY,
/// with its flight window when `clocked` (the server's clock went on from the old one's);
/// and the ended panes still kept.
pub fn adopt(shared: &Arc<Shared>, inheritance: Inheritance, clocked: bool) {
    let Inheritance {
        manifest,
        blobs,
        restoring,
        masters,
        mut phases,
    } = inheritance;
    phases.lap("server state");
    shared.deliveries.restore(manifest.operations);
    let restored = restoring.wait();
    phases.lap("terminals restored (waited for)");
    phases.add(
        "restore work summed over threads",
        restored.work.as_secs_f64() * 1e3,
    );
    phases.skip_to_now();
    let carried: Vec<Carried> = (manifest.panes.into_iter())
        .zip(restored.terminals)
        .zip(blobs.windows)
        .zip(masters)
        .map(|(((pane, terminal), window), master)| Carried {
            pane,
            terminal,
            window,
            master,
        })
        .collect();
    let entries = in_parallel::map(carried, |carried| adopt_pane(carried, shared, clocked));
    phases.lap("panes started");
    let entries: Vec<PaneEntry> = entries.into_iter().flatten().collect();
    let sessions = manifest
        .sessions
        .into_iter()
        .map(|s| Session {
            id: s.id,
            name: s.name,
            windows: s
                .windows
                .into_iter()
                .map(|w| Window {
                    id: w.id,
                    index: w.index,
                    name: w.name,
                    layout: w.layout.into(),
                })
                .collect(),
        })
        .collect();
    let adopted = entries.len();
    let mut known: std::collections::HashSet<u32> = entries.iter().map(|e| e.handle.pid).collect();
    *shared.tree() = SessionTree::restore(sessions, entries, manifest.counters);
    adopt_exited(shared, manifest.exited, blobs.exited);
    known.extend(crate::keeper::keeper_pids());
    super::strays::reap_all_but(&known);
    phases.lap("tree and exited panes");
    crate::log::line(&phases.line("adopting"));
    let unread_ms = manifest::unix_ns().saturating_sub(manifest.frozen_at_unix_ns) / 1_000_000;
    crate::log::line(&format!(
        "upgrade: adopted {adopted} panes; their output went unread for {unread_ms} ms"
    ));
}

/// One pane as handed over: its state, its terminal as restored, its flight window and its
/// PTY master.
struct Carried {
    pane: PaneState,
    terminal: Result<Terminal, EngineError>,
    window: Vec<u8>,
    master: OwnedFd,
}

/// The pane's threads started around its restored terminal (a blank one when its snapshot
/// could not be read), reading its PTY again; none when it could not start.
fn adopt_pane(carried: Carried, shared: &Arc<Shared>, clocked: bool) -> Option<PaneEntry> {
    let Carried {
        pane,
        terminal,
        window,
        master,
    } = carried;
    let options = TerminalOptions::new(pane.cols, pane.rows, pane.history_limit);
    let terminal = terminal.or_else(|e| {
        crate::log::line(&format!("upgrade: pane {} starts blank: {e}", pane.id));
        Terminal::with_options(options)
    });
    let window = CarriedWindow {
        seq: pane.seq,
        entries: carried_window(pane.id, &window, clocked),
    };
    let handle = match terminal.map_err(|e| std::io::Error::other(e.to_string())) {
        Ok(terminal) => crate::pane::adopt(
            pane.id,
            terminal,
            pane.output_mark,
            holder(&pane, master, shared),
            window,
            shared,
        ),
        Err(e) => Err(e),
    };
    let handle = match handle {
        Ok(handle) => handle,
        Err(e) => {
            crate::log::line(&format!("upgrade: pane {} lost: {e}", pane.id));
            return None;
        }
    };
    shared.agents.restore(pane.id, pane.metadata, pane.ask);
    if let Some(lease) = pane.lease {
        shared.leases.restore(pane.id, lease);
    }
    let entry = PaneEntry {
        handle,
        session: pane.session,
        window: pane.window,
        tags: pane.tags,
        title: pane.title,
        cols: pane.cols,
        rows: pane.rows,
    };
    Some(entry)
}

/// Who holds the pane's program: its keeper, taken over from the old process (the master
/// it hands is the same terminal), or this process, whose child it stayed across the exec.
fn holder(pane: &PaneState, master: OwnedFd, shared: &Shared) -> crate::pane::Holder {
    if pane.keeper {
        let path = crate::keeper::directory(&shared.config.socket).join(pane.id.0.to_string());
        match crate::keeper::adopt(&path) {
            Ok(held) => return crate::pane::Holder::Keeper(Box::new(held)),
            Err(e) => crate::log::line(&format!(
                "upgrade: pane {} is not held by its keeper any more: {e}",
                pane.id
            )),
        }
    }
    crate::pane::Holder::Parent(master, pane.pid)
}

/// A pane's flight window as decoded, or none when it cannot be read or placed in time.
fn carried_window(pane: PaneId, window: &[u8], clocked: bool) -> Vec<crate::flight::FlightEntry> {
    if window.is_empty() {
        return Vec::new();
    }
    if !clocked {
        crate::log::line(&format!(
            "upgrade: pane {pane}'s flight window is dropped: the server's clock could not go on"
        ));
        return Vec::new();
    }
    flight_window::decode(window).unwrap_or_else(|e| {
        crate::log::line(&format!(
            "upgrade: pane {pane}'s flight window is dropped: {e}"
        ));
        Vec::new()
    })
}

/// Keeps the ended panes the previous process kept, each for the rest of its time.
fn adopt_exited(shared: &Shared, states: Vec<ExitedState>, snapshots: Vec<Vec<u8>>) {
    let keepers = crate::keeper::directory(&shared.config.socket);
    let mut exited = shared.exited();
    for (state, snapshot) in states.into_iter().zip(snapshots) {
        // Its keeper, kept while the pane is (for a server after a crash).
        let keeper = keepers.join(state.view.id.0.to_string());
        if keeper.exists() {
            match crate::keeper::adopt(&keeper) {
                Ok(held) => held.link.park(),
                Err(e) => crate::log::line(&format!(
                    "upgrade: ended pane {}'s keeper is not taken over: {e}",
                    state.view.id
                )),
            }
        }
        let options = TerminalOptions::new(state.cols, state.rows, state.history_limit);
        match Terminal::restore(&snapshot, options) {
            Ok(terminal) => exited.add(crate::exited::ExitedPane::carried(
                state.view,
                terminal,
                state.output_mark,
                Duration::from_millis(state.age_ms),
            )),
            Err(e) => crate::log::line(&format!(
                "upgrade: exited pane {} is not kept: {e}",
                state.view.id
            )),
        }
    }
}
