//! What counts as a pane's new output after a mark (`wait --after MARK`, `wait --new`): the
//! bytes the program wrote, without what was typed into it. Three things are taken out of the
//! raw bytes after the mark:
//! - the shell's command line being edited: between an OSC 133 B (input starts) and the next
//!   C (the command runs) or A (a new prompt: the line was abandoned or empty);
//! - elsewhere, the terminal's echo of the bytes `send-keys`/`paste`/`run` typed after the mark
//!   (a program without marks: sh, dash, a REPL);
//! - what was drawn on an alternate screen that has since been left (less, vim): it is not on
//!   the screen as it stands, and rendering it into the primary screen would compose rows
//!   that never existed.

use super::osc_scan::Mark;

/// Where a shell's marks put a byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Region {
    /// The command line being typed (after B).
    Input,
    /// Anything else: a prompt, a command's output.
    Other,
}

impl Region {
    /// The region a mark starts (a progress report starts none).
    pub fn after(mark: Mark) -> Option<Region> {
        match mark {
            Mark::InputStart => Some(Region::Input),
            Mark::PromptStart | Mark::CommandStarted | Mark::CommandFinished(_) => {
                Some(Region::Other)
            }
            Mark::Progress { .. } => None,
        }
    }
}

/// The output after a mark, with everything a shell's marks and the input log say about it.
#[derive(Debug)]
pub struct AfterMark<'a> {
    /// Absolute position of `bytes[0]`.
    pub start: u64,
    pub bytes: &'a [u8],
    /// The region in force at `start`.
    pub region_at_start: Region,
    /// Region changes at or after `start`, by absolute position (just past each mark).
    pub regions: &'a [(u64, Region)],
    /// Input written at or after `start`, with the output position when it was written.
    pub typed: &'a [(u64, Vec<u8>)],
}

impl AfterMark<'_> {
    /// The program's own output: command lines and echoes taken out.
    pub fn program_output(&self) -> Vec<u8> {
        let (kept, positions) = self.outside_command_lines();
        let echo: Vec<u8> = self
            .typed
            .iter()
            .filter(|(at, _)| self.region_at(*at) == Region::Other)
            .flat_map(|(_, bytes)| bytes.iter().copied())
            .collect();
        let first_typed = self
            .typed
            .iter()
            .find(|(at, _)| self.region_at(*at) == Region::Other)
            .map(|(at, _)| *at);
        match first_typed {
            // The echo can only come after the input that causes it.
            Some(at) => {
                let split = positions.partition_point(|&p| p < at);
                let mut out = kept[..split].to_vec();
                out.extend(without_echo(&kept[split..], &echo));
                out
            }
            None => kept,
        }
    }

    fn region_at(&self, at: u64) -> Region {
        self.regions
            .iter()
            .take_while(|(p, _)| *p <= at)
            .last()
            .map_or(self.region_at_start, |(_, r)| *r)
    }

    /// The bytes outside command lines being typed, and each kept byte's absolute position.
    fn outside_command_lines(&self) -> (Vec<u8>, Vec<u64>) {
        let mut kept = Vec::with_capacity(self.bytes.len());
        let mut positions = Vec::with_capacity(self.bytes.len());
        let mut region = self.region_at_start;
        let mut changes = self.regions.iter().peekable();
        for (i, &byte) in self.bytes.iter().enumerate() {
            let at = self.start + i as u64;
            while let Some(&&(p, r)) = changes.peek() {
                if p > at {
                    break;
                }
                region = r;
                changes.next();
            }
            if region == Region::Other {
                kept.push(byte);
                positions.push(at);
            }
        }
        (kept, positions)
    }
}

/// `output` without the terminal's echo of `typed` at its start: each typed character as
/// itself, Enter as a line break, control keys as nothing or `^X`, and the line editor's
/// redrawing (escape sequences, carriage returns) between them. The first character that is
/// neither ends the echo: what follows is the program's.
pub fn without_echo(output: &[u8], typed: &[u8]) -> Vec<u8> {
    let typed = echoed_bytes(typed);
    let (kept, consumed) = echo_at_start(output, &typed);
    if consumed > 0 {
        return kept;
    }
    // A line editor that redraws the prompt with the typed line (Python's REPL, readline after
    // a resize) echoes it inside a line that starts with the prompt again.
    redrawn_lines_removed(output, &typed)
}

