//! The file one server process leaves the next on `phux upgrade`: one JSON line (sessions,
//! windows, layouts, panes, counters, and which handed-over descriptor is which) followed by
//! each pane's terminal snapshot, back to back. Written 0600 beside the socket and removed by
//! the process that reads it.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use phux_core::ids::{PaneId, SessionId, WindowId};
use phux_core::split::SplitDirection;
use serde::{Deserialize, Serialize};

use crate::session_tree::Counters;
use crate::split_tree::SplitTree;

/// The most a manifest may hold: 1 GiB of snapshots (a thousand busy panes).
const MAX_MANIFEST_BYTES: u64 = 1 << 30;
/// This format's version; a process that reads another refuses it.
pub const MANIFEST_VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub version: u32,
    pub counters: Counters,
    pub sessions: Vec<SessionState>,
    pub panes: Vec<PaneState>,
    /// When the old process stopped reading the PTYs (Unix time, ns): the new one reports how
    /// long output went unread.
    pub frozen_at_unix_ns: u64,
    /// Descriptors handed over, in order: the listening socket, its lock, then each pane's PTY
    /// master in `panes`' order.
    pub descriptors: usize,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct SessionState {
    pub id: SessionId,
    pub name: String,
    pub windows: Vec<WindowState>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct WindowState {
    pub id: WindowId,
    pub index: u32,
    pub name: String,
    pub layout: SplitTreeState,
}

#[derive(Debug, Serialize, Deserialize)]
pub enum SplitTreeState {
    Pane(PaneId),
    Split {
        direction: SplitDirection,
        ratio: f64,
        first: Box<SplitTreeState>,
        second: Box<SplitTreeState>,
    },
}

impl From<&SplitTree> for SplitTreeState {
    fn from(layout: &SplitTree) -> Self {
        match layout {
            SplitTree::Pane(id) => SplitTreeState::Pane(*id),
            SplitTree::Split {
                direction,
                ratio,
                first,
                second,
            } => SplitTreeState::Split {
                direction: *direction,
                ratio: *ratio,
                first: Box::new(first.as_ref().into()),
                second: Box::new(second.as_ref().into()),
            },
        }
    }
}

impl From<SplitTreeState> for SplitTree {
    fn from(state: SplitTreeState) -> Self {
        match state {
            SplitTreeState::Pane(id) => SplitTree::Pane(id),
            SplitTreeState::Split {
                direction,
                ratio,
                first,
                second,
            } => SplitTree::Split {
                direction,
                ratio,
                first: Box::new((*first).into()),
                second: Box::new((*second).into()),
            },
        }
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct PaneState {
    pub id: PaneId,
    pub session: SessionId,
    pub window: WindowId,
    pub tags: Vec<String>,
    pub title: Option<String>,
    pub cols: u16,
    pub rows: u16,
    pub history_limit: usize,
    pub pid: u32,
    /// The output position (`mark`): marks taken before the hand-off stay valid after it.
    pub output_mark: u64,
    /// Length of this pane's snapshot in the bytes after the JSON line.
    pub snapshot_len: usize,
    /// The pane's agent metadata (the `phux.agent/v1` record, plugin reports, user keys).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub metadata: std::collections::BTreeMap<String, serde_json::Value>,
    /// The question it was asking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ask: Option<phux_core::wire::ActiveAsk>,
    /// Its input lease, unless the lease lived with a connection (which the hand-off ends).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lease: Option<crate::leases::CarriedLease>,
}

/// Where the manifest of the server on `socket` goes.
pub fn path_for(socket: &Path) -> PathBuf {
    socket.with_extension("sock.handoff")
}

/// Writes `manifest` and the snapshots (in `manifest.panes`' order) to a fresh private file.
pub fn write(path: &Path, manifest: &Manifest, snapshots: &[Vec<u8>]) -> std::io::Result<()> {
    let _ = std::fs::remove_file(path);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
        .open(path)?;
    let mut header = serde_json::to_vec(manifest).map_err(std::io::Error::other)?;
    header.push(b'\n');
    let mut out = std::io::BufWriter::new(&mut file);
    out.write_all(&header)?;
    for snapshot in snapshots {
        out.write_all(snapshot)?;
    }
    out.flush()?;
    drop(out);
    file.sync_all()
}

/// Reads and removes the manifest: the JSON part and each pane's snapshot.
pub fn take(path: &Path) -> std::io::Result<(Manifest, Vec<Vec<u8>>)> {
    let bytes = phux_core::bounded_read::read_file(path, MAX_MANIFEST_BYTES, "a hand-off manifest")
        .map_err(|e| std::io::Error::other(e.to_string()));
    let _ = std::fs::remove_file(path);
    let bytes = bytes?;
    let invalid =
        |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_owned());
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| invalid("the hand-off manifest has no header"))?;
    let manifest: Manifest =
        serde_json::from_slice(&bytes[..end]).map_err(std::io::Error::other)?;
    if manifest.version != MANIFEST_VERSION {
        return Err(invalid("the hand-off manifest is of another version"));
    }
    let mut rest = &bytes[end + 1..];
    let mut snapshots = Vec::with_capacity(manifest.panes.len());
    for pane in &manifest.panes {
        if rest.len() < pane.snapshot_len {
            return Err(invalid("the hand-off manifest is cut short"));
        }
        let (snapshot, after) = rest.split_at(pane.snapshot_len);
        snapshots.push(snapshot.to_vec());
        rest = after;
    }
    Ok((manifest, snapshots))
}

/// Now, as Unix time in nanoseconds.
pub fn unix_ns() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn manifest(snapshot_lens: &[usize]) -> Manifest {
        Manifest {
            version: MANIFEST_VERSION,
            counters: Counters::default(),
            sessions: vec![SessionState {
                id: SessionId(1),
                name: "work".into(),
                windows: vec![WindowState {
                    id: WindowId(1),
                    index: 0,
                    name: "0".into(),
                    layout: SplitTreeState::from(&SplitTree::Split {
                        direction: SplitDirection::default(),
                        ratio: 0.25,
                        first: Box::new(SplitTree::Pane(PaneId(1))),
                        second: Box::new(SplitTree::Pane(PaneId(2))),
                    }),
                }],
            }],
            panes: snapshot_lens
                .iter()
                .enumerate()
                .map(|(i, &len)| PaneState {
                    id: PaneId(i as u32 + 1),
                    session: SessionId(1),
                    window: WindowId(1),
                    tags: vec!["t".into()],
                    title: None,
                    cols: 80,
                    rows: 24,
                    history_limit: 10_000,
                    pid: 100 + i as u32,
                    output_mark: 7,
                    snapshot_len: len,
                    metadata: Default::default(),
                    ask: None,
                    lease: None,
                })
                .collect(),
            frozen_at_unix_ns: 1,
            descriptors: 2 + snapshot_lens.len(),
        }
    }

    #[test]
    fn a_manifest_reads_back_as_written_and_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.handoff");
        let snapshots = vec![b"first\n\0binary".to_vec(), Vec::new(), vec![7u8; 3000]];
        let lens: Vec<usize> = snapshots.iter().map(Vec::len).collect();
        write(&path, &manifest(&lens), &snapshots).unwrap();
        let (read, got) = take(&path).unwrap();
        assert_eq!(got, snapshots);
        assert_eq!(read.panes[2].pid, 102);
        let layout: SplitTree = read
            .sessions
            .into_iter()
            .next()
            .unwrap()
            .windows
            .remove(0)
            .layout
            .into();
        assert_eq!(layout.panes(), vec![PaneId(1), PaneId(2)]);
        assert!(!path.exists(), "taken means removed");
    }

    #[test]
    fn a_manifest_cut_short_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.handoff");
        write(&path, &manifest(&[10]), &[b"short".to_vec()]).unwrap();
        assert!(take(&path).is_err());
    }
}
