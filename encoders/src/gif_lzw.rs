//! GIF's LZW compression, written for size and speed rather than taken from the `gif` crate:
//! greedy parsing that crosses a run of one colour in one step, flexible parsing (one step of
//! lookahead) where a bounded trial shows it pays, and a choice of what to do when the code
//! table fills up. One [`LzwEncoder`] is kept per compression thread, so its tables are
//! allocated once.
//!
//! A GIF decoder only sees codes. After each code it adds one entry to its table, the string it
//! just decoded plus the first symbol of the next one, whatever string that was. So the encoder
//! is free to emit a shorter prefix of its longest match when that lets the next code cover more:
//! the decoder's table still grows by the string emitted and the symbol after it, which is what
//! the encoder adds too. This module mirrors the decoder's table exactly (including when the code
//! width grows) so every stream it writes decodes to the same pixels.
//!
//! Parsing would be slow over the long runs of background in a terminal screen (a match there
//! is hundreds of symbols long, and lookahead walks the match after each of its prefixes too),
//! so the table also keeps each symbol's run codes and crosses a run in one step.

/// Codes are at most 12 bits wide, so a table never holds more than 4096 entries.
const MAX_CODE_BITS: u32 = 12;
const MAX_ENTRIES: u16 = 1 << MAX_CODE_BITS;

/// Frames of at most this many indices, and the first frame of an output (what a still image
/// and every thumbnail show), are compressed with each of [`LOOKAHEADS`]: a frame this small
/// costs little however it is searched.
const SEARCH_ALL_UP_TO: usize = 1 << 16;
/// A larger frame is first tried on this many of its indices, with greedy parsing and the
/// [`TRIAL_LOOKAHEADS`] ...
const TRIAL_LEN: usize = 1 << 14;
/// ... and compressed whole with the best lookahead only when that saved at least this share
/// of the trial's greedy bytes. On large busy frames (a scrolling log, a redrawn dashboard)
/// flexible parsing saves well under 1% and takes several times greedy's time; on text with
/// few colours it can save more. Measured with
/// `cargo run --release -p phux-encoders --example size_bench`.
const TRIAL_MIN_GAIN: f64 = 0.01;

/// The lookaheads a large frame's trial tries: the cheapest (a few candidates each weighed
/// with one more match) of [`LOOKAHEADS`]; the others cost several times more on long matches.
const TRIAL_LOOKAHEADS: [Lookahead; 1] = [LOOKAHEADS[1]];

/// The lookaheads [`LzwEncoder::compress_harder`] tries. Which split wins is chaotic (each shorter code
/// also spends a table entry on a string the table already has, and changes every later
/// entry), so a few settings each win on some frames: measured on the sample casts with
/// `cargo run --release -p phux-encoders --example size_bench`.
const LOOKAHEADS: [Lookahead; 3] = [
    Lookahead {
        candidates: 16,
        margin: 1,
    },
    Lookahead {
        candidates: 4,
        margin: 2,
    },
    Lookahead {
        candidates: usize::MAX,
        margin: 3,
    },
];

/// How the input is split into codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parsing {
    /// Always the longest string in the table (classic LZW, what the `gif` crate writes: the
    /// same bytes up to 16 colours; past that weezl 0.1 never finds the 17th string it adds
    /// after a given code, so this is a little shorter).
    Greedy,
    /// A prefix of the longest string when that lets the next code reach further.
    Flexible(Lookahead),
}

/// Which prefixes of the longest match flexible parsing weighs, and how much further one must
/// reach to be taken instead of the longest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lookahead {
    /// How many of the longest prefixes are candidates (at least 1: the whole match).
    pub candidates: usize,
    /// How many more symbols a shorter prefix and the code after it must cover than the
    /// longest match and its next code (at least 1); ties go to the longer prefix.
    pub margin: usize,
}

/// What the encoder does once all 4096 codes are taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FullTable {
    /// Emit a clear code and start a fresh table (what the `gif` crate does).
    Clear,
    /// Keep the full table for the rest of the frame (a "deferred clear" that never comes):
    /// better when what follows looks like what came before.
    Keep,
}

/// The smallest minimum code size GIF allows for `indices`: enough bits for the largest index,
/// and at least 2.
pub fn min_code_size(indices: &[u8]) -> u8 {
    let largest = indices.iter().copied().max().unwrap_or(0);
    let bits = 8 - largest.leading_zeros();
    bits.max(2) as u8
}

