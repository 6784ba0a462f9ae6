//! `phux upgrade`: the server re-execs the binary on disk without its panes noticing. The old
//! process stops its PTY readers (output waits in the PTYs), writes every pane's terminal
//! snapshot, size, title, tags and place in the layout to a private manifest, hands the PTY
//! masters and the listening socket to the exec through a socket pair on stdin (see `fds`),
//! and execs `phux server ... --adopt MANIFEST` in its own PID, so programs stay its children.
//! The new process (`adopt`) rebuilds each terminal from its snapshot and reads on. A binary
//! that does not run or speaks another protocol, or an exec that fails, leaves the old process running
//! as it was, with `upgrade_failed`.
//!
//! Carried too: each pane's agent metadata (its `phux.agent/v1` record, plugin reports, user
//! keys), its pending ask, an input lease not bound to a connection, its flight recorder's
//! window (on the server's clock, which the new process continues: its epoch is set back as
//! far as the old one's), and the panes that already exited (their view and last terminal, for
//! the rest of their keeping time). Not carried (the new process starts them empty):
//! shell-integration marks (re-learned at the next prompt), input not yet written to a PTY,
//! run slots and connection-bound leases (their connections end), and attached clients and
//! streams (their connections close: they reconnect; the browser page dials again).

mod fds;
pub mod flight_window;
pub mod manifest;

use std::collections::HashMap;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use phux_core::engine::{Terminal, TerminalOptions};
use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;

use crate::flight::CarriedWindow;
use crate::pane::PaneCommand;
use crate::request_error::RequestError;
use crate::session_tree::{PaneEntry, Session, SessionTree, Window};
use crate::shared::Shared;
use crate::socket::BoundSocket;
use manifest::{
    Blobs, ExitedState, Manifest, PaneState, SessionState, SplitTreeState, WindowState,
};

/// The most the flight windows of all panes may add to a manifest; past it, the windows of
/// the panes that come last go uncarried (their panes are carried all the same).
const WINDOWS_BUDGET: usize = 256 << 20;
/// How long a pane's core may take to hand its flight window over (it is idle or busy only
/// for moments: its reader is stopped).
const HAND_OVER_WAIT: Duration = Duration::from_secs(2);
/// The longest a hand-off is taken to have lasted when the new process sets its clock.
const MAX_HAND_OFF_NS: u64 = 60_000_000_000;

/// Copies of the listening socket and its lock, kept from start-up for a hand-off.
static SOCKET: OnceLock<(OwnedFd, OwnedFd)> = OnceLock::new();

/// Keeps what a hand-off passes on of the bound socket.
pub fn remember_socket(bound: &BoundSocket) {
    match bound.handoff_fds() {
        Ok(fds) => {
            let _ = SOCKET.set(fds);
        }
        Err(e) => crate::log::line(&format!("upgrade will be unavailable: {e}")),
    }
}

fn failed(message: String) -> RequestError {
    RequestError::refused(
        ErrorCode::UpgradeFailed,
        message,
        "the server runs on as it was, nothing lost; fix the binary (`phux update --rollback` \
         puts the previous one back), then retry",
    )
}

/// Checks the binary on disk, then hands everything over to it. Returns only on failure: on
/// success this process has become the new server.
pub fn upgrade(shared: &Arc<Shared>) -> Result<(), RequestError> {
    let binary = shared.config.shim_exe.clone();
    check_binary(&binary)?;
    let (listener, lock) = SOCKET
        .get()
        .ok_or_else(|| failed("this server kept no copy of its socket to hand over".into()))?;
    let gate = crate::pane::io::READ_GATE
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let frozen_at = manifest::unix_ns();
    let epoch_age_ns = crate::bus::now_ns(shared.epoch);
    // Before the tree is locked: a pane's core may need it to finish what it is doing.
    let windows = flight_windows(shared);
    let tree = shared.tree();
    let (mut manifest, blobs, masters) = describe(&tree, shared, windows)?;
    manifest.frozen_at_unix_ns = frozen_at;
    manifest.clock = Some(flight_window::Clock { epoch_age_ns });
    let path = manifest::path_for(&shared.config.socket);
    manifest::write(&path, &manifest, &blobs)
        .map_err(|e| failed(format!("cannot write {}: {e}", path.display())))?;
    let mut handed = vec![listener.as_fd(), lock.as_fd()];
    handed.extend(masters.iter().map(|m| m.as_fd()));
    let staged = fds::stage(&handed);
    let error = match staged {
        Ok(sender) => {
            crate::log::line(&format!(
                "upgrade: handing {} panes to {}",
                manifest.panes.len(),
                binary.display()
            ));
            let error = std::process::Command::new(&binary)
                .args(next_args(&path))
                .exec();
            drop(sender);
            let _ = fds::reset_stdin();
            error
        }
        Err(e) => e,
    };
    let _ = std::fs::remove_file(&path);
    drop(tree);
    drop(gate);
    crate::log::line(&format!("upgrade failed: {error}"));
    Err(failed(format!(
        "cannot start {}: {error}",
        binary.display()
    )))
}

