//! A pane's output position and its recent output: how many bytes the program has written
//! (the opaque `mark` that `send-keys`, `paste`, `run` and `snapshot` report) and the last
//! `KEEP` bytes, so `wait --after MARK` can match only what arrived after a mark. The bytes
//! are the reader's own chunks, the very allocations the flight recorder and the bus hold, so
//! the window costs a pointer per read instead of a second copy of the output (this copy was
//! a third of a pane's memory with 10,000 lines of history: issue 41). Beside them
//! it keeps where the shell's OSC 133 marks put the command line and what was typed into the
//! pane, so that what is typed, and its echo, never count as output (see `new_output`).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::new_output::{AfterMark, Region};
use super::osc_scan::Mark;
use crate::packed::KeptBytes;

/// Output kept for `since`; a mark older than this reads from the oldest byte kept.
const KEEP: usize = 1024 * 1024;
/// Region changes and typed inputs kept (the oldest go first).
const KEEP_ENTRIES: usize = 4096;
/// Typed bytes kept, in all.
const KEEP_TYPED: usize = 256 * 1024;
/// Output a program may write after input before its echo (a prompt's redraw, say).
const ECHO_WINDOW: u64 = 4096;

#[derive(Debug, Default)]
struct Inner {
    /// Bytes written since the pane started.
    total: u64,
    /// The last reads, ending at `total`; the first `front_skip` bytes of the first are no
    /// longer kept (so exactly `KEEP` bytes are, whatever the size of the reads).
    chunks: VecDeque<KeptBytes>,
    front_skip: usize,
    /// Bytes kept: the chunks' lengths less `front_skip`.
    kept: usize,
    /// The region before the oldest change kept.
    region_before: Option<Region>,
    /// Where the shell's marks changed the region, by output position.
    regions: VecDeque<(u64, Region)>,
    /// Input written to the pane, with the output position when it was written.
    typed: VecDeque<(u64, Vec<u8>)>,
    typed_bytes: usize,
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

/// Shared between the pane's core (which appends, under the terminal's lock, so a screen
/// captured under that lock and its mark agree) and request threads (which read).
#[derive(Debug, Default)]
pub struct OutputLog {
    inner: Mutex<Inner>,
}

impl Inner {
    /// Drops what is past the window: whole chunks, then the start of the oldest one.
    fn trim(&mut self) {
        while self.kept > KEEP {
            let excess = self.kept - KEEP;
            let Some(front) = self.chunks.front() else {
                break;
            };
            let front_left = front.len() - self.front_skip;
            if front_left <= excess {
                self.chunks.pop_front();
                self.front_skip = 0;
                self.kept -= front_left;
            } else {
                self.front_skip += excess;
                self.kept -= excess;
            }
        }
    }

    /// The position of the oldest byte kept.
    fn start(&self) -> u64 {
        self.total - self.kept as u64
    }

