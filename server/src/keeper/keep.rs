//! A pane's keep: what a server leaves with the pane's keeper so that the next server can
//! rebuild the screen after a crash. Three memfds the keeper holds: a ring of the pane's recent
//! output, and two slots for a snapshot of its terminal (written in turn, so one is always
//! whole). The screen is the current slot's snapshot with the ring's output since it fed on top.
//!
//! The ring's file: a header page, then `RING_BYTES` of frames `[u32 length][payload]`, written
//! at `head % RING_BYTES`: a read of output, or (the length's top bit set) a resize, whose
//! payload is the new columns and rows: replaying the output at the size it was written at
//! draws what the pane drew. Each field of the header is written by one `pwrite`, which a SIGKILL
//! cannot cut in half (the copy finishes before the signal is taken), so a reader after a crash
//! finds either the old value or the new one. Writing with `pwrite` keeps the server free of
//! `unsafe` (no shared mapping); each PTY read costs two more system calls.

use std::fs::File;
use std::os::fd::OwnedFd;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use phux_core::engine::Terminal;

/// The ring's size: a flood snapshots its terminal about once per half of it.
pub const RING_BYTES: u64 = 2 << 20;
const HEADER_BYTES: u64 = 4096;
const MAGIC: &[u8; 8] = b"PHUXKEEP";
const VERSION: u32 = 1;
/// Offsets of the header's fields.
const AT_HEAD: u64 = 16;
const AT_SNAPSHOT: u64 = 32;
/// The snapshot record: slot, length, ring position it stands at, output mark, cols, rows,
/// history limit.
const SNAPSHOT_RECORD: usize = 48;
const NO_SLOT: u64 = u64::MAX;
/// The length's bit that marks a resize frame.
const RESIZE_BIT: u32 = 1 << 31;
/// The largest snapshot a keep takes back (a terminal at the history limit's byte cap).
const MAX_SNAPSHOT: u64 = 512 << 20;

/// The keep's three memfds.
pub struct KeepFiles {
    pub ring: File,
    pub slots: [File; 2],
}

impl KeepFiles {
    /// New, empty files (made by the keeper, which holds them for the pane's life).
    pub fn create(pane: u32) -> std::io::Result<KeepFiles> {
        let memfd = |what: &str| -> std::io::Result<File> {
            let fd = rustix::fs::memfd_create(
                format!("phux-pane-{pane}-{what}"),
                rustix::fs::MemfdFlags::CLOEXEC,
            )?;
            Ok(File::from(fd))
        };
        let ring = memfd("ring")?;
        ring.set_len(HEADER_BYTES + RING_BYTES)?;
        let mut header = [0u8; AT_SNAPSHOT as usize + SNAPSHOT_RECORD];
        header[..8].copy_from_slice(MAGIC);
        header[8..12].copy_from_slice(&VERSION.to_le_bytes());
        header[AT_SNAPSHOT as usize..AT_SNAPSHOT as usize + 8]
            .copy_from_slice(&NO_SLOT.to_le_bytes());
        ring.write_all_at(&header, 0)?;
        Ok(KeepFiles {
            ring,
            slots: [memfd("snapshot-a")?, memfd("snapshot-b")?],
        })
    }

    /// The files as received from a keeper, in the order it sends them.
    pub fn from_fds(fds: Vec<OwnedFd>) -> std::io::Result<KeepFiles> {
        let mut fds = fds.into_iter().map(File::from);
        match (fds.next(), fds.next(), fds.next()) {
            (Some(ring), Some(a), Some(b)) => Ok(KeepFiles {
                ring,
                slots: [a, b],
            }),
            _ => Err(std::io::Error::other("the keeper sent too few descriptors")),
        }
    }

    pub fn try_clone(&self) -> std::io::Result<KeepFiles> {
        Ok(KeepFiles {
            ring: self.ring.try_clone()?,
            slots: [self.slots[0].try_clone()?, self.slots[1].try_clone()?],
        })
    }
}

/// Where the keep stands, shared by the pane's reader (which appends) and its core (which
/// snapshots).
#[derive(Debug, Default)]
pub struct KeepMarks {
    /// Bytes of frames ever appended to the ring.
    pub head: AtomicU64,
    /// The ring position the current snapshot stands at.
    pub snapshot_at: AtomicU64,
}

