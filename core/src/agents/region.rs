//! Regions: where on the screen a rule's predicate looks. Resolved against the live viewport
//! (never scrollback), rows right-trimmed. The table of names is the manifest grammar's own
//! spelling, so a region read from `explain` can be typed back into a rule.

use std::fmt;

/// Default row counts and the clamp for the counted regions.
const BOTTOM_LINES_DEFAULT: usize = 6;
const TOP_LINES_DEFAULT: usize = 1;
const COUNT_CLAMP: usize = 512;
/// How many hint rows below a box `prompt-box` looks past when scanning up from the bottom.
const PROMPT_BOX_HINT_ROWS: usize = 4;
/// The shortest row a horizontal rule can be.
const RULE_MIN_CHARS: usize = 8;

/// One region of the grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Region {
    Title,
    OscProgress,
    Viewport,
    BottomLines(usize),
    TopNonEmptyLines(usize),
    AfterLastRule,
    PromptBox,
}

/// The region names, in the order `explain` previews them (then `osc-progress` and
/// `top-non-empty-lines`, which the contract's list leaves out).
pub const REGION_NAMES: [&str; 7] = [
    "title",
    "prompt-box",
    "after-last-rule",
    "bottom-lines",
    "viewport",
    "osc-progress",
    "top-non-empty-lines",
];

impl Region {
    /// Parses `name` or `name(N)`; `None` for anything else.
    pub fn parse(text: &str) -> Option<Region> {
        let (name, count) = match text.split_once('(') {
            Some((name, rest)) => {
                let digits = rest.strip_suffix(')')?;
                let n: usize = digits.trim().parse().ok()?;
                (name, Some(n.min(COUNT_CLAMP)))
            }
            None => (text, None),
        };
        Some(match (name, count) {
            ("title", None) => Region::Title,
            ("osc-progress", None) => Region::OscProgress,
            ("viewport", None) => Region::Viewport,
            ("after-last-rule", None) => Region::AfterLastRule,
            ("prompt-box", None) => Region::PromptBox,
            ("bottom-lines", n) => Region::BottomLines(n.unwrap_or(BOTTOM_LINES_DEFAULT)),
            ("top-non-empty-lines", n) => Region::TopNonEmptyLines(n.unwrap_or(TOP_LINES_DEFAULT)),
            _ => return None,
        })
    }

    /// The lines this region sees on `screen`.
    pub fn resolve(self, screen: &crate::agents::Screen<'_>) -> Vec<String> {
        let rows: Vec<&str> = screen.lines.iter().map(|l| l.trim_end()).collect();
        match self {
            Region::Title => vec![screen.title.to_owned()],
            Region::OscProgress => {
                if screen.osc_progress.is_empty() {
                    Vec::new()
                } else {
                    vec![screen.osc_progress.to_owned()]
                }
            }
            Region::Viewport => owned(&rows),
            Region::BottomLines(n) => {
                let mut last: Vec<&str> = rows
                    .iter()
                    .rev()
                    .filter(|r| !r.is_empty())
                    .take(n)
                    .copied()
                    .collect();
                last.reverse();
                owned(&last)
            }
            Region::TopNonEmptyLines(n) => {
                let first: Vec<&str> = rows
                    .iter()
                    .filter(|r| !r.is_empty())
                    .take(n)
                    .copied()
                    .collect();
                owned(&first)
            }
            Region::AfterLastRule => match rows.iter().rposition(|r| is_rule(r)) {
                Some(at) => owned(&rows[at + 1..]),
                None => Vec::new(),
            },
            Region::PromptBox => prompt_box(&rows),
        }
    }
}

impl fmt::Display for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Region::Title => f.write_str("title"),
            Region::OscProgress => f.write_str("osc-progress"),
            Region::Viewport => f.write_str("viewport"),
            Region::BottomLines(n) if *n == BOTTOM_LINES_DEFAULT => f.write_str("bottom-lines"),
            Region::BottomLines(n) => write!(f, "bottom-lines({n})"),
            Region::TopNonEmptyLines(n) if *n == TOP_LINES_DEFAULT => {
                f.write_str("top-non-empty-lines")
            }
            Region::TopNonEmptyLines(n) => write!(f, "top-non-empty-lines({n})"),
            Region::AfterLastRule => f.write_str("after-last-rule"),
            Region::PromptBox => f.write_str("prompt-box"),
        }
    }
}

fn owned(rows: &[&str]) -> Vec<String> {
    rows.iter().map(|r| (*r).to_owned()).collect()
}

fn is_line_char(c: char) -> bool {
    matches!(c, '─' | '━' | '═' | '╌' | '┄' | '┈' | '—' | '-' | '_')
}

