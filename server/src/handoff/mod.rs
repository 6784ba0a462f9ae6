//! `phux upgrade`: the server re-execs the binary on disk without its panes noticing. The old
//! process snapshots every pane's terminal, stops its PTY readers (output waits in the PTYs),
//! snapshots again the terminals that changed meanwhile (see `snapshots`), writes the
//! snapshots, sizes, titles, tags and places in the layout to a private manifest, hands the PTY
//! masters and the listening socket to the exec through a socket pair on stdin (see `fds`),
//! and execs `phux server ... --adopt MANIFEST` in its own PID, so programs stay its children.
//! The new process (`adopt`) rebuilds each terminal from its snapshot (see `restoring`) and
//! reads on. Each process logs where the frozen time went (see `phases`). A binary
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

mod adopt;
mod fault;
mod fds;
pub mod flight_window;
pub(crate) mod in_parallel;
pub mod manifest;
mod phases;
mod restoring;
mod snapshots;
mod strays;

pub use adopt::{adopt, receive, Inheritance};
pub use phases::Phases;

use std::collections::HashMap;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;

use crate::flight::CarriedWindow;
use crate::pane::PaneCommand;
use crate::request_error::RequestError;
use crate::session_tree::SessionTree;
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

/// Copies of the listening socket and its lock, kept from start-up for a hand-off, and let go
/// when the server stops (the copy of the lock would otherwise hold it until the process ends,
/// refusing a `phux server` started meanwhile).
static SOCKET: Mutex<Option<(OwnedFd, OwnedFd)>> = Mutex::new(None);

/// Keeps what a hand-off passes on of the bound socket.
pub fn remember_socket(bound: &BoundSocket) {
    match bound.handoff_fds() {
        Ok(fds) => {
            *SOCKET.lock().unwrap_or_else(PoisonError::into_inner) = Some(fds);
        }
        Err(e) => crate::log::line(&format!("upgrade will be unavailable: {e}")),
    }
}