/// `indices` compressed greedily, clearing a full table or keeping it, whichever is shorter.
#[cfg(test)]
pub fn compress_quick(indices: &[u8]) -> Compressed {
    LzwEncoder::default().compress_quick(indices, usize::MAX)
}

/// `indices` compressed every way this module knows, whatever its size, keeping the shortest.
#[cfg(test)]
pub fn compress_smallest(indices: &[u8]) -> Vec<u8> {
    let mut encoder = LzwEncoder::default();
    let quick = encoder.compress_quick(indices, usize::MAX);
    encoder.compress_with(indices, quick, &LOOKAHEADS)
}

/// `indices` (a frame's colour indices in the order they are stored) LZW-compressed for GIF.
#[cfg(test)]
pub fn compress(indices: &[u8], parsing: Parsing, full: FullTable) -> Compressed {
    LzwEncoder::default().compress(indices, parsing, full)
}

/// Compresses frames, keeping its tables from one to the next.
#[derive(Default)]
pub struct LzwEncoder {
    table: CodeTable,
    /// Run lengths of the frame being parsed flexibly.
    runs: Vec<u32>,
    /// The codes of the current match's prefixes.
    prefixes: Vec<u16>,
    /// Symbols parsed with lookahead so far: the work the effort rules bound.
    #[cfg(test)]
    flexible_symbols: usize,
}

impl LzwEncoder {
    /// `indices` compressed greedily, clearing a full table or keeping it, whichever is
    /// shorter: quick enough to compare the ways a frame can be written. (Comparing them
    /// clearing only and trying to keep the table for the winner alone takes a fifth less
    /// time on a log flood, for 1.5% more bytes.)
    ///
    /// Codes that grow past `limit` bytes are left unfinished ([`Compressed::finished`] false,
    /// their bytes past `limit`): a caller comparing ways of writing a frame needs no more of
    /// one that has lost.
    pub fn compress_quick(&mut self, indices: &[u8], limit: usize) -> Compressed {
        let cleared = self.compress_greedy(indices, FullTable::Clear, limit);
        // Until the table fills, keeping it writes the same codes (and stops where this did).
        if !cleared.filled_table {
            return cleared;
        }
        let limit = limit.min(cleared.bytes.len().saturating_sub(1));
        let kept = self.compress_greedy(indices, FullTable::Keep, limit);
        if kept.bytes.len() < cleared.bytes.len() {
            kept
        } else {
            cleared
        }
    }

    /// The shortest of `quick` (what [`LzwEncoder::compress_quick`] made of `indices`) and
    /// `indices` parsed with lookahead where that pays, doing with a full table what did
    /// better in `quick`: each of [`LOOKAHEADS`] on an output's `first` frame and on small ones; on a
    /// larger frame, the [`TRIAL_LOOKAHEADS`] when they saved [`TRIAL_MIN_GAIN`] on its first
    /// [`TRIAL_LEN`] indices, none otherwise.
    pub fn compress_harder(&mut self, indices: &[u8], quick: Compressed, first: bool) -> Vec<u8> {
        if first || indices.len() <= SEARCH_ALL_UP_TO {
            return self.compress_with(indices, quick, &LOOKAHEADS);
        }
        match self.trial(&indices[..TRIAL_LEN], quick.full) {
            Some(lookahead) => self.compress_with(indices, quick, &[lookahead]),
            None => quick.bytes,
        }
    }

    /// The lookahead that compressed `sample` smallest, if it saved [`TRIAL_MIN_GAIN`] of
    /// greedy's bytes.
    fn trial(&mut self, sample: &[u8], full: FullTable) -> Option<Lookahead> {
        let greedy = self.compress(sample, Parsing::Greedy, full).bytes.len();
        let (best, len) = (TRIAL_LOOKAHEADS.iter())
            .map(|&l| {
                let flexible = self.compress(sample, Parsing::Flexible(l), full);
                (l, flexible.bytes.len())
            })
            .min_by_key(|&(_, len)| len)?;
        (len as f64 <= greedy as f64 * (1.0 - TRIAL_MIN_GAIN)).then_some(best)
    }