fn is_box_char(c: char) -> bool {
    is_line_char(c) || ('\u{2500}'..='\u{257F}').contains(&c)
}

/// A horizontal rule: trimmed, at least 8 characters of line and box glyphs, and mostly line.
pub fn is_rule(row: &str) -> bool {
    let trimmed = row.trim();
    let count = trimmed.chars().count();
    count >= RULE_MIN_CHARS
        && trimmed.chars().all(is_box_char)
        && trimmed.chars().filter(|c| is_line_char(*c)).count() * 2 >= count
}

fn is_side(c: char) -> bool {
    matches!(c, '│' | '┃' | '║' | '▌' | '▐')
}

/// A row bordered by a box side on its left (and maybe its right): its body without them.
fn boxed_body(row: &str) -> Option<String> {
    let trimmed = row.trim();
    let mut chars = trimmed.chars();
    let first = chars.next()?;
    if !is_side(first) {
        return None;
    }
    let body: String = chars.collect();
    let body = body.trim_end();
    let body = body.strip_suffix(|c: char| is_side(c)).unwrap_or(body);
    Some(body.trim().to_owned())
}

/// The body of the bottom-most box: rows bordered by `│┃` or fenced between two rules, found
/// scanning up from the bottom past at most a few hint rows.
fn prompt_box(rows: &[&str]) -> Vec<String> {
    let mut end = rows.len();
    while end > 0 && rows[end - 1].trim().is_empty() {
        end -= 1;
    }
    let mut skipped = 0;
    while end > 0 && skipped <= PROMPT_BOX_HINT_ROWS {
        let row = rows[end - 1];
        if boxed_body(row).is_some() {
            let mut start = end;
            while start > 0 && boxed_body(rows[start - 1]).is_some() {
                start -= 1;
            }
            return rows[start..end]
                .iter()
                .filter_map(|r| boxed_body(r))
                .collect();
        }
        if is_rule(row) || is_corner_rule(row) {
            // A fence: the rows between this rule and the one above it.
            let bottom = end - 1;
            if let Some(top) = rows[..bottom]
                .iter()
                .rposition(|r| is_rule(r) || is_corner_rule(r))
            {
                return rows[top + 1..bottom]
                    .iter()
                    .map(|r| boxed_body(r).unwrap_or_else(|| r.trim().to_owned()))
                    .collect();
            }
            return Vec::new();
        }
        end -= 1;
        if !row.trim().is_empty() {
            skipped += 1;
        }
    }
    Vec::new()
}

/// A box's top or bottom edge (`╭────╮`, `└────┘`).
fn is_corner_rule(row: &str) -> bool {
    let trimmed = row.trim();
    trimmed.chars().count() >= RULE_MIN_CHARS
        && trimmed.chars().all(is_box_char)
        && trimmed.chars().any(is_line_char)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::Screen;

    fn screen<'a>(lines: &'a [String]) -> Screen<'a> {
        Screen {
            lines,
            title: "t",
            osc_progress: "",
        }
    }

    fn rows(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn names_round_trip_and_counts_clamp() {
        for name in [
            "title",
            "bottom-lines(3)",
            "after-last-rule",
            "prompt-box",
            "viewport",
        ] {
            assert_eq!(Region::parse(name).unwrap().to_string(), name);
        }
        assert_eq!(
            Region::parse("bottom-lines(9999)"),
            Some(Region::BottomLines(512))
        );
        assert_eq!(Region::parse("bottom"), None);
        assert_eq!(Region::parse("title(2)"), None);
    }

    #[test]
    fn after_last_rule_is_empty_without_a_rule() {
        let lines = rows("hello\nworld");
        assert!(Region::AfterLastRule.resolve(&screen(&lines)).is_empty());
        let lines = rows("a\n────────────\nb\n──────────\nc\nd  ");
        assert_eq!(
            Region::AfterLastRule.resolve(&screen(&lines)),
            vec!["c", "d"]
        );
    }

    #[test]
    fn prompt_box_finds_the_bordered_or_fenced_body() {
        let lines = rows("text\n╭──────────╮\n│ > hi     │\n╰──────────╯\n  ? for shortcuts\n");
        assert_eq!(Region::PromptBox.resolve(&screen(&lines)), vec!["> hi"]);
        let lines = rows("text\n────────────\n❯ type here\n────────────\n  footer");
        assert_eq!(
            Region::PromptBox.resolve(&screen(&lines)),
            vec!["❯ type here"]
        );
        let lines = rows("just text\nmore");
        assert!(Region::PromptBox.resolve(&screen(&lines)).is_empty());
    }
}
