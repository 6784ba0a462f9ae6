//! A pane's output position and its recent output: how many bytes the program has written
//! (the opaque `mark` that `send-keys`, `paste`, `run` and `snapshot` report) and the last
//! `KEEP` bytes, so `wait --after MARK` can match only what arrived after a mark.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Output kept for `since`; a mark older than this reads from the oldest byte kept.
const KEEP: usize = 1024 * 1024;

#[derive(Debug, Default)]
struct Inner {
    /// Bytes written since the pane started.
    total: u64,
    /// The last bytes written, ending at `total`.
    recent: VecDeque<u8>,
}

/// Output after a mark, as kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Since {
    pub bytes: Vec<u8>,
    /// The position the read ends at (the mark of now).
    pub mark: u64,
    /// Some output after the mark was no longer kept.
    pub lost: bool,
}

/// Shared between the pane's actor (which appends, under the terminal's lock, so a screen
/// captured under that lock and its mark agree) and request threads (which read).
#[derive(Debug, Default)]
pub struct OutputLog {
    inner: Mutex<Inner>,
}

impl OutputLog {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn append(&self, bytes: &[u8]) {
        let mut inner = self.lock();
        inner.total += bytes.len() as u64;
        inner.recent.extend(bytes);
        let excess = inner.recent.len().saturating_sub(KEEP);
        inner.recent.drain(..excess);
    }

    /// The position now: every byte written so far is before it.
    pub fn mark(&self) -> u64 {
        self.lock().total
    }

    /// The output written after `mark` (all of it kept when `mark` is in the future).
    pub fn since(&self, mark: u64) -> Since {
        let inner = self.lock();
        let start = inner.total - inner.recent.len() as u64;
        let from = mark.clamp(start, inner.total);
        let skip = usize::try_from(from - start).unwrap_or(usize::MAX);
        Since {
            bytes: inner.recent.iter().skip(skip).copied().collect(),
            mark: inner.total,
            lost: mark < start,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_a_mark_is_only_what_came_after_it() {
        let log = OutputLog::default();
        log.append(b">>> ");
        let mark = log.mark();
        assert_eq!(mark, 4);
        log.append(b"sleep\r\n");
        log.append(b">>> ");
        let since = log.since(mark);
        assert_eq!(since.bytes, b"sleep\r\n>>> ");
        assert_eq!((since.mark, since.lost), (15, false));
        assert!(log.since(15).bytes.is_empty());
    }

    #[test]
    fn a_mark_older_than_what_is_kept_reads_from_the_oldest_byte() {
        let log = OutputLog::default();
        log.append(&vec![b'x'; KEEP + 10]);
        let since = log.since(0);
        assert_eq!(since.bytes.len(), KEEP);
        assert!(since.lost);
    }
}