/// Closes the copies [`remember_socket`] kept: a stopping server hands nothing over.
pub fn forget_socket() {
    drop(SOCKET.lock().unwrap_or_else(PoisonError::into_inner).take());
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
    let kept = SOCKET.lock().unwrap_or_else(PoisonError::into_inner);
    let (listener, lock) = kept
        .as_ref()
        .ok_or_else(|| failed("this server kept no copy of its socket to hand over".into()))?;
    let mut early_phases = Phases::start("old");
    let early = snapshots::early(pane_handles(shared));
    early_phases.lap("snapshots");
    crate::log::line(&early_phases.line("before the freeze"));
    let gate = crate::pane::io::READ_GATE
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut phases = Phases::start("old");
    let frozen_at = phases.started_unix_ns;
    let epoch_age_ns = crate::bus::now_ns(shared.epoch);
    // Before the tree is locked: a pane's core may need it to finish what it is doing.
    let windows = flight_windows(shared);
    phases.lap("flight windows");
    // Should the new binary never take over, a server started later finds the layout beside
    // the panes' keepers.
    if let Err(e) = crate::keeper::state_file::write_now(shared) {
        crate::log::line(&format!("upgrade: cannot write the state file: {e}"));
    }
    phases.lap("state file");
    let tree = shared.tree();
    let (mut manifest, blobs, masters) = describe(&tree, shared, (early, windows), &mut phases)?;
    manifest.frozen_at_unix_ns = frozen_at;
    manifest.clock = Some(flight_window::Clock { epoch_age_ns });
    // Sealed with the tree locked: a write that has not reached the ledger by now is refused
    // as not written, so the next server knows every id this one typed.
    manifest.operations = shared.deliveries.seal();
    let path = manifest::path_for(&shared.config.socket);
    if let Err(e) = manifest::write(&path, &manifest, &blobs) {
        shared.deliveries.unseal();
        return Err(failed(format!("cannot write {}: {e}", path.display())));
    }
    phases.lap("manifest");
    let mut handed = vec![listener.as_fd(), lock.as_fd()];
    handed.extend(masters.iter().map(|m| m.as_fd()));
    let staged = fds::stage(&handed);
    phases.lap("descriptors");
    let error = match staged {
        Ok(sender) => {
            crate::log::line(&format!(
                "upgrade: handing {} panes ({} MiB of state) to {}",
                manifest.panes.len(),
                blobs.total_bytes() >> 20,
                binary.display()
            ));
            crate::log::line(&phases.line("frozen"));
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
    shared.deliveries.unseal();
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
    // The listener's real address (a port 0 asked for one that the next process must keep).
    if let Some(addr) = crate::remote::bound_addr() {
        args = without_flag(args, "--ws-addr");
        args.push("--ws-addr".into());
        args.push(addr.to_string().into());
    }
    args
}

/// `args` without `flag` and its value (`--flag VALUE` or `--flag=VALUE`).
fn without_flag(args: Vec<std::ffi::OsString>, flag: &str) -> Vec<std::ffi::OsString> {
    let joined = format!("{flag}=");
    let mut kept = Vec::new();
    let mut skip = false;
    for arg in args {
        if skip {
            skip = false;
        } else if arg == flag {
            skip = true;
        } else if !arg.to_string_lossy().starts_with(&joined) {
            kept.push(arg);
        }
    }
    kept
}

/// Each pane's flight window and sequence number, asked of its core. A pane whose core does
/// not answer in time is carried without its window.
fn flight_windows(shared: &Shared) -> HashMap<PaneId, CarriedWindow> {
    let asked: Vec<_> = pane_handles(shared)
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

/// The handles of every pane.
fn pane_handles(shared: &Shared) -> Vec<crate::pane::PaneHandle> {
    (shared.tree().panes.values())
        .map(|e| e.handle.clone())
        .collect()
}

/// Each pane's snapshot taken before the freeze, and each pane's flight window.
type Taken = (
    HashMap<PaneId, crate::pane::TerminalSnapshot>,
    HashMap<PaneId, CarriedWindow>,
);

fn describe(
    tree: &SessionTree,
    shared: &Shared,
    (early, mut windows): Taken,
    phases: &mut Phases,
) -> Result<Described, RequestError> {
    let handles = (tree.panes.values()).map(|e| e.handle.clone()).collect();
    let (snapshots, retaken) = snapshots::current(handles, early);
    phases.lap("snapshots changed since");
    let mut encoding = Duration::ZERO;
    let mut panes = Vec::new();
    let mut blobs = Blobs::default();
    let mut masters = Vec::new();
    let mut windows_size = 0;
    for ((id, entry), snapshot) in tree.panes.iter().zip(snapshots) {
        let snapshot = snapshot.map_err(|e| failed(format!("cannot snapshot pane {id}: {e}")))?;
        let began = Instant::now();
        let window = windows.remove(id).unwrap_or_default();
        let mut encoded = flight_window::encode(&window.entries);
        encoding += began.elapsed();
        windows_size += encoded.len();
        if windows_size > WINDOWS_BUDGET {
            crate::log::line(&format!(
                "upgrade: pane {id}'s flight window is not carried"
            ));
            encoded = Vec::new();
        }
        panes.push(PaneState {
            history_limit: snapshot.history_limit,
            output_mark: entry.handle.output().mark(),
            snapshot_len: snapshot.bytes.len(),
            seq: window.seq,
            flight_len: encoded.len(),
            ..PaneState::placed(*id, entry, shared)
        });
        blobs.snapshots.push(snapshot.bytes);
        blobs.windows.push(encoded);
        masters.push(Arc::clone(entry.handle.master()));
    }
    phases.add("flight windows encoded", encoding.as_secs_f64() * 1e3);
    phases.skip_to_now();
    if retaken > 0 {
        crate::log::line(&format!(
            "upgrade: {retaken} panes changed after their early snapshot: taken again"
        ));
    }
    let exited = exited_panes(shared, &mut blobs.exited);
    let sessions = sessions_of(tree);
    phases.lap("exited panes and layout");
    let manifest = Manifest {
        version: manifest::MANIFEST_VERSION,
        counters: tree.counters(),
        frozen_at_unix_ns: 0,
        sessions,
        descriptors: 2 + panes.len(),
        panes,
        clock: None,
        exited,
        operations: Vec::new(),
        listener: None,
    };
    Ok((manifest, blobs, masters))
}

/// The sessions, their windows and layouts, as a manifest (or the state file) carries them.
pub(crate) fn sessions_of(tree: &SessionTree) -> Vec<SessionState> {
    tree.sessions
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
        .collect()
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