/// The new binary must run and speak this protocol: `BINARY server --print-protocol` answers
/// `phux-protocol MAJOR.MINOR` with this server's major version.
fn check_binary(binary: &Path) -> Result<(), RequestError> {
    let output = std::process::Command::new(binary)
        .args(["server", "--print-protocol"])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .map_err(|e| failed(format!("cannot run {}: {e}", binary.display())))?;
    let text = String::from_utf8_lossy(&output.stdout);
    let major = text
        .trim()
        .strip_prefix("phux-protocol ")
        .and_then(|v| v.split('.').next())
        .and_then(|m| m.parse::<u32>().ok());
    let ours = phux_core::wire::PROTOCOL.major;
    match major {
        _ if !output.status.success() => Err(failed(format!(
            "{} does not run as a phux server ({}): it cannot take over",
            binary.display(),
            output.status
        ))),
        Some(major) if major == ours => Ok(()),
        Some(major) => Err(failed(format!(
            "{} speaks protocol {major}, this server {ours}: it cannot take over its clients",
            binary.display()
        ))),
        None => Err(failed(format!(
            "{} did not say which protocol it speaks: it cannot take over",
            binary.display()
        ))),
    }
}

/// This process's arguments with `--adopt MANIFEST` (replacing an earlier one).
fn next_args(manifest: &Path) -> Vec<std::ffi::OsString> {
    let mut args = Vec::new();
    let mut skip = false;
    for arg in std::env::args_os().skip(1) {
        if skip {
            skip = false;
        } else if arg == "--adopt" {
            skip = true;
        } else {
            args.push(arg);
        }
    }
    args.push("--adopt".into());
    args.push(manifest.into());
    args
}

/// Each pane's flight window and sequence number, asked of its core. A pane whose core does
/// not answer in time is carried without its window.
fn flight_windows(shared: &Shared) -> HashMap<PaneId, CarriedWindow> {
    let handles: Vec<_> = shared
        .tree()
        .panes
        .values()
        .map(|e| e.handle.clone())
        .collect();
    let asked: Vec<_> = handles
        .iter()
        .filter_map(|handle| {
            let (reply, answer) = crossbeam_channel::bounded(1);
            handle.send(PaneCommand::HandOver(reply)).ok()?;
            Some((handle.id, answer))
        })
        .collect();
    let deadline = Instant::now() + HAND_OVER_WAIT;
    asked
        .into_iter()
        .filter_map(|(id, answer)| Some((id, answer.recv_deadline(deadline).ok()?)))
        .collect()
}

type Described = (Manifest, Blobs, Vec<Arc<OwnedFd>>);

fn describe(
    tree: &SessionTree,
    shared: &Shared,
    mut windows: HashMap<PaneId, CarriedWindow>,
) -> Result<Described, RequestError> {
    let mut panes = Vec::new();
    let mut blobs = Blobs::default();
    let mut masters = Vec::new();
    let mut windows_size = 0;
    for (id, entry) in &tree.panes {
        let (snapshot, history_limit) = entry
            .handle
            .snapshot()
            .map_err(|e| failed(format!("cannot snapshot pane {id}: {e}")))?;
        let agent = shared.agents.get(*id);
        let window = windows.remove(id).unwrap_or_default();
        let mut encoded = flight_window::encode(&window.entries);
        windows_size += encoded.len();
        if windows_size > WINDOWS_BUDGET {
            crate::log::line(&format!(
                "upgrade: pane {id}'s flight window is not carried"
            ));
            encoded = Vec::new();
        }
        panes.push(PaneState {
            id: *id,
            session: entry.session,
            window: entry.window,
            tags: entry.tags.clone(),
            title: entry.title.clone(),
            cols: entry.cols,
            rows: entry.rows,
            history_limit,
            pid: entry.handle.pid,
            output_mark: entry.handle.output().mark(),
            snapshot_len: snapshot.len(),
            metadata: agent.metadata,
            ask: agent.ask,
            lease: shared.leases.carried(*id),
            seq: window.seq,
            flight_len: encoded.len(),
        });
        blobs.snapshots.push(snapshot);
        blobs.windows.push(encoded);
        masters.push(Arc::clone(entry.handle.master()));
    }
    let exited = exited_panes(shared, &mut blobs.exited);
    let sessions = tree
        .sessions
        .iter()
        .map(|s| SessionState {
            id: s.id,
            name: s.name.clone(),
            windows: s
                .windows
                .iter()
                .map(|w| WindowState {
                    id: w.id,
                    index: w.index,
                    name: w.name.clone(),
                    layout: SplitTreeState::from(&w.layout),
                })
                .collect(),
        })
        .collect();
    let manifest = Manifest {
        version: manifest::MANIFEST_VERSION,
        counters: tree.counters(),
        frozen_at_unix_ns: 0,
        sessions,
        descriptors: 2 + panes.len(),
        panes,
        clock: None,
        exited,
    };
    Ok((manifest, blobs, masters))
}