    /// The shortest of `quick` and `indices` parsed with each of `lookaheads`, doing with a
    /// full table what did better in `quick` (lookahead rarely changes which does better, and
    /// trying both would double the time).
    fn compress_with(
        &mut self,
        indices: &[u8],
        quick: Compressed,
        lookaheads: &[Lookahead],
    ) -> Vec<u8> {
        let mut best = quick.bytes;
        for &lookahead in lookaheads {
            let flexible = self.compress(indices, Parsing::Flexible(lookahead), quick.full);
            if flexible.bytes.len() < best.len() {
                best = flexible.bytes;
            }
        }
        best
    }

    /// `indices` (a frame's colour indices in the order they are stored) LZW-compressed.
    fn compress(&mut self, indices: &[u8], parsing: Parsing, full: FullTable) -> Compressed {
        match parsing {
            Parsing::Greedy => self.compress_greedy(indices, full, usize::MAX),
            Parsing::Flexible(lookahead) => self.compress_flexible(indices, lookahead, full),
        }
    }

    /// Classic LZW: always the longest string in the table. A run of one symbol is crossed
    /// through the table's run codes in one step (the same codes as walking it symbol by
    /// symbol: the longest run code that fits, then on from there).
    fn compress_greedy(&mut self, indices: &[u8], full: FullTable, limit: usize) -> Compressed {
        let min_size = min_code_size(indices);
        let table = &mut self.table;
        table.reset(min_size);
        let mut out = CodeWriter::new(min_size, indices.len());
        out.emit_clear(table.clear_code());
        let mut filled_table = false;
        let (mut at, mut run_end) = (0, 0);
        while at < indices.len() {
            let symbol = indices[at];
            if run_end <= at {
                run_end = at + 1;
                while indices.get(run_end) == Some(&symbol) {
                    run_end += 1;
                }
            }
            let run = run_end - at;
            let known = &table.runs[usize::from(symbol)];
            let (mut code, mut len) = match known.get(run - 1) {
                Some(&code) => (code, run),
                // The table has no longer run of `symbol`: its longest is the match.
                None => (known[known.len() - 1], known.len()),
            };
            if len == run {
                while let Some(longer) = (indices.get(at + len)).and_then(|&s| table.child(code, s))
                {
                    code = longer;
                    len += 1;
                }
            }
            out.emit(code);
            if out.bytes.len() > limit {
                return Compressed {
                    bytes: out.finish(),
                    full,
                    filled_table,
                    finished: false,
                };
            }
            at += len;
            let Some(&next) = indices.get(at) else {
                break;
            };
            if !table.add(code, next) {
                filled_table = true;
                if full == FullTable::Clear {
                    out.emit_clear(table.clear_code());
                    table.clear();
                }
            }
        }
        out.emit(table.clear_code() + 1);
        Compressed {
            bytes: out.finish(),
            full,
            filled_table,
            finished: true,
        }
    }

    /// `indices` parsed with one step of `lookahead`.
    fn compress_flexible(
        &mut self,
        indices: &[u8],
        lookahead: Lookahead,
        full: FullTable,
    ) -> Compressed {
        #[cfg(test)]
        {
            self.flexible_symbols += indices.len();
        }
        run_lengths(indices, &mut self.runs);
        let (table, runs, prefixes) = (&mut self.table, &self.runs, &mut self.prefixes);
        let min_size = min_code_size(indices);
        table.reset(min_size);
        let mut out = CodeWriter::new(min_size, indices.len());
        out.emit_clear(table.clear_code());
        let mut filled_table = false;
        let mut at = 0;
        while at < indices.len() {
            let rest = &indices[at..];
            table.prefix_codes(rest, prefixes);
            let taken = table.best_split(rest, &runs[at..], prefixes.len(), lookahead);
            out.emit(prefixes[taken - 1]);
            at += taken;
            let Some(&next) = indices.get(at) else {
                break;
            };
            if !table.add(prefixes[taken - 1], next) {
                filled_table = true;
                if full == FullTable::Clear {
                    out.emit_clear(table.clear_code());
                    table.clear();
                }
            }
        }
        out.emit(table.clear_code() + 1);
        Compressed {
            bytes: out.finish(),
            full,
            filled_table,
            finished: true,
        }
    }
}

