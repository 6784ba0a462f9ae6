//! The document `wait --json` prints: the final ScreenState with its keys as they are, plus
//! whether the wait matched, the line that matched and the viewport row showing it, and with
//! `--tail N` exactly the last N rows.

use phux_core::documents::ScreenState;
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct WaitJson<'a> {
    #[serde(flatten)]
    screen: &'a ScreenState,
    /// The wait's condition held (false: it timed out).
    met: bool,
    /// A text condition matched (false for an idle wait or a timeout).
    matched: bool,
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    found: Option<Match>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tail_lines: Option<Vec<String>>,
}

#[derive(Debug, Serialize)]
struct Match {
    /// The logical line that matched.
    text: String,
    /// The viewport row (an index into `lines`) showing the end of that line; null when it is
    /// no longer on the viewport.
    row: Option<usize>,
}

impl<'a> WaitJson<'a> {
    pub fn new(
        screen: &'a ScreenState,
        met: bool,
        matched: Option<String>,
        tail: Option<usize>,
    ) -> Self {
        WaitJson {
            screen,
            met,
            matched: matched.is_some(),
            found: matched.map(|text| Match {
                row: row_showing(screen, &text),
                text,
            }),
            tail_lines: tail.map(|n| last_rows(screen, n)),
        }
    }
}

/// The last viewport row that ends `line`: its text ends the line, and the rows above it that
/// wrapped into it make up the rest (or run off the top). Spaces are not compared: a wrapped
/// row may end in them. A prompt row whose text merely occurs inside the line is not it.
fn row_showing(screen: &ScreenState, line: &str) -> Option<usize> {
    let want = without_spaces(line);
    if want.is_empty() {
        return None;
    }
    let rows: Vec<String> = screen.lines.iter().map(|r| without_spaces(r)).collect();
    (0..rows.len()).rev().find(|&end| {
        if rows[end].is_empty() || !want.ends_with(&rows[end]) {
            return false;
        }
        let mut rest = &want[..want.len() - rows[end].len()];
        let mut top = end;
        while !rest.is_empty() && top > 0 {
            top -= 1;
            match rest.strip_suffix(rows[top].as_str()) {
                Some(before) if !rows[top].is_empty() => rest = before,
                _ => return false,
            }
        }
        rest.is_empty() || top == 0
    })
}

fn without_spaces(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The last `n` rows of history and viewport (0: all), without the blank rows below the last
/// one written: N rows of content, as the prose view shows them.
pub fn last_rows(screen: &ScreenState, n: usize) -> Vec<String> {
    let mut rows: Vec<String> = screen
        .scrollback
        .iter()
        .chain(&screen.lines)
        .cloned()
        .collect();
    while rows.last().is_some_and(|r| r.trim().is_empty()) {
        rows.pop();
    }
    if n > 0 && rows.len() > n {
        rows.drain(..rows.len() - n);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use phux_core::ids::PaneId;

    fn screen(lines: &[&str]) -> ScreenState {
        let lines = lines.iter().map(|l| (*l).to_owned()).collect();
        ScreenState::new(PaneId(1), 20, 4, lines)
    }

    #[test]
    fn the_match_row_is_the_last_row_showing_the_line() {
        let s = screen(&[">>> import time", ">>>", ""]);
        assert_eq!(row_showing(&s, ">>>"), Some(1));
        assert_eq!(row_showing(&s, "gone"), None);
        // A later prompt row inside the matched line is not the line.
        assert_eq!(row_showing(&s, ">>> import time"), Some(0));
        let s = screen(&["$ printf 'a\\nfoo1'", "a", "foo1", "$"]);
        assert_eq!(row_showing(&s, "$ printf 'a\\nfoo1'"), Some(0));
    }

    #[test]
    fn a_wrapped_line_is_shown_by_its_last_row() {
        let s = screen(&["$ echo abcdefghij", "klmnop", "abcdefghijklmnop", "$"]);
        assert_eq!(row_showing(&s, "$ echo abcdefghijklmnop"), Some(1));
        assert_eq!(row_showing(&s, "abcdefghijklmnop"), Some(2));
        // A line that began above the viewport.
        let s = screen(&["klmnop", "$"]);
        assert_eq!(row_showing(&s, "$ echo abcdefghijklmnop"), Some(0));
    }

    #[test]
    fn tail_lines_are_exactly_n_rows_of_content() {
        let mut s = screen(&["c", "d", "", ""]);
        s.scrollback = vec!["a".into(), "b".into()];
        assert_eq!(last_rows(&s, 3), ["b", "c", "d"]);
        assert_eq!(last_rows(&s, 0), ["a", "b", "c", "d"]);
    }
}
