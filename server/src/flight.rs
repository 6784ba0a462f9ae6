//! The flight recorder: per pane, a bounded ring of the most recent output with the time the
//! server read each chunk, resizes, and a keyframe (the engine's VT repaint of the screen)
//! every few seconds, so `phux rec --since 60s` can start in the past: keyframe, then the
//! output after it, then live.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::packed::PackedBytes;

/// Default memory per pane.
pub const DEFAULT_FLIGHT_BYTES: usize = 4 * 1024 * 1024;
/// At most this long between keyframes while output flows.
pub const KEYFRAME_INTERVAL_NS: u64 = 5_000_000_000;

#[derive(Debug, Clone)]
pub enum FlightEntry {
    Keyframe {
        seq: u64,
        t_ns: u64,
        cols: u16,
        rows: u16,
        repaint: Arc<[u8]>,
    },
    Output {
        seq: u64,
        t_ns: u64,
        bytes: Arc<[u8]>,
    },
    Resize {
        t_ns: u64,
        cols: u16,
        rows: u16,
    },
}

impl FlightEntry {
    fn cost(&self) -> usize {
        const OVERHEAD: usize = 48;
        OVERHEAD
            + match self {
                FlightEntry::Keyframe { repaint, .. } => repaint.len(),
                FlightEntry::Output { bytes, .. } => bytes.len(),
                FlightEntry::Resize { .. } => 0,
            }
    }

    pub fn t_ns(&self) -> u64 {
        match self {
            FlightEntry::Keyframe { t_ns, .. }
            | FlightEntry::Output { t_ns, .. }
            | FlightEntry::Resize { t_ns, .. } => *t_ns,
        }
    }
}

/// A pane's flight window as `phux upgrade` carries it to the next process: the entries and
/// the pane's sequence number after them, which the next process counts on from.
#[derive(Debug, Default)]
pub struct CarriedWindow {
    pub seq: u64,
    pub entries: Vec<FlightEntry>,
}

/// An entry as the ring holds it: as recorded, or a run of outputs packed once the pane went
/// quiet (each read's sequence number, time and length kept, so replay is unchanged).
#[derive(Debug)]
enum Stored {
    Entry(FlightEntry),
    Outputs {
        reads: Box<[(u64, u64, usize)]>,
        bytes: PackedBytes,
    },
}

impl Stored {
    fn cost(&self) -> usize {
        match self {
            Stored::Entry(entry) => entry.cost(),
            Stored::Outputs { reads, bytes } => {
                48 + bytes.held() + reads.len() * std::mem::size_of::<(u64, u64, usize)>()
            }
        }
    }

    fn is_keyframe(&self) -> bool {
        matches!(self, Stored::Entry(FlightEntry::Keyframe { .. }))
    }

    fn keyframe_at_or_before(&self, from_ns: u64) -> bool {
        matches!(self, Stored::Entry(FlightEntry::Keyframe { t_ns, .. }) if *t_ns <= from_ns)
    }

    /// The entries as recorded.
    fn unpack_into(&self, out: &mut Vec<FlightEntry>) {
        match self {
            Stored::Entry(entry) => out.push(entry.clone()),
            Stored::Outputs { reads, bytes } => {
                let all = bytes.unpack();
                let mut at = 0;
                for &(seq, t_ns, len) in reads.iter() {
                    let end = (at + len).min(all.len());
                    out.push(FlightEntry::Output {
                        seq,
                        t_ns,
                        bytes: Arc::from(&all[at..end]),
                    });
                    at = end;
                }
            }
        }
    }
}

#[derive(Debug)]
pub struct FlightRecorder {
    cap_bytes: usize,
    entries: VecDeque<Stored>,
    used: usize,
    keyframes: usize,
    last_keyframe_ns: Option<u64>,
    since_keyframe: usize,
}

impl FlightRecorder {
    pub fn new(cap_bytes: usize) -> Self {
        Self {
            cap_bytes,
            entries: VecDeque::new(),
            used: 0,
            keyframes: 0,
            last_keyframe_ns: None,
            since_keyframe: 0,
        }
    }

    /// Bytes currently held (data plus bookkeeping).
    pub fn used_bytes(&self) -> usize {
        self.used
    }

    pub fn is_enabled(&self) -> bool {
        self.cap_bytes > 0
    }