/// The ended panes still kept, their snapshots pushed onto `snapshots`.
fn exited_panes(shared: &Shared, snapshots: &mut Vec<Vec<u8>>) -> Vec<ExitedState> {
    let mut states = Vec::new();
    for pane in shared.exited().kept() {
        let carried = match pane.to_carry() {
            Ok(carried) => carried,
            Err(e) => {
                let id = pane.view.id;
                crate::log::line(&format!("upgrade: exited pane {id} is not carried: {e}"));
                continue;
            }
        };
        states.push(ExitedState {
            view: pane.view.clone(),
            cols: carried.cols,
            rows: carried.rows,
            history_limit: carried.history_limit,
            output_mark: carried.output_mark,
            age_ms: u64::try_from(carried.age.as_millis()).unwrap_or(u64::MAX),
            snapshot_len: carried.snapshot.len(),
        });
        snapshots.push(carried.snapshot);
    }
    states
}

/// What the previous process handed over, received before the server is built.
pub struct Inheritance {
    manifest: Manifest,
    blobs: Blobs,
    masters: Vec<OwnedFd>,
}

impl Inheritance {
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
pub fn receive(
    manifest_path: &Path,
    socket: PathBuf,
) -> std::io::Result<(BoundSocket, Inheritance)> {
    let (manifest, blobs) = manifest::take(manifest_path)?;
    let mut fds = fds::receive(manifest.descriptors)?.into_iter();
    let (Some(listener), Some(lock)) = (fds.next(), fds.next()) else {
        return Err(std::io::Error::other("the socket was not handed over"));
    };
    let bound = BoundSocket::adopt(socket, listener, lock)?;
    let inheritance = Inheritance {
        manifest,
        blobs,
        masters: fds.collect(),
    };
    Ok((bound, inheritance))
}

/// Rebuilds the session tree: each pane's terminal from its snapshot around its adopted PTY,
/// with its flight window when `clocked` (the server's clock went on from the old one's);
/// and the ended panes still kept.
pub fn adopt(shared: &Arc<Shared>, inheritance: Inheritance, clocked: bool) {
    let Inheritance {
        manifest,
        blobs,
        masters,
    } = inheritance;
    let mut entries = Vec::new();
    let carried = (manifest.panes.into_iter())
        .zip(blobs.snapshots)
        .zip(blobs.windows)
        .zip(masters);
    for (((pane, snapshot), window), master) in carried {
        let options = TerminalOptions::new(pane.cols, pane.rows, pane.history_limit);
        let terminal = Terminal::restore(&snapshot, options).or_else(|e| {
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
                (master, pane.pid),
                window,
                shared,
            ),
            Err(e) => Err(e),
        };
        if handle.is_ok() {
            shared.agents.restore(pane.id, pane.metadata, pane.ask);
            if let Some(lease) = pane.lease {
                shared.leases.restore(pane.id, lease);
            }
        }
        match handle {
            Ok(handle) => entries.push(PaneEntry {
                handle,
                session: pane.session,
                window: pane.window,
                tags: pane.tags,
                title: pane.title,
                cols: pane.cols,
                rows: pane.rows,
            }),
            Err(e) => crate::log::line(&format!("upgrade: pane {} lost: {e}", pane.id)),
        }
    }
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
    *shared.tree() = SessionTree::restore(sessions, entries, manifest.counters);
    adopt_exited(shared, manifest.exited, blobs.exited);
    let unread_ms = manifest::unix_ns().saturating_sub(manifest.frozen_at_unix_ns) / 1_000_000;
    crate::log::line(&format!(
        "upgrade: adopted {adopted} panes; their output went unread for {unread_ms} ms"
    ));
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
    let mut exited = shared.exited();
    for (state, snapshot) in states.into_iter().zip(snapshots) {
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
