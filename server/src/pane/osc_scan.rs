//! Finds OSC 133 semantic-prompt marks, and OSC 9;4 progress reports, in a raw PTY byte stream,
//! however the stream is split into reads. The engine keeps the marks per cell; this scanner
//! turns them into events (command started, command finished with its exit code) the moment
//! they are read, and the latest progress report into what detection's `osc-progress` region
//! reads.

/// An OSC 133 mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    PromptStart,
    InputStart,
    CommandStarted,
    CommandFinished(Option<i32>),
    /// OSC 9;4;STATE;PERCENT: a program's progress (state 0 clears it).
    Progress {
        state: u8,
        percent: Option<u8>,
    },
}

impl Mark {
    /// A progress report as the `osc-progress` region shows it: its payload without `9;`.
    pub fn progress_payload(self) -> Option<String> {
        match self {
            Mark::Progress { state, percent } => Some(format!(
                "4;{state};{}",
                percent.map(|p| p.to_string()).unwrap_or_default()
            )),
            _ => None,
        }
    }
}

/// Longest OSC payload kept; longer ones (titles, clipboard data) are skipped, not buffered.
const MAX_PAYLOAD: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum State {
    #[default]
    Ground,
    Escape,
    Osc,
    OscEscape,
}

#[derive(Debug, Default)]
pub struct OscScanner {
    state: State,
    payload: Vec<u8>,
    overflowed: bool,
}

impl OscScanner {
    /// Feeds one read; returns the marks completed in it, in order.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Mark> {
        self.feed_at(bytes)
            .into_iter()
            .map(|(mark, _)| mark)
            .collect()
    }

    /// Like `feed`, with each mark's end: the offset in `bytes` just past its terminator.
    pub fn feed_at(&mut self, bytes: &[u8]) -> Vec<(Mark, usize)> {
        let mut marks = Vec::new();
        let mut at = 0;
        while at < bytes.len() {
            if self.state == State::Ground {
                // Outside a sequence only ESC matters: skip to the next one at memchr's speed
                // rather than a byte at a time (a flood's reader scans every byte it reads).
                match memchr::memchr(0x1b, &bytes[at..]) {
                    Some(skip) => at += skip,
                    None => break,
                }
            }
            if let Some(mark) = self.step(bytes[at]) {
                marks.push((mark, at + 1));
            }
            at += 1;
        }
        marks
    }

    fn step(&mut self, byte: u8) -> Option<Mark> {
        match (self.state, byte) {
            (State::Ground, 0x1b) => self.state = State::Escape,
            (State::Ground, _) => {}
            (State::Escape, b']') => {
                self.state = State::Osc;
                self.payload.clear();
                self.overflowed = false;
            }
            (State::Escape, 0x1b) => {}
            (State::Escape, _) => self.state = State::Ground,
            (State::Osc, 0x07) => return self.finish(),
            (State::Osc, 0x1b) => self.state = State::OscEscape,
            (State::Osc, 0x18 | 0x1a) => self.state = State::Ground,
            (State::Osc, _) => self.push(byte),
            (State::OscEscape, b'\\') => return self.finish(),
            (State::OscEscape, b']') => {
                // ESC ] inside an OSC aborts it and starts a new one.
                self.state = State::Osc;
                self.payload.clear();
                self.overflowed = false;
            }
            (State::OscEscape, _) => self.state = State::Ground,
        }
        None
    }

    fn push(&mut self, byte: u8) {
        if self.payload.len() < MAX_PAYLOAD {
            self.payload.push(byte);
        } else {
            self.overflowed = true;
        }
    }

    fn finish(&mut self) -> Option<Mark> {
        self.state = State::Ground;
        if self.overflowed {
            return None;
        }
        parse_133(&self.payload).or_else(|| parse_progress(&self.payload))
    }
}

