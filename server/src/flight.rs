//! The flight recorder: per pane, a bounded ring of the most recent output with the time the
//! server read each chunk, resizes, and a keyframe (the engine's VT repaint of the screen)
//! every few seconds, so `phux rec --since 60s` can start in the past: keyframe, then the
//! output after it, then live.

use std::collections::VecDeque;
use std::sync::Arc;

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

#[derive(Debug)]
pub struct FlightRecorder {
    cap_bytes: usize,
    entries: VecDeque<FlightEntry>,
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
        self.entries.push_back(entry);
        self.evict();
    }

    /// Drops the oldest entries past the cap, then whatever precedes the oldest keyframe left,
    /// so the ring always starts at a keyframe. The newest keyframe is never dropped.
    fn evict(&mut self) {
        while self.used > self.cap_bytes && self.keyframes > 1 {
            self.pop_front();
            while !matches!(
                self.entries.front(),
                Some(FlightEntry::Keyframe { .. }) | None
            ) {
                self.pop_front();
            }
        }
    }

    fn pop_front(&mut self) {
        if let Some(entry) = self.entries.pop_front() {
            self.used -= entry.cost();
            self.keyframes -= usize::from(matches!(entry, FlightEntry::Keyframe { .. }));
        }
    }

    /// The latest keyframe at or before `from_ns` (the oldest one when the ring does not reach
    /// back that far) and everything after it.
    pub fn since(&self, from_ns: u64) -> Vec<FlightEntry> {
        let start = self
            .entries
            .iter()
            .rposition(|e| matches!(e, FlightEntry::Keyframe { t_ns, .. } if *t_ns <= from_ns))
            .or_else(|| {
                self.entries
                    .iter()
                    .position(|e| matches!(e, FlightEntry::Keyframe { .. }))
            });
        start
            .map(|i| self.entries.iter().skip(i).cloned().collect())
            .unwrap_or_default()
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
}
