//! Working-looking rows: the shapes every agent's busy indicator takes (a spinner glyph, a verb
//! with an ellipsis and an elapsed time; a braille spinner before a step; an interrupt hint),
//! independent of any manifest. They back two guards: no rule matching never reads as idle
//! while such a row is on screen (the fail-safe), and `explain` says, for a screen read as idle
//! beside one, which working rule would have matched had it been allowed.

use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use crate::agents::manifest::Manifest;
use crate::agents::record::AgentState;
use crate::agents::region::Region;
use crate::agents::Screen;

/// How many of the bottom non-empty rows are searched: a live indicator sits near the input.
const SEARCHED_ROWS: usize = 16;

/// The shapes of a busy indicator, each a pattern one row must match.
const SHAPES: [&str; 4] = [
    // `✻ Kneading… (1s · …)`, `• Working (12s • esc to interrupt)`
    r"^\s*[^\w\s]\s+\w[^()]{0,80}\(\s*\d+m?\s*\d*[smh]\b",
    // `⠹ Working...`, `⠼ bash cargo test ⟦esc⟧`
    r"^\s*[\x{2800}-\x{28FF}]\s+\w[^()]{0,60}(…|\.\.\.|⟦esc⟧)",
    // the interrupt hint, in its spellings
    r"(?i)\besc (again )?(to )?interrupt\b",
    r"⟦esc⟧",
];

fn shapes() -> &'static [Regex] {
    static SHAPES_RE: OnceLock<Vec<Regex>> = OnceLock::new();
    SHAPES_RE.get_or_init(|| SHAPES.iter().filter_map(|s| Regex::new(s).ok()).collect())
}

/// The bottom-most working-looking row among the screen's last rows, if any.
pub fn working_row(lines: &[String]) -> Option<String> {
    lines
        .iter()
        .map(|l| l.trim_end())
        .filter(|l| !l.is_empty())
        .rev()
        .take(SEARCHED_ROWS)
        .find(|row| shapes().iter().any(|re| re.is_match(row)))
        .map(str::to_owned)
}

/// A working rule that did not decide a screen read as idle beside a working-looking row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NearMiss {
    pub rule: String,
    /// The working-looking row.
    pub row: String,
    /// Whether the rule's predicate matches that row (it would have decided, had it been allowed).
    pub would_match: bool,
    pub reason: String,
}

/// For a screen read as `state` (by rule `winner`, if any): when it is idle and a
/// working-looking row is on it, each working rule and why it did not decide.
pub fn near_misses(
    manifest: &Manifest,
    screen: &Screen<'_>,
    state: AgentState,
    winner: Option<&str>,
) -> Vec<NearMiss> {
    if state != AgentState::Idle {
        return Vec::new();
    }
    let Some(row) = working_row(screen.lines) else {
        return Vec::new();
    };
    let alone = [row.clone()];
    manifest
        .rules
        .iter()
        .filter(|r| r.state == Some(AgentState::Working))
        .map(|rule| {
            let in_region = rule.predicate.matches(&rule.region.resolve(screen));
            let on_row = rule.predicate.matches(&alone)
                || rule.predicate.matches(&Region::Viewport.resolve(screen));
            let reason = if in_region {
                format!(
                    "it matched, but rule {} outranked it",
                    winner.unwrap_or("(none)")
                )
            } else if on_row {
                format!(
                    "it would have matched had its region ({}) held the row",
                    rule.region
                )
            } else {
                "its predicate does not match the row".to_owned()
            };
            NearMiss {
                rule: rule.id.clone(),
                row: row.clone(),
                would_match: in_region || on_row,
                reason,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn each_indicator_shape_is_seen_and_finished_turns_are_not() {
        for row in [
            "✻ Kneading… (1s · thinking with high effort)",
            "• Exploring the lexer (1m 03s • esc to interrupt)",
            " ⠹ Working...",
            " ⠼ bash cargo test  ⟦esc⟧",
            "  ■■■⬝⬝⬝⬝⬝  esc interrupt",
        ] {
            assert!(working_row(&rows(row)).is_some(), "{row}");
        }
        for row in ["✻ Worked for 1m 12s", "❯ ", "  ? for shortcuts"] {
            assert_eq!(working_row(&rows(row)), None, "{row}");
        }
    }
}