fn parse_progress(payload: &[u8]) -> Option<Mark> {
    let rest = payload.strip_prefix(b"9;4;")?;
    let text = std::str::from_utf8(rest).ok()?;
    let mut fields = text.split(';');
    let state: u8 = fields.next()?.trim().parse().ok().filter(|s| *s <= 4)?;
    let percent = fields
        .next()
        .and_then(|p| p.trim().parse::<u8>().ok())
        .map(|p| p.min(100));
    Some(Mark::Progress { state, percent })
}

fn parse_133(payload: &[u8]) -> Option<Mark> {
    let rest = payload.strip_prefix(b"133;")?;
    let text = std::str::from_utf8(rest).ok()?;
    let mut fields = text.split(';');
    match fields.next()? {
        "A" => Some(Mark::PromptStart),
        "B" => Some(Mark::InputStart),
        "C" => Some(Mark::CommandStarted),
        "D" => Some(Mark::CommandFinished(
            fields.next().and_then(|code| code.trim().parse().ok()),
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STREAM: &[u8] =
        b"\x1b]133;A\x07$ \x1b]133;B\x1b\\ls\r\n\x1b]0;title\x07\x1b]133;C\x07out\x1b]133;D;42\x07";

    #[test]
    fn finds_every_mark_with_the_exit_code() {
        let marks = OscScanner::default().feed(STREAM);
        assert_eq!(
            marks,
            vec![
                Mark::PromptStart,
                Mark::InputStart,
                Mark::CommandStarted,
                Mark::CommandFinished(Some(42))
            ]
        );
    }

    #[test]
    fn every_split_point_finds_the_same_marks() {
        let whole = OscScanner::default().feed(STREAM);
        for at in 0..=STREAM.len() {
            let mut scanner = OscScanner::default();
            let mut marks = scanner.feed(&STREAM[..at]);
            marks.extend(scanner.feed(&STREAM[at..]));
            assert_eq!(marks, whole, "split at {at}");
        }
    }

    /// The skip to the next ESC finds what a byte at a time finds, at the same offsets, with
    /// plain text, CSI sequences and ESC ESC around the marks.
    #[test]
    fn skipping_plain_text_finds_the_same_marks_at_the_same_offsets() {
        let mut stream = b"plain \x1b[1mbold\x1b[0m \x1b\x1b]133;C\x07".to_vec();
        stream.extend(std::iter::repeat_n(b'x', 5_000));
        stream.extend_from_slice(STREAM);
        stream.extend_from_slice(b"tail \x1b]9;4;1;7\x1b\\ end");
        let whole = OscScanner::default().feed_at(&stream);
        let mut scanner = OscScanner::default();
        let mut bytewise = Vec::new();
        for (i, byte) in stream.iter().enumerate() {
            let found = scanner.feed_at(std::slice::from_ref(byte));
            bytewise.extend(found.into_iter().map(|(mark, end)| (mark, end + i)));
        }
        assert_eq!(whole, bytewise);
        assert_eq!(whole.len(), 6, "{whole:?}");
    }

    #[test]
    fn finish_without_code_and_long_oscs_are_handled() {
        let mut scanner = OscScanner::default();
        let mut stream = b"\x1b]2;".to_vec();
        stream.extend(std::iter::repeat_n(b'x', 10_000));
        stream.extend_from_slice(b"\x07\x1b]133;D\x07");
        assert_eq!(scanner.feed(&stream), vec![Mark::CommandFinished(None)]);
    }

    /// OSC 9;4 progress reports are read however the stream is split, ended by BEL or ST.
    #[test]
    fn progress_reports_are_read_and_shown_without_their_9() {
        let mut scanner = OscScanner::default();
        let stream = b"x\x1b]9;4;3;\x07y\x1b]9;4;1;50\x1b\\\x1b]9;4;9;1\x07\x1b]9;hello\x07";
        let mut marks = Vec::new();
        for byte in stream {
            marks.extend(scanner.feed(&[*byte]));
        }
        let payloads: Vec<String> = marks
            .into_iter()
            .filter_map(Mark::progress_payload)
            .collect();
        assert_eq!(payloads, vec!["4;3;", "4;1;50"]);
    }
}
