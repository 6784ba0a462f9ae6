//! Reading a blocked screen's dialog: its question and its choices in order, so the dialog can
//! become an ask that `agent answer --choice N` picks from. The dialog is read from the rows the
//! winning blocked rule looked at (below the last rule, the input box, the bottom rows), never
//! the whole screen, so a quoted dialog in the transcript is never what is read.
//!
//! Three shapes are known: a numbered list (`❯ 1. Yes`, `  2. No`), a pointer list (`→ Yes`
//! over `  No`, the pointer on the selected row) and a row of choices (`Allow once   Allow
//! always   Reject`); when several are there, the one nearest the bottom is the dialog. The
//! question is the nearest row above the choices that ends in `?`, else the region's first row.

use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

/// The glyphs that mark a dialog's selected row.
const POINTERS: [char; 5] = ['❯', '›', '→', '▶', '●'];
/// Words that make a row a key hint rather than a choice.
const HINT_WORDS: [&str; 6] = [
    "navigate",
    "enter ",
    "esc ",
    "select",
    "confirm",
    "to cancel",
];
/// Longest a choice in a row of choices may be.
const ROW_CHOICE_MAX_CHARS: usize = 32;

/// A dialog as it is drawn: what it asks and the choices, top to bottom (left to right).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Dialog {
    pub question: String,
    pub choices: Vec<String>,
    /// Which choice carries the pointer (0-based), when one does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selected: Option<usize>,
}

impl Dialog {
    /// The id of the ask this dialog becomes: `screen-` and a hash of its question and choices,
    /// the same for as long as the same dialog is drawn.
    pub fn ask_id(&self) -> String {
        // FNV-1a: stable across runs and releases, which a std hasher does not promise.
        let mut hash: u32 = 0x811c_9dc5;
        let text =
            std::iter::once(self.question.as_str()).chain(self.choices.iter().map(String::as_str));
        for part in text {
            for byte in part.bytes().chain(std::iter::once(b'\n')) {
                hash ^= u32::from(byte);
                hash = hash.wrapping_mul(0x0100_0193);
            }
        }
        format!("screen-{hash:08x}")
    }
}

fn numbered_row() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    #[allow(clippy::expect_used)] // a constant pattern, proven by the tests
    RE.get_or_init(|| {
        Regex::new(r"^\s*([❯›→▶●>]\s*)?(\d{1,2})[.)]\s+(\S.*?)\s*$").expect("pattern")
    })
}

/// Reads the dialog in `lines` (a region's rows), if they hold one with at least two choices.
pub fn read(lines: &[String]) -> Option<Dialog> {
    let rows: Vec<&str> = lines.iter().map(|l| l.trim_end()).collect();
    // The list nearest the bottom is the live one: the others are transcript above it. On a
    // tie the last listed wins: a numbered list is also a pointer list, read without numbers.
    let (start, choices, selected) = [choice_row(&rows), pointer_list(&rows), numbered(&rows)]
        .into_iter()
        .flatten()
        .max_by_key(|(start, _, _)| *start)?;
    Some(Dialog {
        question: question(&rows[..start]),
        choices,
        selected,
    })
}

type Found = (usize, Vec<String>, Option<usize>);

/// The bottom-most run of rows numbered 1, 2, 3...
fn numbered(rows: &[&str]) -> Option<Found> {
    let re = numbered_row();
    let mut best: Option<Found> = None;
    let mut index = 0;
    while index < rows.len() {
        let starts_run = re
            .captures(rows[index])
            .is_some_and(|c| c.get(2).is_some_and(|n| n.as_str() == "1"));
        if !starts_run {
            index += 1;
            continue;
        }
        let start = index;
        let mut choices = Vec::new();
        let mut selected = None;
        while let Some(caps) = rows.get(index).and_then(|r| re.captures(r)) {
            if caps.get(2).map(|n| n.as_str()) != Some(&(choices.len() + 1).to_string()) {
                break;
            }
            if caps.get(1).is_some() {
                selected = Some(choices.len());
            }
            choices.push(caps.get(3).map_or("", |m| m.as_str()).to_owned());
            index += 1;
        }
        if choices.len() >= 2 {
            best = Some((start, choices, selected));
        }
    }
    best
}

