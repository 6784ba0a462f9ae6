//! Timed keystrokes → the body of a tape: runs of text as `Type`, keys with repeat counts
//! (`Backspace 3`), one `Set TypingSpeed` from the median gap between keys, and every pause of
//! at least the idle threshold as `Sleep`. Strings are quoted as the tape's lexer reads them:
//! with `"`, `'` or `` ` `` (there are no escapes), whichever the text lacks.

use super::decode::Stroke;

/// A keystroke and when the server saw it (nanoseconds, the tap's clock).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Timed {
    pub t_ns: u64,
    pub stroke: Stroke,
}

/// One line of a tape's body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Type(String),
    Key { name: String, count: u32 },
    Sleep { ms: u64 },
    Comment(String),
}

/// The typing speed when too few keys were typed to measure one (the tape's default).
pub const DEFAULT_TYPING_MS: u64 = 50;
/// The longest `Sleep` before the first key (the tape runner waits for the shell's first
/// output itself; a recorder started long before the typing began need not make a tape wait).
pub const MAX_LEADING_MS: u64 = 1000;

/// The body of the tape and the typing speed it assumes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Body {
    pub typing_ms: u64,
    pub lines: Vec<Line>,
}

impl Body {
    /// Commands the body holds (comments are none).
    pub fn commands(&self) -> usize {
        self.lines
            .iter()
            .filter(|l| !matches!(l, Line::Comment(_)))
            .count()
    }
}

/// Composes the body from `strokes` typed between `start_ns` and `end_ns`; a pause of at least
/// `idle_ms` becomes a `Sleep`, and so does the wait after an Enter longer than two keys'
/// time, and the time after the last key (at least `idle_ms`, so the tape's last screen has
/// time to be drawn).
pub fn compose(strokes: &[Timed], start_ns: u64, end_ns: u64, idle_ms: u64) -> Body {
    let idle_ns = idle_ms.saturating_mul(1_000_000);
    let typing_ms = typing_speed(strokes, idle_ns);
    let mut out = Composer {
        lines: Vec::new(),
        text: String::new(),
    };
    let mut last: Option<u64> = None;
    let mut last_key: Option<&str> = None;
    for timed in strokes {
        let gap = timed.t_ns.saturating_sub(last.unwrap_or(start_ns));
        // The wait after Enter is a command's answer, not typing: kept whenever it is longer
        // than two keys' time, so the replay does not type into a command still running.
        let answered = last_key == Some("Enter") && gap > 2 * typing_ms * 1_000_000;
        if gap >= idle_ns.max(1) || answered {
            out.flush();
            // After a key the runner already waits TypingSpeed: the Sleep is the rest. Before
            // the first key, the time it took to reach the pane is not the demo's.
            let ms = match last {
                Some(_) => (gap / 1_000_000).saturating_sub(typing_ms),
                None => (gap / 1_000_000).min(MAX_LEADING_MS),
            };
            out.lines.push(Line::Sleep { ms: ms.max(1) });
            last_key = None;
        }
        last = Some(timed.t_ns);
        match &timed.stroke {
            Stroke::Char(c) => {
                out.text.push(*c);
                last_key = None;
            }
            Stroke::Key(name) => {
                out.flush();
                match out.lines.last_mut() {
                    Some(Line::Key { name: prev, count })
                        if last_key == Some(name.as_str()) && prev == name =>
                    {
                        *count += 1
                    }
                    _ => out.lines.push(Line::Key {
                        name: name.clone(),
                        count: 1,
                    }),
                }
                last_key = Some(name);
            }
            Stroke::Unwritable(raw) => {
                out.flush();
                out.lines.push(Line::Comment(format!(
                    "not recorded: {raw} (the tape language has no such key)"
                )));
                last_key = None;
            }
        }
    }
    out.flush();
    let tail_ms = end_ns.saturating_sub(last.unwrap_or(start_ns)) / 1_000_000;
    let waited = if last.is_some() { typing_ms } else { 0 };
    out.lines.push(Line::Sleep {
        ms: tail_ms.saturating_sub(waited).max(idle_ms).max(1),
    });
    Body {
        typing_ms,
        lines: out.lines,
    }
}

struct Composer {
    lines: Vec<Line>,
    text: String,
}

impl Composer {
    /// Ends the run of text being typed.
    fn flush(&mut self) {
        if !self.text.is_empty() {
            self.lines.push(Line::Type(std::mem::take(&mut self.text)));
        }
    }
}

/// The median gap between keys typed without a pause (shorter than the idle threshold), in
/// whole milliseconds (at least 1); the tape's default when none was.
fn typing_speed(strokes: &[Timed], idle_ns: u64) -> u64 {
    let mut gaps: Vec<u64> = strokes
        .windows(2)
        .map(|w| w[1].t_ns.saturating_sub(w[0].t_ns))
        // Keys sent in one write (`send-keys "ls" Enter`) have no gap of a person's typing.
        .filter(|gap| *gap > 0 && *gap < idle_ns)
        .collect();
    if gaps.is_empty() {
        return DEFAULT_TYPING_MS;
    }
    gaps.sort_unstable();
    let middle = gaps.len() / 2;
    let median = if gaps.len() % 2 == 0 {
        (gaps[middle - 1] + gaps[middle]) / 2
    } else {
        gaps[middle]
    };
    ((median + 500_000) / 1_000_000).max(1)
}

/// `text` quoted so the tape's lexer reads it back as it is: the first of `"`, `'`, `` ` ``
/// it does not hold. `None` when it holds all three.
pub fn quoted(text: &str) -> Option<String> {
    ['"', '\'', '`']
        .into_iter()
        .find(|q| !text.contains(*q))
        .map(|q| format!("{q}{text}{q}"))
}

/// `text` cut into pieces each of which some quote can hold (a piece ends before the
/// character that would make it hold all three).
fn quotable_pieces(text: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut piece = String::new();
    for c in text.chars() {
        piece.push(c);
        if quoted(&piece).is_none() {
            piece.pop();
            pieces.push(std::mem::take(&mut piece));
            piece.push(c);
        }
    }
    if !piece.is_empty() {
        pieces.push(piece);
    }
    pieces
}

/// A time as the tape writes it: `250ms`, `2s`, `1.25s`.
pub fn time(ms: u64) -> String {
    if ms < 1000 {
        return format!("{ms}ms");
    }
    if ms % 1000 == 0 {
        return format!("{}s", ms / 1000);
    }
    let secs = format!("{:.3}", ms as f64 / 1000.0);
    format!("{}s", secs.trim_end_matches('0'))
}

/// The body as tape text, one command a line.
pub fn render(lines: &[Line]) -> String {
    let mut out = String::new();
    for line in lines {
        match line {
            Line::Type(text) => {
                for piece in quotable_pieces(text) {
                    let q = quoted(&piece).unwrap_or_default();
                    out.push_str(&format!("Type {q}\n"));
                }
            }
            Line::Key { name, count: 1 } => out.push_str(&format!("{name}\n")),
            Line::Key { name, count } => out.push_str(&format!("{name} {count}\n")),
            Line::Sleep { ms } => out.push_str(&format!("Sleep {}\n", time(*ms))),
            Line::Comment(text) => out.push_str(&format!("# {text}\n")),
        }
    }
    out
}

#[cfg(test)]
#[path = "compose_tests.rs"]
mod tests;
