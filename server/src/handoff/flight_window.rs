//! A pane's flight window in the hand-off manifest: its entries back to back, each a fixed
//! header (kind, sequence number, time, size, length; little-endian) and its bytes. The times
//! stay on the server's clock, which the next process continues (see `Clock`).

use std::sync::Arc;

use crate::flight::FlightEntry;

const KEYFRAME: u8 = 0;
const OUTPUT: u8 = 1;
const RESIZE: u8 = 2;
/// kind, seq, t_ns, cols, rows, len.
const HEADER: usize = 1 + 8 + 8 + 2 + 2 + 4;

/// The server's monotonic clock (`Shared::epoch`) at the freeze, so the next process can
/// continue it: its epoch goes back as far, and every carried time stays valid.
#[derive(Debug, Clone, Copy, serde::Serialize, serde::Deserialize)]
pub struct Clock {
    /// How old the epoch was when the old process stopped reading (ns).
    pub epoch_age_ns: u64,
}

impl Clock {
    /// The epoch `age` before now, where the hand-off took `handed_ns` since the freeze; `None`
    /// when this machine's monotonic clock does not reach back that far.
    pub fn epoch(self, handed_ns: u64) -> Option<std::time::Instant> {
        let age = self.epoch_age_ns.saturating_add(handed_ns);
        std::time::Instant::now().checked_sub(std::time::Duration::from_nanos(age))
    }
}

pub fn encode(entries: &[FlightEntry]) -> Vec<u8> {
    let mut out = Vec::new();
    for entry in entries {
        let (kind, seq, t_ns, cols, rows, bytes): (u8, u64, u64, u16, u16, &[u8]) = match entry {
            FlightEntry::Keyframe {
                seq,
                t_ns,
                cols,
                rows,
                repaint,
            } => (KEYFRAME, *seq, *t_ns, *cols, *rows, repaint),
            FlightEntry::Output { seq, t_ns, bytes } => (OUTPUT, *seq, *t_ns, 0, 0, bytes),
            FlightEntry::Resize { t_ns, cols, rows } => (RESIZE, 0, *t_ns, *cols, *rows, &[]),
        };
        // A chunk is a PTY read or a repaint: far below 4 GiB.
        let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
        out.push(kind);
        out.extend_from_slice(&seq.to_le_bytes());
        out.extend_from_slice(&t_ns.to_le_bytes());
        out.extend_from_slice(&cols.to_le_bytes());
        out.extend_from_slice(&rows.to_le_bytes());
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&bytes[..len as usize]);
    }
    out
}

#[derive(Debug, thiserror::Error)]
pub enum WindowError {
    #[error("a flight window entry is cut short")]
    CutShort,
    #[error("a flight window entry is of unknown kind {0}")]
    UnknownKind(u8),
}

pub fn decode(mut bytes: &[u8]) -> Result<Vec<FlightEntry>, WindowError> {
    let mut entries = Vec::new();
    while !bytes.is_empty() {
        let (header, rest) = bytes
            .split_at_checked(HEADER)
            .ok_or(WindowError::CutShort)?;
        let kind = header[0];
        let u64_at =
            |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().unwrap_or([0; 8]));
        let u16_at = |at: usize| u16::from_le_bytes([header[at], header[at + 1]]);
        let (seq, t_ns, cols, rows) = (u64_at(1), u64_at(9), u16_at(17), u16_at(19));
        let len = u32::from_le_bytes([header[21], header[22], header[23], header[24]]) as usize;
        let (data, rest) = rest.split_at_checked(len).ok_or(WindowError::CutShort)?;
        entries.push(match kind {
            KEYFRAME => FlightEntry::Keyframe {
                seq,
                t_ns,
                cols,
                rows,
                repaint: Arc::from(data),
            },
            OUTPUT => FlightEntry::Output {
                seq,
                t_ns,
                bytes: Arc::from(data),
            },
            RESIZE => FlightEntry::Resize { t_ns, cols, rows },
            other => return Err(WindowError::UnknownKind(other)),
        });
        bytes = rest;
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_window_decodes_as_encoded() {
        let entries = vec![
            FlightEntry::Keyframe {
                seq: 3,
                t_ns: 1_000,
                cols: 80,
                rows: 24,
                repaint: Arc::from(&b"\x1b[Hscreen"[..]),
            },
            FlightEntry::Output {
                seq: 4,
                t_ns: u64::MAX - 1,
                bytes: Arc::from(&b"out\0put"[..]),
            },
            FlightEntry::Resize {
                t_ns: 2_000,
                cols: 100,
                rows: 30,
            },
            FlightEntry::Output {
                seq: 5,
                t_ns: 3_000,
                bytes: Arc::from(&b""[..]),
            },
        ];
        let decoded = decode(&encode(&entries)).unwrap();
        assert_eq!(format!("{decoded:?}"), format!("{entries:?}"));
        assert!(decode(&[]).unwrap().is_empty());
    }

    #[test]
    fn a_window_cut_short_or_of_unknown_kind_is_refused() {
        let entries = [FlightEntry::Output {
            seq: 1,
            t_ns: 1,
            bytes: Arc::from(&b"hello"[..]),
        }];
        let bytes = encode(&entries);
        for cut in [1, HEADER - 1, HEADER, bytes.len() - 1] {
            assert!(
                matches!(decode(&bytes[..cut]), Err(WindowError::CutShort)),
                "cut at {cut}"
            );
        }
        let mut unknown = bytes.clone();
        unknown[0] = 9;
        assert!(matches!(decode(&unknown), Err(WindowError::UnknownKind(9))));
    }
}