    /// True when the next keyframe is due (the caller then repaints and calls `keyframe`):
    /// every few seconds, and after each quarter of the cap, so the ring can always drop whole
    /// keyframe-led segments and stay under its cap.
    pub fn wants_keyframe(&self, t_ns: u64) -> bool {
        let timed = self
            .last_keyframe_ns
            .is_none_or(|last| t_ns.saturating_sub(last) >= KEYFRAME_INTERVAL_NS);
        self.is_enabled() && (timed || self.since_keyframe >= self.cap_bytes / 4)
    }

    pub fn keyframe(&mut self, seq: u64, t_ns: u64, cols: u16, rows: u16, repaint: Vec<u8>) {
        self.last_keyframe_ns = Some(t_ns);
        self.since_keyframe = 0;
        self.push(FlightEntry::Keyframe {
            seq,
            t_ns,
            cols,
            rows,
            repaint: Arc::from(repaint),
        });
    }

    pub fn output(&mut self, seq: u64, t_ns: u64, bytes: Arc<[u8]>) {
        self.push(FlightEntry::Output { seq, t_ns, bytes });
    }

    pub fn resize(&mut self, t_ns: u64, cols: u16, rows: u16) {
        self.push(FlightEntry::Resize { t_ns, cols, rows });
    }

    fn push(&mut self, entry: FlightEntry) {
        if !self.is_enabled() {
            return;
        }
        self.used += entry.cost();
        self.since_keyframe += entry.cost();
        self.keyframes += usize::from(matches!(entry, FlightEntry::Keyframe { .. }));
        self.entries.push_back(Stored::Entry(entry));
        self.evict();
    }

    /// The pane went quiet: each run of outputs is packed into one entry (terminal output
    /// deflates about tenfold), so a quiet pane's ring is sized by what it holds, packed. The
    /// reads it let go of are freed once the output log (which packs too) lets go of them.
    pub fn pack(&mut self) {
        let mut packed = VecDeque::with_capacity(self.entries.len());
        let mut reads = Vec::new();
        let mut run = Vec::new();
        let flush = |packed: &mut VecDeque<Stored>, reads: &mut Vec<_>, run: &mut Vec<u8>| {
            if !reads.is_empty() {
                packed.push_back(Stored::Outputs {
                    reads: std::mem::take(reads).into_boxed_slice(),
                    bytes: PackedBytes::pack(run),
                });
                run.clear();
            }
        };
        for stored in self.entries.drain(..) {
            match stored {
                Stored::Entry(FlightEntry::Output { seq, t_ns, bytes }) => {
                    reads.push((seq, t_ns, bytes.len()));
                    run.extend_from_slice(&bytes);
                }
                other => {
                    flush(&mut packed, &mut reads, &mut run);
                    packed.push_back(other);
                }
            }
        }
        flush(&mut packed, &mut reads, &mut run);
        packed.shrink_to_fit();
        self.used = packed.iter().map(Stored::cost).sum();
        self.entries = packed;
    }

    /// Drops the oldest entries past the cap, then whatever precedes the oldest keyframe left,
    /// so the ring always starts at a keyframe. The newest keyframe is never dropped.
    fn evict(&mut self) {
        while self.used > self.cap_bytes && self.keyframes > 1 {
            self.pop_front();
            while self.entries.front().is_some_and(|e| !e.is_keyframe()) {
                self.pop_front();
            }
        }
    }

    fn pop_front(&mut self) {
        if let Some(entry) = self.entries.pop_front() {
            self.used -= entry.cost();
            self.keyframes -= usize::from(entry.is_keyframe());
        }
    }

    /// The newest part of the window that fits in the cap once unpacked, from a keyframe on
    /// (the newest one at least), for `phux upgrade` to hand to the next process.
    pub fn window(&self) -> Vec<FlightEntry> {
        let mut size = 0;
        let mut start = None;
        for (i, stored) in self.entries.iter().enumerate().rev() {
            size += match stored {
                Stored::Entry(entry) => entry.cost(),
                Stored::Outputs { reads, .. } => reads.iter().map(|r| 48 + r.2).sum(),
            };
            if start.is_some() && size > self.cap_bytes {
                break;
            }
            if stored.is_keyframe() {
                start = Some(i);
            }
        }
        self.unpacked_from(start)
    }