/// A compressed frame, what was done when its table was full, and whether it ever was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compressed {
    /// What `gif::Encoder::write_lzw_pre_encoded_frame` takes as a frame's buffer: the minimum
    /// code size byte, then the codes packed least significant bit first, without sub-block
    /// lengths (the writer splits them into sub-blocks of 255).
    pub bytes: Vec<u8>,
    pub full: FullTable,
    /// When false, [`Compressed::full`] made no difference.
    pub filled_table: bool,
    /// False when the codes stopped at a byte limit, before the end of the input.
    pub finished: bool,
}

/// Writes into `runs`, for each index, how many equal symbols start there (itself included),
/// at most `u32::MAX`.
fn run_lengths(indices: &[u8], runs: &mut Vec<u32>) {
    runs.clear();
    runs.resize(indices.len(), 1);
    for i in (0..indices.len().saturating_sub(1)).rev() {
        if indices[i] == indices[i + 1] {
            runs[i] = runs[i + 1].saturating_add(1);
        }
    }
}

/// The encoder's string table: each code past the clear and end codes is an earlier code plus
/// one symbol, found in a dense array indexed by (code, symbol). A symbol is below the clear
/// code, so the array is 4096 rows of one entry per symbol (128 KiB for 16 colours, 2 MiB for
/// 256), and a lookup is one load: no hash, no probing, no key to compare. A clear zeroes the
/// entries written since the last one, at most 4096, not the whole array.
struct CodeTable {
    clear_code: u16,
    next_code: u16,
    /// `children[code << symbol_bits | symbol]`: the code of that string, 0 when it has none
    /// (0 is a single symbol's code, never an added string's).
    children: Vec<u16>,
    /// The minimum code size: how many bits index a row's symbols.
    symbol_bits: u32,
    /// The entries of `children` written since the last clear.
    written: Vec<u32>,
    /// For each symbol, the codes of its runs: `runs[s][j]` stands for `s` repeated `j + 1`
    /// times. Lookahead jumps across a run of background through these instead of walking it.
    runs: Vec<Vec<u16>>,
}

impl Default for CodeTable {
    fn default() -> Self {
        let mut table = CodeTable {
            clear_code: 0,
            next_code: 0,
            children: Vec::new(),
            symbol_bits: 0,
            written: Vec::new(),
            runs: Vec::new(),
        };
        table.reset(2);
        table
    }
}

impl CodeTable {
    /// An empty table for codes of at least `min_size` bits, in the memory of the last one.
    fn reset(&mut self, min_size: u8) {
        self.clear_entries();
        self.symbol_bits = u32::from(min_size);
        let len = usize::from(MAX_ENTRIES) << self.symbol_bits;
        if self.children.len() < len {
            self.children.resize(len, 0);
        }
        self.clear_code = 1 << min_size;
        self.next_code = self.clear_code + 2;
        let symbols = usize::from(self.clear_code);
        self.runs.resize_with(symbols, Vec::new);
        for (symbol, run) in (0..self.clear_code).zip(&mut self.runs) {
            run.clear();
            run.push(symbol);
        }
    }

    /// Zeroes the entries written since the last clear.
    fn clear_entries(&mut self) {
        for &index in &self.written {
            self.children[index as usize] = 0;
        }
        self.written.clear();
    }

    fn clear_code(&self) -> u16 {
        self.clear_code
    }

    fn clear(&mut self) {
        self.clear_entries();
        self.next_code = self.clear_code + 2;
        for run in &mut self.runs {
            run.truncate(1);
        }
    }

    fn index(&self, code: u16, symbol: u8) -> usize {
        usize::from(code) << self.symbol_bits | usize::from(symbol)
    }

    fn child(&self, code: u16, symbol: u8) -> Option<u16> {
        match self.children[self.index(code, symbol)] {
            0 => None,
            child => Some(child),
        }
    }

    /// Adds `code` + `symbol` as the next code, as the decoder will once it reads the code
    /// after `code`; false (and nothing added) when the table is full. Where the string is
    /// already in the table (flexible parsing emits a shorter prefix and adds what follows it,
    /// which may be known) the older code stays the one found.
    fn add(&mut self, code: u16, symbol: u8) -> bool {
        if self.next_code == MAX_ENTRIES {
            return false;
        }
        let index = self.index(code, symbol);
        if self.children[index] == 0 {
            self.children[index] = self.next_code;
            self.written.push(index as u32);
        }
        // Only codes found by lookup are ever emitted, so `code` is the run's longest when it
        // is the run's own code at all (a repeated string's second code is never a prefix).
        let run = &mut self.runs[usize::from(symbol)];
        if run.last() == Some(&code) {
            run.push(self.next_code);
        }
        self.next_code += 1;
        true
    }

