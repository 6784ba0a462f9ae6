//! What a server that starts after a crash needs beside the keepers: the sessions, windows and
//! layouts, and each pane's place, tags, title, size, agent record, ask and lease. The server
//! writes it beside its socket (`<socket>.state`, 0600, replaced atomically) after every
//! request that changes it, before the answer (what a client was told survives a crash); twice
//! a second for what changes on its own (a title a program sets); and right before an
//! upgrade's exec. A clean stop removes it. It is the upgrade manifest's JSON without the
//! blobs: the screens are in the keeps.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crate::handoff::manifest::{ExitedState, Manifest, PaneState, MANIFEST_VERSION};
use crate::shared::Shared;

/// How often the server looks whether its state changed.
const LOOK_EVERY: Duration = Duration::from_millis(500);
/// The most a state file may hold (thousands of panes with large agent records).
const MAX_STATE_BYTES: u64 = 64 << 20;

/// Where the state file of the server at `socket` lives.
pub fn path_for(socket: &Path) -> PathBuf {
    let mut name = socket.as_os_str().to_os_string();
    name.push(".state");
    PathBuf::from(name)
}

/// The server's state as the file holds it.
pub fn describe(shared: &Shared) -> Manifest {
    let tree = shared.tree();
    let panes = (tree.panes.iter())
        .map(|(id, entry)| PaneState::placed(*id, entry, shared))
        .collect();
    // The ended panes still kept: their screens are in their keepers' keeps.
    let exited = (shared.exited().kept())
        .map(|pane| ExitedState {
            view: pane.view.clone(),
            cols: 0,
            rows: 0,
            history_limit: 0,
            output_mark: 0,
            age_ms: 0,
            snapshot_len: 0,
        })
        .collect();
    Manifest {
        version: MANIFEST_VERSION,
        counters: tree.counters(),
        sessions: crate::handoff::sessions_of(&tree),
        panes,
        frozen_at_unix_ns: 0,
        descriptors: 0,
        clock: None,
        exited,
        // A crash loses the ledger with the server: a retry after it is not known.
        operations: Vec::new(),
        listener: crate::remote::bound_addr().map(|a| a.to_string()),
    }
}

/// What was written last (one writer at a time: the temporary file is one per process).
static WRITTEN: Mutex<Vec<u8>> = Mutex::new(Vec::new());

/// Writes the state if it changed since it was last written. A stopping server writes it no
/// more: a stop on purpose removes it, and a pane ending during the stop must not put it back
/// (a client would take it for panes waiting to be taken over).
pub fn write_now(shared: &Shared) -> std::io::Result<()> {
    if shared.is_stopping() {
        return Ok(());
    }
    let bytes = serde_json::to_vec(&describe(shared)).map_err(std::io::Error::other)?;
    let mut written = WRITTEN.lock().unwrap_or_else(PoisonError::into_inner);
    if *written == bytes {
        return Ok(());
    }
    phux_core::atomic_file::write(&path_for(&shared.config.socket), &bytes, 0o600)?;
    *written = bytes;
    Ok(())
}

/// Writes the state after something changed it (a request, before its answer; a pane's end).
/// A failure is logged (the writer's next look tries again).
pub fn after_change(shared: &Shared) {
    if let Err(e) = write_now(shared) {
        crate::log::line(&format!("cannot write the state file: {e}"));
    }
}

/// Keeps the state file current until the server stops.
pub fn start_writer(shared: &Arc<Shared>) {
    let shared = Arc::clone(shared);
    let spawned = std::thread::Builder::new()
        .name("state-file".into())
        .spawn(move || {
            let mut failed = false;
            while !shared.is_stopping() {
                match write_now(&shared) {
                    Ok(()) => failed = false,
                    Err(e) if !failed => {
                        failed = true;
                        crate::log::line(&format!(
                            "cannot write the state file: a crash would lose the layout: {e}"
                        ));
                    }
                    Err(_) => {}
                }
                std::thread::sleep(LOOK_EVERY);
            }
        });
    if let Err(e) = spawned {
        crate::log::line(&format!("cannot start the state file's writer: {e}"));
    }
}

/// The state a previous server left, if it left one that reads.
pub fn read(socket: &Path) -> Option<Manifest> {
    let path = path_for(socket);
    let bytes = phux_core::bounded_read::read_file(&path, MAX_STATE_BYTES, "state file").ok()?;
    match serde_json::from_slice::<Manifest>(&bytes) {
        Ok(manifest) if manifest.version == MANIFEST_VERSION => Some(manifest),
        Ok(manifest) => {
            crate::log::line(&format!(
                "{} is of version {}, not {MANIFEST_VERSION}: panes come back without their layout",
                path.display(),
                manifest.version
            ));
            None
        }
        Err(e) => {
            crate::log::line(&format!(
                "{} cannot be read ({e}): panes come back without their layout",
                path.display()
            ));
            None
        }
    }
}

/// Removes the state file (a clean stop: no pane waits).
pub fn remove(socket: &Path) {
    let _ = std::fs::remove_file(path_for(socket));
}