/// Appends the pane's output to the ring (the PTY reader's side).
pub struct RingWriter {
    ring: File,
    marks: Arc<KeepMarks>,
}

impl RingWriter {
    pub fn new(ring: File, marks: Arc<KeepMarks>) -> RingWriter {
        RingWriter { ring, marks }
    }

    /// Whether `len` more bytes of output fit without overwriting what the current snapshot
    /// still needs.
    pub fn fits(&self, len: usize) -> bool {
        let head = self.marks.head.load(Ordering::Acquire);
        let at = self.marks.snapshot_at.load(Ordering::Acquire);
        head + 4 + len as u64 - at <= RING_BYTES
    }

    /// Appends one read of output; returns the ring position after it. A keep that cannot be
    /// written is logged once by the caller and the pane goes on (it only loses its recovery).
    pub fn append(&mut self, bytes: &[u8]) -> std::io::Result<u64> {
        let len = u32::try_from(bytes.len())
            .ok()
            .filter(|len| len & RESIZE_BIT == 0)
            .ok_or_else(|| std::io::Error::other("a read too large for the keep"))?;
        self.push(len, bytes)
    }

    /// Appends a resize to `cols` x `rows`: the output after it was drawn at that size.
    pub fn resized(&mut self, cols: u16, rows: u16) -> std::io::Result<u64> {
        let mut size = [0u8; 4];
        size[..2].copy_from_slice(&cols.to_le_bytes());
        size[2..].copy_from_slice(&rows.to_le_bytes());
        self.push(RESIZE_BIT | 4, &size)
    }

    /// The ring position after the last frame.
    pub fn head(&self) -> u64 {
        self.marks.head.load(Ordering::Acquire)
    }

    /// Writes the frame's length, then its bytes (no copy into a buffer: a pane keeps no
    /// read-sized buffer for its keep), then moves the head past them.
    fn push(&mut self, len: u32, bytes: &[u8]) -> std::io::Result<u64> {
        let head = self.marks.head.load(Ordering::Acquire);
        write_wrapped(&self.ring, head, &len.to_le_bytes())?;
        write_wrapped(&self.ring, head + 4, bytes)?;
        let next = head + 4 + bytes.len() as u64;
        self.ring.write_all_at(&next.to_le_bytes(), AT_HEAD)?;
        self.marks.head.store(next, Ordering::Release);
        Ok(next)
    }
}

/// Writes `bytes` at ring position `at`, wrapping at the ring's end.
fn write_wrapped(ring: &File, at: u64, bytes: &[u8]) -> std::io::Result<()> {
    let offset = at % RING_BYTES;
    let first = (bytes.len() as u64).min(RING_BYTES - offset) as usize;
    ring.write_all_at(&bytes[..first], HEADER_BYTES + offset)?;
    if first < bytes.len() {
        ring.write_all_at(&bytes[first..], HEADER_BYTES)?;
    }
    Ok(())
}

/// Reads `len` bytes at ring position `at`, wrapping.
fn read_wrapped(ring: &File, at: u64, len: usize) -> std::io::Result<Vec<u8>> {
    let mut bytes = vec![0u8; len];
    let offset = at % RING_BYTES;
    let first = (len as u64).min(RING_BYTES - offset) as usize;
    ring.read_exact_at(&mut bytes[..first], HEADER_BYTES + offset)?;
    if first < len {
        ring.read_exact_at(&mut bytes[first..], HEADER_BYTES)?;
    }
    Ok(bytes)
}

/// One snapshot of the pane's terminal as the keep records it.
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotRecord {
    /// The ring position whose output it includes.
    pub at: u64,
    /// The pane's output mark then (bytes of output since the pane began).
    pub output_mark: u64,
    pub cols: u16,
    pub rows: u16,
    pub history_limit: usize,
}

/// Writes the terminal's snapshots into the slots in turn (the pane core's side).
pub struct SnapshotWriter {
    ring: File,
    slots: [File; 2],
    marks: Arc<KeepMarks>,
    /// The slot the last snapshot went to.
    current: Option<usize>,
}

impl SnapshotWriter {
    pub fn new(ring: File, slots: [File; 2], marks: Arc<KeepMarks>) -> SnapshotWriter {
        SnapshotWriter {
            ring,
            slots,
            marks,
            current: None,
        }
    }