    /// The bytes kept from position `from` (at least `start()`) to now.
    fn bytes_from(&self, from: u64) -> Vec<u8> {
        let mut skip = usize::try_from(from - self.start()).unwrap_or(usize::MAX) + self.front_skip;
        let mut bytes = Vec::with_capacity(usize::try_from(self.total - from).unwrap_or(0));
        for chunk in &self.chunks {
            if skip >= chunk.len() {
                skip -= chunk.len();
                continue;
            }
            bytes.extend_from_slice(&chunk.bytes()[skip..]);
            skip = 0;
        }
        bytes
    }
}

impl OutputLog {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A log whose position is already `total` (a pane adopted by `phux upgrade`, whose marks
    /// stay valid), with no recent output kept.
    pub fn starting_at(total: u64) -> OutputLog {
        let log = OutputLog::default();
        log.lock().total = total;
        log
    }

    /// One read of the program's output, shared with whoever else holds it.
    pub fn append(&self, chunk: Arc<[u8]>) {
        let mut inner = self.lock();
        inner.total += chunk.len() as u64;
        inner.kept += chunk.len();
        inner.chunks.push_back(KeptBytes::Read(chunk));
        inner.trim();
    }

    /// The pane went quiet: the reads kept are packed (about tenfold smaller) and the
    /// bookkeeping shrunk to what it holds. The window is unchanged: reads unpack what they
    /// need. The packed copy is this log's own; the reads it held go with the flight
    /// recorder's, which packs too.
    pub fn pack(&self) {
        let mut inner = self.lock();
        KeptBytes::pack_reads(&mut inner.chunks);
        inner.regions.shrink_to_fit();
        inner.typed.shrink_to_fit();
    }

    /// The shell's marks found in the chunk that ended at the position now, each with the
    /// offset just past it in that chunk of `len` bytes.
    pub fn note_marks(&self, len: usize, marks: &[(Mark, usize)]) {
        if marks.is_empty() {
            return;
        }
        let mut inner = self.lock();
        let chunk_start = inner.total.saturating_sub(len as u64);
        for &(mark, end) in marks {
            if let Some(region) = Region::after(mark) {
                inner.regions.push_back((chunk_start + end as u64, region));
            }
        }
        while inner.regions.len() > KEEP_ENTRIES {
            let oldest = inner.regions.pop_front().map(|(_, r)| r);
            inner.region_before = oldest;
        }
    }

    /// Input handed to the pane's terminal now.
    pub fn note_typed(&self, bytes: &[u8]) {
        let mut inner = self.lock();
        let at = inner.total;
        inner.typed_bytes += bytes.len();
        inner.typed.push_back((at, bytes.to_vec()));
        while inner.typed.len() > KEEP_ENTRIES || inner.typed_bytes > KEEP_TYPED {
            let Some((_, oldest)) = inner.typed.pop_front() else {
                break;
            };
            inner.typed_bytes -= oldest.len();
        }
    }

    /// The program's output after `mark` (see `new_output`): the command lines the shell
    /// marked and the echo of what was typed taken out.
    pub fn program_output_since(&self, mark: u64) -> Since {
        let inner = self.lock();
        let start = inner.start();
        let from = mark.clamp(start, inner.total);
        let bytes = inner.bytes_from(from);
        let region_at_start = inner
            .regions
            .iter()
            .take_while(|(p, _)| *p <= from)
            .last()
            .map(|(_, r)| *r)
            .or(inner.region_before)
            .unwrap_or(Region::Other);
        let regions: Vec<(u64, Region)> = inner
            .regions
            .iter()
            .filter(|(p, _)| *p > from)
            .copied()
            .collect();
        // Input typed a moment before the mark may be echoed after it (`wait --new` right
        // after `send-keys`): the last such write counts too.
        let recent_input = inner
            .typed
            .iter()
            .rposition(|(p, _)| *p < from)
            .filter(|&i| inner.typed[i].0 + ECHO_WINDOW >= from);
        let typed: Vec<(u64, Vec<u8>)> = inner
            .typed
            .iter()
            .enumerate()
            .filter(|(i, (p, _))| *p >= from || Some(*i) == recent_input)
            .map(|(_, entry)| entry.clone())
            .collect();
        let after = AfterMark {
            start: from,
            bytes: &bytes,
            region_at_start,
            regions: &regions,
            typed: &typed,
        };
        Since {
            bytes: after.program_output(),
            mark: inner.total,
            lost: mark < start,
        }
    }

    /// Heap bytes this log holds by itself: its bookkeeping and typed input, not the reads it
    /// shares with the flight recorder (for `server_bench`'s memory breakdown).
    pub fn own_bytes(&self) -> usize {
        let inner = self.lock();
        inner.chunks.capacity() * std::mem::size_of::<KeptBytes>()
            + inner
                .chunks
                .iter()
                .map(|c| match c {
                    KeptBytes::Packed(packed) => packed.held(),
                    KeptBytes::Read(_) => 0,
                })
                .sum::<usize>()
            + inner.regions.capacity() * std::mem::size_of::<(u64, Region)>()
            + inner.typed.capacity() * std::mem::size_of::<(u64, Vec<u8>)>()
            + inner.typed_bytes
    }

    /// The position now: every byte written so far is before it.
    pub fn mark(&self) -> u64 {
        self.lock().total
    }

    /// The output written after `mark` (all of it kept when `mark` is in the future).
    pub fn since(&self, mark: u64) -> Since {
        let inner = self.lock();
        let start = inner.start();
        let from = mark.clamp(start, inner.total);
        Since {
            bytes: inner.bytes_from(from),
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
        log.append(Arc::from(&b">>> "[..]));
        let mark = log.mark();
        assert_eq!(mark, 4);
        log.append(Arc::from(&b"sleep\r\n"[..]));
        log.append(Arc::from(&b">>> "[..]));
        let since = log.since(mark);
        assert_eq!(since.bytes, b"sleep\r\n>>> ");
        assert_eq!((since.mark, since.lost), (15, false));
        assert!(log.since(15).bytes.is_empty());
    }

    #[test]
    fn typed_input_and_its_echo_are_not_program_output() {
        let log = OutputLog::default();
        log.append(Arc::from(&b"$ "[..]));
        let mark = log.mark();
        log.note_typed(b"sleep 1; echo DONE-$((1+1))\r");
        log.append(Arc::from(&b"sleep 1; echo DONE-$((1+1))\r\n"[..]));
        assert!(log.program_output_since(mark).bytes.is_empty());
        log.append(Arc::from(&b"DONE-2\r\n$ "[..]));
        assert_eq!(log.program_output_since(mark).bytes, b"DONE-2\r\n$ ");
    }

    #[test]
    fn a_marked_command_line_is_not_program_output() {
        let log = OutputLog::default();
        let prompt = b"\x1b]133;A\x07$ \x1b]133;B\x07";
        log.append(Arc::from(&prompt[..]));
        log.note_marks(
            prompt.len(),
            &[(Mark::PromptStart, 8), (Mark::InputStart, prompt.len())],
        );
        let mark = log.mark();
        log.note_typed(b"echo hi\r");
        log.append(Arc::from(&b"echo hi\r\n"[..]));
        let run = b"\x1b]133;C\x07hi\r\n";
        log.append(Arc::from(&run[..]));
        log.note_marks(run.len(), &[(Mark::CommandStarted, 8)]);
        assert_eq!(log.program_output_since(mark).bytes, b"hi\r\n");
    }

    #[test]
    fn a_mark_older_than_what_is_kept_reads_from_the_oldest_byte() {
        let log = OutputLog::default();
        log.append(Arc::from(vec![b'x'; KEEP + 10]));
        let since = log.since(0);
        assert_eq!(since.bytes.len(), KEEP);
        assert!(since.lost);
    }

    #[test]
    fn the_window_trims_inside_a_read_and_reads_across_reads() {
        let log = OutputLog::default();
        log.append(Arc::from(vec![b'a'; KEEP - 2]));
        log.append(Arc::from(&b"bcde"[..]));
        let since = log.since(0);
        assert_eq!(since.bytes.len(), KEEP);
        assert!(since.lost);
        assert!(since.bytes.ends_with(b"aabcde"));
        assert_eq!(log.since(KEEP as u64).bytes, b"de");
        log.pack();
        assert_eq!(log.since(KEEP as u64).bytes, b"de");
        assert_eq!(log.since(0).bytes.len(), KEEP);
        log.append(Arc::from(&b"fg"[..]));
        assert!(log.since(KEEP as u64).bytes.ends_with(b"defg"));
        assert_eq!(log.since(0).bytes.len(), KEEP);
    }
}