    /// Takes in a window the previous server process recorded (see `window`), before
    /// anything new is recorded.
    pub fn restore(&mut self, window: Vec<FlightEntry>) {
        for entry in window {
            if let FlightEntry::Keyframe { t_ns, .. } = &entry {
                self.last_keyframe_ns = Some(*t_ns);
                self.since_keyframe = 0;
            }
            self.push(entry);
        }
    }

    /// Every entry from the stored one at `start` on, unpacked (none without a start).
    fn unpacked_from(&self, start: Option<usize>) -> Vec<FlightEntry> {
        let mut out = Vec::new();
        for stored in self
            .entries
            .iter()
            .skip(start.unwrap_or(self.entries.len()))
        {
            stored.unpack_into(&mut out);
        }
        out
    }

    /// The latest keyframe at or before `from_ns` (the oldest one when the ring does not reach
    /// back that far) and everything after it.
    pub fn since(&self, from_ns: u64) -> Vec<FlightEntry> {
        let start = self
            .entries
            .iter()
            .rposition(|e| e.keyframe_at_or_before(from_ns))
            .or_else(|| self.entries.iter().position(Stored::is_keyframe));
        self.unpacked_from(start)
    }
}

/// `entries` (a keyframe, then what followed it) started at `from_ns` instead: when the
/// keyframe is older, it becomes the screen at `from_ns` (the keyframe and what followed it up
/// to then, replayed through the engine) and only what came later stays. So `rec --since 5s`
/// starts 5 s back, not at whichever keyframe came before that.
pub fn start_at(entries: Vec<FlightEntry>, from_ns: u64) -> Vec<FlightEntry> {
    let Some(FlightEntry::Keyframe {
        seq,
        t_ns,
        cols,
        rows,
        repaint,
    }) = entries.first()
    else {
        return entries;
    };
    if *t_ns >= from_ns {
        return entries;
    }
    let Ok(mut screen) = phux_core::engine::Terminal::new(*cols, *rows, 0) else {
        return entries;
    };
    screen.write(repaint);
    let (mut seq, mut size) = (*seq, (*cols, *rows));
    let mut later = Vec::new();
    for entry in entries.into_iter().skip(1) {
        if entry.t_ns() > from_ns {
            later.push(entry);
            continue;
        }
        match entry {
            FlightEntry::Output { seq: s, bytes, .. } => {
                screen.write(&bytes);
                seq = s;
            }
            FlightEntry::Resize { cols, rows, .. } => {
                if screen.resize(cols, rows).is_ok() {
                    size = (cols, rows);
                }
            }
            FlightEntry::Keyframe { .. } => {}
        }
        let _ = screen.take_replies();
    }
    let start = FlightEntry::Keyframe {
        seq,
        t_ns: from_ns,
        cols: size.0,
        rows: size.1,
        repaint: Arc::from(screen.vt_repaint()),
    };
    std::iter::once(start).chain(later).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(n: usize) -> Arc<[u8]> {
        Arc::from(vec![b'x'; n])
    }

    #[test]
    fn memory_stays_under_the_cap_and_the_ring_starts_at_a_keyframe() {
        let mut ring = FlightRecorder::new(64 * 1024);
        for i in 0..10_000u64 {
            let t = i * 10_000_000;
            if ring.wants_keyframe(t) {
                ring.keyframe(i, t, 80, 24, vec![b'k'; 2000]);
            }
            ring.output(i, t, bytes(100));
        }
        assert!(ring.used_bytes() <= 64 * 1024, "{}", ring.used_bytes());
        let all = ring.since(0);
        assert!(matches!(all.first(), Some(FlightEntry::Keyframe { .. })));
    }

    #[test]
    fn since_starts_at_the_last_keyframe_before_the_time() {
        let mut ring = FlightRecorder::new(1 << 20);
        ring.keyframe(0, 0, 80, 24, b"k0".to_vec());
        ring.output(1, 1_000, bytes(1));
        ring.keyframe(1, 6_000_000_000, 80, 24, b"k1".to_vec());
        ring.output(2, 7_000_000_000, bytes(1));
        let from = ring.since(6_500_000_000);
        assert!(matches!(
            &from[0],
            FlightEntry::Keyframe {
                t_ns: 6_000_000_000,
                ..
            }
        ));
        assert_eq!(from.len(), 2);
        assert_eq!(ring.since(10).len(), 4);
    }

    #[test]
    fn starting_at_a_time_replays_the_keyframe_up_to_it() {
        let mut ring = FlightRecorder::new(1 << 20);
        ring.keyframe(0, 0, 20, 3, b"old".to_vec());
        ring.output(1, 1_000_000_000, Arc::from(&b" line\r\n"[..]));
        ring.output(2, 3_000_000_000, Arc::from(&b"new"[..]));
        let from = start_at(ring.since(2_000_000_000), 2_000_000_000);
        assert_eq!(from.len(), 2, "the screen at 2 s, then the output after it");
        let FlightEntry::Keyframe {
            seq, t_ns, repaint, ..
        } = &from[0]
        else {
            panic!("starts with a keyframe");
        };
        assert_eq!((*seq, *t_ns), (1, 2_000_000_000));
        let mut screen = phux_core::engine::Terminal::new(20, 3, 0).unwrap();
        screen.write(repaint);
        assert_eq!(screen.viewport_lines()[0].trim_end(), "old line");
        assert!(matches!(&from[1], FlightEntry::Output { seq: 2, .. }));
        // A keyframe at or after the time is kept as it is.
        assert_eq!(start_at(ring.since(0), 0).len(), 3);
    }

    #[test]
    fn a_packed_ring_replays_the_same_entries_in_less_memory() {
        let mut ring = FlightRecorder::new(1 << 20);
        ring.keyframe(0, 0, 80, 24, b"k0".to_vec());
        for i in 1..=200u64 {
            ring.output(
                i,
                i * 1_000,
                Arc::from(format!("line {i} of output\r\n").as_bytes()),
            );
        }
        ring.resize(300_000, 100, 30);
        ring.output(201, 400_000, Arc::from(&b"after"[..]));
        let before = ring.since(0);
        let used = ring.used_bytes();
        ring.pack();
        assert!(
            ring.used_bytes() < used / 2,
            "{} of {used}",
            ring.used_bytes()
        );
        let after = ring.since(0);
        assert_eq!(after.len(), before.len());
        for (a, b) in before.iter().zip(&after) {
            assert_eq!(a.t_ns(), b.t_ns());
            if let (
                FlightEntry::Output {
                    seq: s1, bytes: b1, ..
                },
                FlightEntry::Output {
                    seq: s2, bytes: b2, ..
                },
            ) = (a, b)
            {
                assert_eq!((s1, b1), (s2, b2));
            }
        }
        ring.output(202, 500_000, Arc::from(&b"more"[..]));
        assert_eq!(ring.since(0).len(), before.len() + 1);
    }

    #[test]
    fn a_window_restored_elsewhere_replays_the_same_and_fits_the_cap() {
        let mut ring = FlightRecorder::new(1 << 20);
        ring.keyframe(0, 10, 80, 24, b"k0".to_vec());
        for i in 1..=100u64 {
            ring.output(i, i * 1_000, Arc::from(format!("line {i}\r\n").as_bytes()));
        }
        ring.pack();
        ring.keyframe(100, 200_000, 80, 24, b"k1".to_vec());
        ring.resize(300_000, 100, 30);
        ring.output(101, 400_000, Arc::from(&b"after"[..]));
        let window = ring.window();
        assert_eq!(format!("{window:?}"), format!("{:?}", ring.since(0)));
        let mut next = FlightRecorder::new(1 << 20);
        next.restore(window);
        assert_eq!(
            format!("{:?}", next.since(0)),
            format!("{:?}", ring.since(0))
        );
        assert!(
            !next.wants_keyframe(400_000),
            "the restored keyframe counts"
        );

        // Packed, a ring holds more than its cap unpacked: the window is carried from the
        // newest keyframe from which it fits.
        let mut packed = FlightRecorder::new(4_000);
        for segment in 0..2u64 {
            packed.keyframe(segment * 40, segment * 1_000_000, 80, 24, b"k".to_vec());
            for i in 1..=40u64 {
                let seq = segment * 40 + i;
                packed.output(seq, seq * 1_000, Arc::from(&b"a line of output\r\n"[..]));
            }
            packed.pack();
        }
        assert_eq!(packed.since(0).len(), 82, "both segments kept, packed");
        let window = packed.window();
        assert!(matches!(window[0], FlightEntry::Keyframe { seq: 40, .. }));
        assert_eq!(window.len(), 41);
    }
}
