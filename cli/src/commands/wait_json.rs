//! The document `wait --json` prints: the final ScreenState with its keys as they are, plus
//! whether the wait matched, the line that matched and the viewport row showing it, and with
//! `--tail N` exactly the last N rows.

use serde::Serialize;

use phux_core::docs::ScreenState;

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

/// The last viewport row whose (non-blank) text is part of `line`.
fn row_showing(screen: &ScreenState, line: &str) -> Option<usize> {
    screen.lines.iter().rposition(|row| {
        let row = row.trim_end();
        !row.is_empty() && line.contains(row)
    })
}

/// The last `n` rows of history and viewport (0: all), without the blank rows below the last
/// one written: N rows of content, as the prose view shows them.
fn last_rows(screen: &ScreenState, n: usize) -> Vec<String> {
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
    }

    #[test]
    fn tail_lines_are_exactly_n_rows_of_content() {
        let mut s = screen(&["c", "d", "", ""]);
        s.scrollback = vec!["a".into(), "b".into()];
        assert_eq!(last_rows(&s, 3), ["b", "c", "d"]);
        assert_eq!(last_rows(&s, 0), ["a", "b", "c", "d"]);
    }
}