    /// Writes `snapshot` to the slot not in use, then makes it the current one.
    pub fn write(&mut self, snapshot: &[u8], record: &SnapshotRecord) -> std::io::Result<()> {
        let slot = self.current.map_or(0, |c| 1 - c);
        let file = &self.slots[slot];
        file.set_len(snapshot.len() as u64)?;
        file.write_all_at(snapshot, 0)?;
        let mut bytes = [0u8; SNAPSHOT_RECORD];
        let fields = [
            slot as u64,
            snapshot.len() as u64,
            record.at,
            record.output_mark,
            u64::from(record.cols) | (u64::from(record.rows) << 16),
            record.history_limit as u64,
        ];
        for (chunk, field) in bytes.chunks_exact_mut(8).zip(fields) {
            chunk.copy_from_slice(&field.to_le_bytes());
        }
        self.ring.write_all_at(&bytes, AT_SNAPSHOT)?;
        self.current = Some(slot);
        self.marks.snapshot_at.store(record.at, Ordering::Release);
        Ok(())
    }
}

/// One frame of the ring.
#[derive(Debug, Clone, PartialEq)]
pub enum KeptFrame {
    Output(Vec<u8>),
    Resize { cols: u16, rows: u16 },
}

/// A keep as its pane writes it: the ring's writer and the snapshots' writer, sharing marks.
pub struct KeepWriters {
    pub ring: RingWriter,
    pub snapshots: SnapshotWriter,
}

impl KeepWriters {
    /// Writers of a keep, going on after what it holds (a new keep holds nothing: its head is
    /// 0 and it has no snapshot).
    pub fn resume(files: KeepFiles) -> Result<KeepWriters, KeepError> {
        let (marks, current) = marks_of(&files)?;
        let marks = Arc::new(marks);
        let KeepFiles { ring, slots } = files;
        let snapshots = SnapshotWriter {
            ring: ring.try_clone()?,
            slots,
            marks: Arc::clone(&marks),
            current,
        };
        Ok(KeepWriters {
            ring: RingWriter::new(ring, marks),
            snapshots,
        })
    }
}

impl KeepWriters {
    /// Keeps one read of output, on the pane core before the terminal takes it: when the
    /// ring has no room left for it beside what the current snapshot needs, the terminal (as
    /// it stands before this read) is snapshotted first.
    pub fn before_output(
        &mut self,
        terminal: &Terminal,
        bytes: &[u8],
        output_mark: u64,
    ) -> Result<(), KeepError> {
        if !self.ring.fits(bytes.len()) {
            self.snapshot(terminal, output_mark)?;
        }
        self.ring.append(bytes)?;
        Ok(())
    }

    /// Snapshots `terminal` as it stands at the ring's head.
    pub fn snapshot(&mut self, terminal: &Terminal, output_mark: u64) -> Result<(), KeepError> {
        let bytes = terminal
            .snapshot()
            .map_err(|e| KeepError::Io(std::io::Error::other(e.to_string())))?;
        let (cols, rows) = terminal.size();
        let record = SnapshotRecord {
            at: self.ring.head(),
            output_mark,
            cols,
            rows,
            history_limit: terminal.options().scrollback_rows,
        };
        self.snapshots.write(&bytes, &record)?;
        Ok(())
    }
}

/// What a keep held when a server took it over.
#[derive(Debug)]
pub struct Kept {
    /// The last snapshot and what it stands at; `None` before the first.
    pub snapshot: Option<(Vec<u8>, SnapshotRecord)>,
    /// What the ring holds after the snapshot, in order.
    pub output: Vec<KeptFrame>,
    /// Output that was needed but overwritten (a keep written past its bound): the screen
    /// rebuilt misses it.
    pub lost: bool,
}

