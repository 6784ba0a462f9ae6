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
    /// The logical line that matched, as the pattern saw it (soft wraps joined; the cursor's
    /// row keeps its blanks up to the cursor).
    text: String,
    /// The viewport row (an index into `lines`) where that line starts: 0 when it began in
    /// the history above the viewport; null when it is no longer on the viewport. Same as
    /// `first_row`, the name older readers know.
    row: Option<usize>,
    /// The first and the last viewport row showing the line (a soft-wrapped line spans
    /// several); null when it is no longer on the viewport.
    first_row: Option<usize>,
    last_row: Option<usize>,
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
            found: matched.map(|text| {
                let rows = rows_showing(screen, &text);
                Match {
                    row: rows.map(|(first, _)| first),
                    first_row: rows.map(|(first, _)| first),
                    last_row: rows.map(|(_, last)| last),
                    text,
                }
            }),
            tail_lines: tail.map(|n| last_rows(screen, n)),
        }
    }
}

/// The viewport rows showing `line`, first and last: the last row whose text ends the line,
/// and the rows above it that wrapped into it making up the rest (or running off the top, where
/// the first is 0). Spaces are not compared: a wrapped row may end in them. A prompt row whose
/// text merely occurs inside the line is not it.
fn rows_showing(screen: &ScreenState, line: &str) -> Option<(usize, usize)> {
    let want = without_spaces(line);
    if want.is_empty() {
        return None;
    }
    let rows: Vec<String> = screen.lines.iter().map(|r| without_spaces(r)).collect();
    (0..rows.len()).rev().find_map(|end| {
        if rows[end].is_empty() || !want.ends_with(&rows[end]) {
            return None;
        }
        let mut rest = &want[..want.len() - rows[end].len()];
        let mut top = end;
        while !rest.is_empty() && top > 0 {
            top -= 1;
            match rest.strip_suffix(rows[top].as_str()) {
                Some(before) if !rows[top].is_empty() => rest = before,
                _ => return None,
            }
        }
        (rest.is_empty() || top == 0).then_some((top, end))
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
        assert_eq!(rows_showing(&s, ">>>"), Some((1, 1)));
        assert_eq!(rows_showing(&s, "gone"), None);
        // A later prompt row inside the matched line is not the line.
        assert_eq!(rows_showing(&s, ">>> import time"), Some((0, 0)));
        let s = screen(&["$ printf 'a\\nfoo1'", "a", "foo1", "$"]);
        assert_eq!(rows_showing(&s, "$ printf 'a\\nfoo1'"), Some((0, 0)));
    }

    #[test]
    fn a_wrapped_line_is_shown_by_its_first_and_last_rows() {
        let s = screen(&["$ echo abcdefghij", "klmnop", "abcdefghijklmnop", "$"]);
        assert_eq!(rows_showing(&s, "$ echo abcdefghijklmnop"), Some((0, 1)));
        assert_eq!(rows_showing(&s, "abcdefghijklmnop"), Some((2, 2)));
        // A line that began above the viewport.
        let s = screen(&["klmnop", "$"]);
        assert_eq!(rows_showing(&s, "$ echo abcdefghijklmnop"), Some((0, 0)));
    }

    #[test]
    fn tail_lines_are_exactly_n_rows_of_content() {
        let mut s = screen(&["c", "d", "", ""]);
        s.scrollback = vec!["a".into(), "b".into()];
        assert_eq!(last_rows(&s, 3), ["b", "c", "d"]);
        assert_eq!(last_rows(&s, 0), ["a", "b", "c", "d"]);
    }
}
