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
//! keys), its pending ask, and an input lease not bound to a connection. Not carried (the new
//! process starts them empty): the flight recorder's window, panes that already exited,
//! shell-integration marks (re-learned at the next prompt), input not yet written to a PTY,
//! run slots and connection-bound leases (their connections end), and attached clients and
//! streams (their connections close: they reconnect; the browser page dials again).

mod fds;
pub mod manifest;

use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use phux_core::engine::{Terminal, TerminalOptions};
use phux_core::error_code::ErrorCode;

use crate::request_error::RequestError;
use crate::session_tree::{PaneEntry, Session, SessionTree, Window};
use crate::shared::Shared;
use crate::socket::BoundSocket;
use manifest::{Manifest, PaneState, SessionState, SplitTreeState, WindowState};

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
    let tree = shared.tree();
    let (mut manifest, snapshots, masters) = describe(&tree, shared)?;
    manifest.frozen_at_unix_ns = frozen_at;
    let path = manifest::path_for(&shared.config.socket);
    manifest::write(&path, &manifest, &snapshots)
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

type Described = (Manifest, Vec<Vec<u8>>, Vec<Arc<OwnedFd>>);

fn describe(tree: &SessionTree, shared: &Shared) -> Result<Described, RequestError> {
    let mut panes = Vec::new();
    let mut snapshots = Vec::new();
    let mut masters = Vec::new();
    for (id, entry) in &tree.panes {
        let (snapshot, history_limit) = entry
            .handle
            .snapshot()
            .map_err(|e| failed(format!("cannot snapshot pane {id}: {e}")))?;
        let agent = shared.agents.get(*id);
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
        });
        snapshots.push(snapshot);
        masters.push(Arc::clone(entry.handle.master()));
    }
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
    };
    Ok((manifest, snapshots, masters))
}

/// What the previous process handed over, received before the server is built.
pub struct Inheritance {
    manifest: Manifest,
    snapshots: Vec<Vec<u8>>,
    masters: Vec<OwnedFd>,
}

/// Receives the socket and the panes' descriptors, and reads (and removes) the manifest.
pub fn receive(
    manifest_path: &Path,
    socket: PathBuf,
) -> std::io::Result<(BoundSocket, Inheritance)> {
    let (manifest, snapshots) = manifest::take(manifest_path)?;
    let mut fds = fds::receive(manifest.descriptors)?.into_iter();
    let (Some(listener), Some(lock)) = (fds.next(), fds.next()) else {
        return Err(std::io::Error::other("the socket was not handed over"));
    };
    let bound = BoundSocket::adopt(socket, listener, lock)?;
    let inheritance = Inheritance {
        manifest,
        snapshots,
        masters: fds.collect(),
    };
    Ok((bound, inheritance))
}

/// Rebuilds the session tree: each pane's terminal from its snapshot around its adopted PTY.
pub fn adopt(shared: &Arc<Shared>, inheritance: Inheritance) {
    let Inheritance {
        manifest,
        snapshots,
        masters,
    } = inheritance;
    let mut entries = Vec::new();
    for ((pane, snapshot), master) in manifest.panes.into_iter().zip(snapshots).zip(masters) {
        let options = TerminalOptions::new(pane.cols, pane.rows, pane.history_limit);
        let terminal = Terminal::restore(&snapshot, options).or_else(|e| {
            crate::log::line(&format!("upgrade: pane {} starts blank: {e}", pane.id));
            Terminal::with_options(options)
        });
        let handle = match terminal.map_err(|e| std::io::Error::other(e.to_string())) {
            Ok(terminal) => crate::pane::adopt(
                pane.id,
                terminal,
                pane.output_mark,
                master,
                pane.pid,
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
    let unread_ms = manifest::unix_ns().saturating_sub(manifest.frozen_at_unix_ns) / 1_000_000;
    crate::log::line(&format!(
        "upgrade: adopted {adopted} panes; their output went unread for {unread_ms} ms"
    ));
}