/// The echo of `typed` (its echoed bytes) skipped at the start of `output`, and how many typed
/// bytes it matched.
fn echo_at_start(output: &[u8], typed: &[u8]) -> (Vec<u8>, usize) {
    let mut kept = Vec::with_capacity(output.len());
    let (mut i, mut j) = (0, 0);
    let mut line_ended = false;
    while i < output.len() {
        let byte = output[i];
        if j >= typed.len() {
            // The line break that ends the typed line is the echo's too.
            if line_ended && (byte == b'\r' || byte == b'\n') {
                i += 1;
                continue;
            }
            kept.extend_from_slice(&output[i..]);
            break;
        }
        let want = typed[j];
        if byte == 0x1b {
            i += escape_len(&output[i..]);
            continue;
        }
        if want == b'\r' || want == b'\n' {
            if byte == b'\r' || byte == b'\n' {
                j += 1;
                i += 1;
                line_ended = true;
                continue;
            }
        } else if byte == want {
            j += 1;
            i += 1;
            line_ended = false;
            continue;
        } else if want < 0x20 && want != b'\t' {
            // A control key: echoed as `^X` in canonical mode, or not at all.
            j += 1;
            if byte == b'^' && output.get(i + 1).is_some_and(|b| b.is_ascii_graphic()) {
                i += 2;
            }
            continue;
        }
        if matches!(byte, b'\r' | b'\n' | 0x08 | 0x07) || (line_ended && byte == b' ') {
            // The line editor redrawing (a wrap, a bell, a cursor moved back).
            i += 1;
            continue;
        }
        // Not an echo: the rest is the program's own output.
        kept.extend_from_slice(&output[i..]);
        break;
    }
    (kept, j)
}

