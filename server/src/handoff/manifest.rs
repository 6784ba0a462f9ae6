//! The file one server process leaves the next on `phux upgrade`: one JSON line (sessions,
//! windows, layouts, panes, counters, and which handed-over descriptor is which) followed by
//! binary blobs back to back, whose lengths the JSON line gives: each pane's terminal snapshot,
//! then each pane's flight window, then each exited pane's terminal snapshot. Written 0600
//! beside the socket and removed by the process that reads it.
//!
//! The format grows without a new version: what a later process adds has a default (a
//! manifest of an earlier one leaves it out) and comes after what an earlier one reads (which
//! ignores it), so a hand-off works both ways between neighbouring versions.

use std::io::{BufRead, Read, Write};
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
    /// The server's clock at the freeze; absent from a manifest that carries no flight windows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<super::flight_window::Clock>,
    /// Panes whose program had ended, still kept readable.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exited: Vec<ExitedState>,
    /// The acknowledged writes' ledger, sealed at the freeze: the next server neither types
    /// again what this one typed nor refuses a retry of what it never took.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub operations: Vec<crate::delivery::CarriedOperation>,
    /// The remote listener's bound address, in the state file: a server recovering after a
    /// crash listens there again (an upgrade passes it as `--ws-addr` instead).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listener: Option<String>,
}

/// An ended pane as kept: what `ls` says of it and its last terminal.
#[derive(Debug, Serialize, Deserialize)]
pub struct ExitedState {
    pub view: phux_core::state_view::ExitedPaneView,
    pub cols: u16,
    pub rows: u16,
    pub history_limit: usize,
    pub output_mark: u64,
    /// How long ago it ended (ms): it is kept for the rest of its time, not longer.
    pub age_ms: u64,
    pub snapshot_len: usize,
}

/// The binary parts of a manifest, each list in the order of what it belongs to.
#[derive(Debug, Default, PartialEq)]
pub struct Blobs {
    /// Each pane's terminal snapshot.
    pub snapshots: Vec<Vec<u8>>,
    /// Each pane's flight window (see `flight_window`).
    pub windows: Vec<Vec<u8>>,
    /// Each exited pane's terminal snapshot.
    pub exited: Vec<Vec<u8>>,
}

impl Blobs {
    /// Their bytes together.
    pub fn total_bytes(&self) -> usize {
        (self
            .snapshots
            .iter()
            .chain(&self.windows)
            .chain(&self.exited))
        .map(Vec::len)
        .sum()
    }
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
    /// The sequence number of its last output, which the next process counts on from.
    #[serde(default)]
    pub seq: u64,
    /// Length of its flight window in the bytes after the snapshots (0: none carried).
    #[serde(default)]
    pub flight_len: usize,
    /// Its program is held by a keeper (see `crate::keeper`), not by this process.
    #[serde(default)]
    pub keeper: bool,
}

impl PaneState {
    /// What the server knows of pane `id` besides its terminal: its place, names, size, program
    /// and agent record. The terminal's parts (snapshot, history, output position, flight
    /// window) are empty: a hand-off fills them in; the state file leaves them to the keeps.
    pub fn placed(
        id: PaneId,
        entry: &crate::session_tree::PaneEntry,
        shared: &crate::shared::Shared,
    ) -> PaneState {
        let agent = shared.agents.get(id);
        PaneState {
            id,
            session: entry.session,
            window: entry.window,
            tags: entry.tags.clone(),
            title: entry.title.clone(),
            cols: entry.cols,
            rows: entry.rows,
            history_limit: 0,
            pid: entry.handle.pid,
            output_mark: 0,
            snapshot_len: 0,
            metadata: agent.metadata,
            ask: agent.ask,
            lease: shared.leases.carried(id),
            seq: 0,
            flight_len: 0,
            keeper: entry.handle.kept(),
        }
    }
}

/// Where the manifest of the server on `socket` goes.
pub fn path_for(socket: &Path) -> PathBuf {
    socket.with_extension("sock.handoff")
}

impl Manifest {
    /// The length of every blob after the JSON line, in the order they are written.
    fn blob_lens(&self) -> impl Iterator<Item = usize> + '_ {
        let panes = self.panes.iter();
        (panes.clone().map(|p| p.snapshot_len))
            .chain(panes.map(|p| p.flight_len))
            .chain(self.exited.iter().map(|e| e.snapshot_len))
    }
}

/// Writes `manifest` and its blobs to a fresh private file, for the process the exec starts.
pub fn write(path: &Path, manifest: &Manifest, blobs: &Blobs) -> std::io::Result<()> {
    let all = (blobs.snapshots.iter())
        .chain(&blobs.windows)
        .chain(&blobs.exited);
    if !all.clone().map(Vec::len).eq(manifest.blob_lens()) {
        return Err(std::io::Error::other(
            "the manifest's lengths do not match its blobs",
        ));
    }
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
    for blob in all {
        out.write_all(blob)?;
    }
    // Not synced: the next process reads it at once, from the page cache, and a machine that
    // goes down meanwhile takes the panes' programs with it (nothing is left to adopt). A sync
    // would make every pane wait for the disk.
    out.flush()
}