/// Why a keep could not be read.
#[derive(Debug, thiserror::Error)]
pub enum KeepError {
    #[error("the keep is not one this version writes")]
    Foreign,
    #[error("the keep's snapshot record is damaged")]
    Damaged,
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Reads a keep: the current snapshot and the output after it.
pub fn read(files: &KeepFiles) -> Result<Kept, KeepError> {
    let mut header = [0u8; AT_SNAPSHOT as usize + SNAPSHOT_RECORD];
    files.ring.read_exact_at(&mut header, 0)?;
    let field = |at: usize| {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&header[at..at + 8]);
        u64::from_le_bytes(bytes)
    };
    if &header[..8] != MAGIC || header[8..12] != VERSION.to_le_bytes() {
        return Err(KeepError::Foreign);
    }
    let head = field(AT_HEAD as usize);
    let base = AT_SNAPSHOT as usize;
    let slot = field(base);
    let snapshot = if slot == NO_SLOT {
        None
    } else {
        let (len, at, mark) = (field(base + 8), field(base + 16), field(base + 24));
        let size = field(base + 32);
        let history_limit = usize::try_from(field(base + 40)).map_err(|_| KeepError::Damaged)?;
        let file = files.slots.get(slot as usize).ok_or(KeepError::Damaged)?;
        if len > MAX_SNAPSHOT || at > head || file.metadata()?.len() < len {
            return Err(KeepError::Damaged);
        }
        let mut bytes = vec![0u8; len as usize];
        file.read_exact_at(&mut bytes, 0)?;
        let record = SnapshotRecord {
            at,
            output_mark: mark,
            cols: (size & 0xffff) as u16,
            rows: ((size >> 16) & 0xffff) as u16,
            history_limit,
        };
        Some((bytes, record))
    };
    let from = snapshot.as_ref().map_or(0, |(_, r)| r.at);
    // Overwritten output cannot be found frame by frame again: the screen is the snapshot's.
    let lost = head.saturating_sub(from) > RING_BYTES;
    let output = if lost {
        Vec::new()
    } else {
        frames(&files.ring, from, head)
    };
    Ok(Kept {
        snapshot,
        output,
        lost,
    })
}

/// The frames between ring positions `from` and `to` (those that can be read whole).
fn frames(ring: &File, mut from: u64, to: u64) -> Vec<KeptFrame> {
    let mut output = Vec::new();
    while from + 4 <= to {
        let Ok(len) = read_wrapped(ring, from, 4) else {
            break;
        };
        let word = u32::from_le_bytes([len[0], len[1], len[2], len[3]]);
        let len = u64::from(word & !RESIZE_BIT);
        if from + 4 + len > to {
            break;
        }
        let Ok(bytes) = read_wrapped(ring, from + 4, len as usize) else {
            break;
        };
        output.push(match (word & RESIZE_BIT != 0, bytes.as_slice()) {
            (true, [c0, c1, r0, r1]) => KeptFrame::Resize {
                cols: u16::from_le_bytes([*c0, *c1]),
                rows: u16::from_le_bytes([*r0, *r1]),
            },
            (true, _) => break,
            (false, _) => KeptFrame::Output(bytes),
        });
        from += 4 + len;
    }
    output
}