    /// The codes of `input`'s prefixes that are in the table, shortest first: `codes[k - 1]`
    /// stands for `input[..k]`. `input` must not be empty.
    fn prefix_codes(&self, input: &[u8], codes: &mut Vec<u16>) {
        codes.clear();
        let mut code = u16::from(input[0]);
        codes.push(code);
        for &symbol in &input[1..] {
            match self.child(code, symbol) {
                Some(longer) => code = longer,
                None => break,
            }
            codes.push(code);
        }
    }

    /// The length of the longest prefix of `input` in the table (0 for empty input), which
    /// starts with a run of `run` equal symbols: the run's part is looked up in one step.
    fn match_len(&self, input: &[u8], run: u32) -> usize {
        let Some(&first) = input.first() else {
            return 0;
        };
        let known = &self.runs[usize::from(first)];
        let run = usize::try_from(run).unwrap_or(usize::MAX);
        if run > known.len() {
            // The table has no longer run of `first`.
            return known.len();
        }
        let mut code = known[run - 1];
        let mut len = run;
        for &symbol in &input[run..] {
            match self.child(code, symbol) {
                Some(longer) => code = longer,
                None => break,
            }
            len += 1;
        }
        len
    }

    /// Of the prefix lengths `1..=longest` of `input` (the last few only, as `lookahead`
    /// says), the one whose code and the next together cover the most. `runs` are `input`'s
    /// [`run_lengths`].
    fn best_split(
        &self,
        input: &[u8],
        runs: &[u32],
        longest: usize,
        lookahead: Lookahead,
    ) -> usize {
        let reach = |taken: usize| {
            let next_run = runs.get(taken).copied().unwrap_or(0);
            taken + self.match_len(&input[taken..], next_run)
        };
        let candidates = lookahead.candidates.max(1);
        let shortest = longest.saturating_sub(candidates - 1).max(1);
        let mut best = (reach(longest), longest);
        for taken in (shortest..longest).rev() {
            let reach = reach(taken);
            if reach >= best.0 + lookahead.margin.max(1) {
                best = (reach, taken);
            }
        }
        best.1
    }
}

/// Packs codes least significant bit first at the width the decoder reads them: it mirrors the
/// decoder's table size, which grows by one for every code but the first after a clear.
struct CodeWriter {
    bytes: Vec<u8>,
    bits: u64,
    bit_count: u32,
    first_code: u16,
    /// The size of the decoder's table when it reads the next code.
    decoder_size: u16,
    /// Whether the next code is not the first after a clear (so the decoder adds an entry).
    adds: bool,
}

impl CodeWriter {
    fn new(min_size: u8, input_len: usize) -> Self {
        let mut bytes = Vec::with_capacity(input_len / 4 + 8);
        bytes.push(min_size);
        let first_code = (1 << min_size) + 2;
        CodeWriter {
            bytes,
            bits: 0,
            bit_count: 0,
            first_code,
            decoder_size: first_code,
            adds: false,
        }
    }

    /// Writes `code` as wide as the decoder reads it: wide enough for every code it may hold,
    /// at most 12 bits.
    fn emit(&mut self, code: u16) {
        let width = (16 - self.decoder_size.leading_zeros()).min(MAX_CODE_BITS);
        self.bits |= u64::from(code) << self.bit_count;
        self.bit_count += width;
        while self.bit_count >= 8 {
            self.bytes.push(self.bits as u8);
            self.bits >>= 8;
            self.bit_count -= 8;
        }
        if self.adds && self.decoder_size < MAX_ENTRIES {
            self.decoder_size += 1;
        }
        self.adds = true;
    }

    /// Writes the clear code, after which the decoder starts a fresh table.
    fn emit_clear(&mut self, clear_code: u16) {
        self.emit(clear_code);
        self.decoder_size = self.first_code;
        self.adds = false;
    }

    fn finish(mut self) -> Vec<u8> {
        if self.bit_count > 0 {
            self.bytes.push(self.bits as u8);
        }
        self.bytes
    }
}

#[cfg(test)]
#[path = "gif_lzw_tests.rs"]
mod tests;