/// Reads and removes the manifest: the JSON part and its blobs. Each blob is read straight
/// into its own buffer (no copy of the whole file: the panes wait while this runs), once the
/// lengths the JSON part gives are found to add up to no more than the file holds.
pub fn take(path: &Path) -> std::io::Result<(Manifest, Blobs)> {
    let file = phux_core::bounded_read::open_file(path, MAX_MANIFEST_BYTES, "a hand-off manifest")
        .map_err(|e| std::io::Error::other(e.to_string()));
    let _ = std::fs::remove_file(path);
    let file = file?;
    let size = file.metadata()?.len();
    let invalid =
        |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_owned());
    let mut reader = std::io::BufReader::new(file.take(MAX_MANIFEST_BYTES));
    let mut header = Vec::new();
    reader.read_until(b'\n', &mut header)?;
    if header.pop() != Some(b'\n') {
        return Err(invalid("the hand-off manifest has no header"));
    }
    let manifest: Manifest = serde_json::from_slice(&header).map_err(std::io::Error::other)?;
    if manifest.version != MANIFEST_VERSION {
        return Err(invalid(&format!(
            "the hand-off manifest is of version {}, and this phux reads version \
             {MANIFEST_VERSION} only",
            manifest.version
        )));
    }
    let cut_short = || invalid("the hand-off manifest is cut short");
    let claimed = (manifest.blob_lens().map(|len| len as u64))
        .try_fold(header.len() as u64 + 1, u64::checked_add);
    if claimed.is_none_or(|claimed| claimed > size) {
        return Err(cut_short());
    }
    let mut all = Vec::new();
    for len in manifest.blob_lens() {
        let mut blob = vec![0; len];
        reader.read_exact(&mut blob).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => cut_short(),
            _ => e,
        })?;
        all.push(blob);
    }
    let mut all = all.into_iter();
    let panes = manifest.panes.len();
    let blobs = Blobs {
        snapshots: all.by_ref().take(panes).collect(),
        windows: all.by_ref().take(panes).collect(),
        exited: all.collect(),
    };
    Ok((manifest, blobs))
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

    fn manifest(blobs: &Blobs) -> Manifest {
        Manifest {
            listener: None,
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
            panes: (blobs.snapshots.iter().zip(&blobs.windows))
                .enumerate()
                .map(|(i, (snapshot, window))| PaneState {
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
                    snapshot_len: snapshot.len(),
                    metadata: Default::default(),
                    ask: None,
                    lease: None,
                    seq: 40 + i as u64,
                    flight_len: window.len(),
                    keeper: false,
                })
                .collect(),
            frozen_at_unix_ns: 1,
            descriptors: 2 + blobs.snapshots.len(),
            clock: Some(super::super::flight_window::Clock { epoch_age_ns: 5 }),
            exited: (blobs.exited.iter())
                .map(|snapshot| ExitedState {
                    view: phux_core::state_view::ExitedPaneView {
                        id: PaneId(9),
                        session: "work".into(),
                        tags: Vec::new(),
                        exit_code: Some(3),
                        signal: None,
                        ended_at: 1,
                    },
                    cols: 80,
                    rows: 24,
                    history_limit: 100,
                    output_mark: 2,
                    age_ms: 1_500,
                    snapshot_len: snapshot.len(),
                })
                .collect(),
            operations: vec![crate::delivery::CarriedOperation {
                id: "op-1".into(),
                written: true,
            }],
        }
    }

    fn blobs() -> Blobs {
        Blobs {
            snapshots: vec![b"first\n\0binary".to_vec(), Vec::new(), vec![7u8; 3000]],
            windows: vec![b"window one".to_vec(), vec![1u8; 700], Vec::new()],
            exited: vec![b"ended".to_vec()],
        }
    }

    #[test]
    fn a_manifest_reads_back_as_written_and_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.handoff");
        let blobs = blobs();
        write(&path, &manifest(&blobs), &blobs).unwrap();
        let (read, got) = take(&path).unwrap();
        assert_eq!(got, blobs);
        assert_eq!(read.panes[2].pid, 102);
        assert_eq!(read.panes[1].seq, 41);
        assert_eq!(read.exited[0].view.exit_code, Some(3));
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
        let mut blobs = blobs();
        let whole = manifest(&blobs);
        blobs.exited[0].pop();
        std::fs::write(&path, b"").unwrap();
        assert!(write(&path, &whole, &blobs).is_err(), "lengths checked");
        let mut header = serde_json::to_vec(&whole).unwrap();
        header.push(b'\n');
        header.extend_from_slice(b"first");
        std::fs::write(&path, header).unwrap();
        let err = take(&path).unwrap_err();
        assert!(err.to_string().contains("cut short"), "{err}");
    }

    /// A manifest written before flight windows and exited panes were carried (no `clock`,
    /// `exited`, `seq` or `flight_len`) is still adopted: its panes carry no window.
    #[test]
    fn a_manifest_of_the_previous_format_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.handoff");
        let header = r#"{"version":1,"counters":{"next_pane":2,"next_session":2,"next_window":2,"focus_order":[]},"sessions":[{"id":1,"name":"work","windows":[{"id":1,"index":0,"name":"0","layout":{"Pane":1}}]}],"panes":[{"id":1,"session":1,"window":1,"tags":[],"title":null,"cols":80,"rows":24,"history_limit":10000,"pid":100,"output_mark":7,"snapshot_len":4}],"frozen_at_unix_ns":1,"descriptors":3}"#;
        std::fs::write(&path, format!("{header}\nsnap")).unwrap();
        let (read, blobs) = take(&path).unwrap();
        assert_eq!(blobs.snapshots, vec![b"snap".to_vec()]);
        assert_eq!(blobs.windows, vec![Vec::<u8>::new()]);
        assert!(blobs.exited.is_empty() && read.exited.is_empty());
        assert!(read.clock.is_none());
        assert_eq!((read.panes[0].seq, read.panes[0].flight_len), (0, 0));
    }

    #[test]
    fn a_manifest_of_another_version_is_refused_saying_so() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.handoff");
        let blobs = Blobs::default();
        let mut other = manifest(&blobs);
        other.version = 2;
        write(&path, &other, &blobs).unwrap();
        let err = take(&path).unwrap_err();
        assert!(err.to_string().contains("version 2"), "{err}");
    }
}