/// Reads where a keep stands (its head, its current snapshot's position and slot), so a
/// server that takes it over appends after what is there and snapshots into the other slot.
fn marks_of(files: &KeepFiles) -> Result<(KeepMarks, Option<usize>), KeepError> {
    let mut header = [0u8; AT_SNAPSHOT as usize + 24];
    files.ring.read_exact_at(&mut header, 0)?;
    if &header[..8] != MAGIC || header[8..12] != VERSION.to_le_bytes() {
        return Err(KeepError::Foreign);
    }
    let field = |at: usize| {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&header[at..at + 8]);
        u64::from_le_bytes(bytes)
    };
    let head = field(AT_HEAD as usize);
    let slot = field(AT_SNAPSHOT as usize);
    let (at, current) = match slot {
        NO_SLOT => (0, None),
        0 | 1 => (field(AT_SNAPSHOT as usize + 16), Some(slot as usize)),
        _ => return Err(KeepError::Damaged),
    };
    let marks = KeepMarks {
        head: AtomicU64::new(head),
        snapshot_at: AtomicU64::new(at),
    };
    Ok((marks, current))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn writers(files: &KeepFiles) -> (RingWriter, SnapshotWriter) {
        let marks = Arc::new(KeepMarks::default());
        let copy = files.try_clone().expect("clone");
        let [a, b] = copy.slots;
        (
            RingWriter::new(files.ring.try_clone().expect("clone"), Arc::clone(&marks)),
            SnapshotWriter::new(copy.ring, [a, b], marks),
        )
    }

    fn record(at: u64) -> SnapshotRecord {
        SnapshotRecord {
            at,
            output_mark: at * 2,
            cols: 80,
            rows: 24,
            history_limit: 100,
        }
    }

    /// Output after the last snapshot is read back in order; output before it is not.
    #[test]
    fn the_snapshot_and_the_output_after_it_come_back() {
        let files = KeepFiles::create(1).expect("keep");
        let (mut ring, mut snapshots) = writers(&files);
        ring.append(b"before").expect("append");
        let at = ring.append(b"in the snapshot").expect("append");
        snapshots.write(b"SNAP-1", &record(at)).expect("snapshot");
        ring.append(b"after one").expect("append");
        ring.append(b"after two").expect("append");
        let kept = read(&files).expect("read");
        let (bytes, got) = kept.snapshot.expect("a snapshot");
        assert_eq!(bytes, b"SNAP-1");
        assert_eq!(got, record(at));
        assert_eq!(
            kept.output,
            vec![
                KeptFrame::Output(b"after one".to_vec()),
                KeptFrame::Output(b"after two".to_vec())
            ]
        );
        assert!(!kept.lost);
        // A second snapshot goes to the other slot; the first stays whole until then.
        let at = ring.append(b"three").expect("append");
        snapshots.write(b"SNAP-TWO", &record(at)).expect("snapshot");
        let kept = read(&files).expect("read");
        assert_eq!(kept.snapshot.expect("a snapshot").0, b"SNAP-TWO");
        assert!(kept.output.is_empty());
    }

    /// Frames that wrap past the ring's end come back whole.
    #[test]
    fn frames_wrap_around_the_ring() {
        let files = KeepFiles::create(2).expect("keep");
        let (mut ring, mut snapshots) = writers(&files);
        let chunk = vec![b'x'; 300 * 1024];
        let mut expected = Vec::new();
        for round in 0..20u8 {
            let mut bytes = chunk.clone();
            bytes[0] = round;
            if !ring.fits(bytes.len()) {
                let at = ring.marks.head.load(Ordering::Acquire);
                snapshots.write(&[round], &record(at)).expect("snapshot");
                expected.clear();
            }
            ring.append(&bytes).expect("append");
            expected.push(KeptFrame::Output(bytes));
        }
        let kept = read(&files).expect("read");
        assert!(ring.head() > RING_BYTES * 2, "the test wraps the ring");
        assert_eq!(kept.output, expected);
    }

    /// A keep with no snapshot yet gives all its output from the start.
    #[test]
    fn a_keep_without_a_snapshot_gives_everything() {
        let files = KeepFiles::create(3).expect("keep");
        let (mut ring, _) = writers(&files);
        ring.append(b"hello").expect("append");
        let kept = read(&files).expect("read");
        assert!(kept.snapshot.is_none());
        assert_eq!(kept.output, vec![KeptFrame::Output(b"hello".to_vec())]);
    }

    /// A resize comes back in its place among the output.
    #[test]
    fn a_resize_keeps_its_place() {
        let files = KeepFiles::create(4).expect("keep");
        let (mut ring, _) = writers(&files);
        ring.append(b"at 80").expect("append");
        ring.resized(120, 40).expect("resize");
        ring.append(b"at 120").expect("append");
        let kept = read(&files).expect("read");
        assert_eq!(
            kept.output,
            vec![
                KeptFrame::Output(b"at 80".to_vec()),
                KeptFrame::Resize {
                    cols: 120,
                    rows: 40
                },
                KeptFrame::Output(b"at 120".to_vec()),
            ]
        );
        let writers = KeepWriters::resume(files.try_clone().expect("clone")).expect("resume");
        assert_eq!(writers.ring.head(), ring.head());
    }

    /// A server taking a keep over writes its snapshot to the slot not in use and appends
    /// after what is there.
    #[test]
    fn a_resumed_keep_goes_on_where_it_stood() {
        let files = KeepFiles::create(5).expect("keep");
        let (mut ring, mut snapshots) = writers(&files);
        let at = ring.append(b"one").expect("append");
        snapshots.write(b"FIRST", &record(at)).expect("snapshot");
        ring.append(b"two").expect("append");
        let mut resumed = KeepWriters::resume(files.try_clone().expect("clone")).expect("resume");
        let at = resumed.ring.append(b"three").expect("append");
        resumed
            .snapshots
            .write(b"SECOND", &record(at))
            .expect("snapshot");
        resumed.ring.append(b"four").expect("append");
        let kept = read(&files).expect("read");
        assert_eq!(kept.snapshot.expect("a snapshot").0, b"SECOND");
        assert_eq!(kept.output, vec![KeptFrame::Output(b"four".to_vec())]);
    }
}