fn is_hint(row: &str) -> bool {
    let lower = row.to_lowercase();
    HINT_WORDS.iter().any(|w| lower.contains(w))
}

fn pointed(row: &str) -> Option<&str> {
    let trimmed = row.trim_start();
    let first = trimmed.chars().next()?;
    if !POINTERS.contains(&first) {
        return None;
    }
    let rest = trimmed[first.len_utf8()..].trim();
    (!rest.is_empty()).then_some(rest)
}

/// The bottom-most pointer row and the rows beside it in the same block (no blank row between,
/// no hint, no question): the choices.
fn pointer_list(rows: &[&str]) -> Option<Found> {
    let at = rows
        .iter()
        .rposition(|r| pointed(r).is_some() && !is_hint(r))?;
    let member = |r: &str| !r.trim().is_empty() && !is_hint(r) && !r.trim_end().ends_with('?');
    let mut start = at;
    while start > 0 && member(rows[start - 1]) {
        start -= 1;
    }
    let mut end = at + 1;
    while end < rows.len() && member(rows[end]) {
        end += 1;
    }
    let choices: Vec<String> = rows[start..end]
        .iter()
        .map(|r| pointed(r).unwrap_or_else(|| r.trim()).to_owned())
        .collect();
    (choices.len() >= 2).then_some((start, choices, Some(at - start)))
}

/// The bottom-most row of two or more short choices set apart by wide gaps.
fn choice_row(rows: &[&str]) -> Option<Found> {
    rows.iter().enumerate().rev().find_map(|(index, row)| {
        if is_hint(row) || row.trim_end().ends_with('?') {
            return None;
        }
        let choices: Vec<String> = row
            .trim()
            .split("   ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_owned)
            .collect();
        let short = choices.iter().all(|c| {
            c.chars().count() <= ROW_CHOICE_MAX_CHARS
                && c.chars().next().is_some_and(char::is_alphabetic)
        });
        (choices.len() >= 2 && short).then_some((index, choices, None))
    })
}

/// The nearest row above the choices that asks (ends in `?`), else the first row with words.
fn question(above: &[&str]) -> String {
    let asks = above
        .iter()
        .rev()
        .map(|r| r.trim())
        .find(|r| r.ends_with('?'));
    let first = || {
        above
            .iter()
            .map(|r| r.trim())
            .find(|r| r.chars().any(char::is_alphanumeric))
    };
    let text = asks.or_else(first).unwrap_or_default();
    text.trim_start_matches(|c: char| !c.is_alphanumeric())
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn a_numbered_dialog_reads_its_question_and_choices() {
        let dialog = read(&rows(
            " Bash command\n   rm -rf ./tmp\n Do you want to proceed?\n ❯ 1. Yes\n   2. No, and tell Claude (esc)\n\n Esc to cancel",
        ))
        .unwrap();
        assert_eq!(dialog.question, "Do you want to proceed?");
        assert_eq!(dialog.choices, vec!["Yes", "No, and tell Claude (esc)"]);
        assert_eq!(dialog.selected, Some(0));
    }

    #[test]
    fn a_pointer_list_and_a_choice_row_read_in_order() {
        let dialog = read(&rows(
            "Trust project folder?\n/home/dev\n\n  Yes, trust\n→ No, exit\n\n↑↓ navigate  enter select",
        ))
        .unwrap();
        assert_eq!(dialog.question, "Trust project folder?");
        assert_eq!(dialog.choices, vec!["Yes, trust", "No, exit"]);
        assert_eq!(dialog.selected, Some(1));
        let dialog = read(&rows(
            "△ Permission required\n$ rm -rf dist\n\nAllow once   Allow always   Reject\n⇆ select  enter confirm",
        ))
        .unwrap();
        assert_eq!(dialog.question, "Permission required");
        assert_eq!(dialog.choices, vec!["Allow once", "Allow always", "Reject"]);
    }

    #[test]
    fn rows_without_choices_are_no_dialog() {
        assert_eq!(read(&rows("❯ \n")), None);
        assert_eq!(read(&rows("just text\n")), None);
    }
}