/// `output` without its first lines that hold, in order, each line of `typed` (a redrawn
/// prompt and the typed text); it stops at the first line that does not.
fn redrawn_lines_removed(output: &[u8], typed: &[u8]) -> Vec<u8> {
    let mut from = 0;
    for line in typed
        .split(|&b| b == b'\r' || b == b'\n')
        .filter(|l| !l.is_empty())
    {
        let end = output[from..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(output.len(), |p| from + p + 1);
        let shown = echoed_bytes(&output[from..end]);
        if !shown.windows(line.len()).any(|w| w == line) {
            break;
        }
        from = end;
    }
    output[from..].to_vec()
}

/// The bytes of `typed` a terminal echoes: escape sequences (arrow keys, bracketed-paste
/// brackets) are not echoed as typed, so they are left out.
fn echoed_bytes(typed: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(typed.len());
    let mut i = 0;
    while i < typed.len() {
        if typed[i] == 0x1b {
            i += escape_len(&typed[i..]);
        } else {
            out.push(typed[i]);
            i += 1;
        }
    }
    out
}

/// The length of the escape sequence at the start of `bytes` (which starts with ESC): CSI up
/// to its final byte, OSC/DCS up to BEL or ST, otherwise ESC and one byte.
fn escape_len(bytes: &[u8]) -> usize {
    match bytes.get(1) {
        Some(b'[') => bytes[2..]
            .iter()
            .position(|b| (0x40..=0x7e).contains(b))
            .map_or(bytes.len(), |p| p + 3),
        Some(b']' | b'P' | b'_' | b'^') => {
            let mut k = 2;
            while k < bytes.len() {
                if bytes[k] == 0x07 {
                    return k + 1;
                }
                if bytes[k] == 0x1b && bytes.get(k + 1) == Some(&b'\\') {
                    return k + 2;
                }
                k += 1;
            }
            bytes.len()
        }
        Some(_) => 2,
        None => 1,
    }
}

/// Alternate-screen switches (`?1049`, `?1047`, `?47`): where each starts and ends, and
/// whether it enters.
fn screen_switches(bytes: &[u8]) -> Vec<(usize, usize, bool)> {
    let mut switches = Vec::new();
    let mut i = 0;
    while i + 3 < bytes.len() {
        if bytes[i] == 0x1b && bytes[i + 1] == b'[' && bytes[i + 2] == b'?' {
            let len = escape_len(&bytes[i..]);
            let seq = &bytes[i + 3..i + len];
            if let Some((&last, params)) = seq.split_last() {
                if last == b'h' || last == b'l' {
                    let alt = params
                        .split(|&b| b == b';')
                        .any(|p| matches!(p, b"1049" | b"1047" | b"47"));
                    if alt {
                        switches.push((i, i + len, last == b'h'));
                    }
                }
            }
            i += len.max(1);
        } else {
            i += 1;
        }
    }
    switches
}

/// Of `bytes` (output after a mark), what is drawn on the screen that shows now
/// (`alternate_now`): on the primary screen, everything but what went to an alternate screen;
/// on an alternate screen, only what came after it was last entered.
pub fn on_the_screen_now(bytes: &[u8], alternate_now: bool) -> Vec<u8> {
    let switches = screen_switches(bytes);
    if switches.is_empty() {
        return bytes.to_vec();
    }
    if alternate_now {
        let from = switches
            .iter()
            .rev()
            .find(|(_, _, enters)| *enters)
            .map_or(0, |(_, end, _)| *end);
        return bytes[from..].to_vec();
    }
    // Each stretch between switches was on the screen the switch after it leaves: a stretch
    // ended by an exit was drawn on an alternate screen. The switches themselves are dropped,
    // so what is kept renders on one (primary) screen.
    let mut kept = Vec::with_capacity(bytes.len());
    let mut from = 0;
    for &(start, end, enters) in &switches {
        if enters {
            kept.extend_from_slice(&bytes[from..start]);
        }
        from = end;
    }
    kept.extend_from_slice(&bytes[from..]);
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_echo_of_a_typed_line_is_not_output() {
        let out = b"sleep 2; echo ECHO-$((1))\r\nECHO-1\r\n$ ";
        assert_eq!(
            without_echo(out, b"sleep 2; echo ECHO-$((1))\r"),
            b"ECHO-1\r\n$ "
        );
    }

    #[test]
    fn readline_redrawing_inside_the_echo_is_skipped() {
        let out = b"echo a\x1b[?2004l\rb\r\n";
        assert_eq!(
            without_echo(b"ech\x07o hi\r\nhi\r\n", b"echo hi\r"),
            b"hi\r\n"
        );
        assert_eq!(without_echo(out, b"echo a\r"), b"b\r\n");
    }

    #[test]
    fn a_prompt_redrawn_with_the_typed_line_is_no_output() {
        let out = b"\r>>> import time; print('do' + 'ne')\r\ndone\r\n>>> ";
        assert_eq!(
            without_echo(out, b"import time; print('do' + 'ne')\r"),
            b"done\r\n>>> "
        );
    }

    #[test]
    fn output_that_is_no_echo_is_kept_whole() {
        assert_eq!(without_echo(b"vim draws\r\n", b":wq\r"), b"vim draws\r\n");
        assert_eq!(without_echo(b"^Cdone", b"\x03"), b"done");
    }

    #[test]
    fn the_command_line_between_b_and_c_is_not_output() {
        let bytes = b"make\r\nbuilt\r\n$ ";
        let regions = [(5, Region::Other)];
        let after = AfterMark {
            start: 0,
            bytes,
            region_at_start: Region::Input,
            regions: &regions,
            typed: &[(0, b"make\r".to_vec())],
        };
        assert_eq!(after.program_output(), b"\nbuilt\r\n$ ");
    }

    #[test]
    fn what_an_alternate_screen_drew_before_it_was_left_is_gone() {
        let bytes = b"row of less\x1b[?1049l$ ";
        assert_eq!(on_the_screen_now(bytes, false), b"$ ");
        let bytes = b"a\x1b[?1049hless\x1b[?1049lb";
        assert_eq!(on_the_screen_now(bytes, false), b"ab");
        assert_eq!(on_the_screen_now(b"a\x1b[?1049hvim", true), b"vim");
    }
}
