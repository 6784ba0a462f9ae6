//! The bounds every size and name a user can hand phux is checked against, in one place: the
//! grid a pane may have, and what a session may be called. The server enforces them (it is the
//! one place every size passes through); the CLI checks the same values first so a bad
//! argument fails before a server is started or a command runs.

use crate::error_code::ErrorCode;
use crate::error_doc::ContractError;
use std::borrow::Cow;
use std::fmt::Write as _;

/// The widest grid a pane may have. The engine keeps about 8 bytes per cell plus a scrollback
/// budget proportional to the width: a server with one 1000×1000 pane and a full 10,000-row
/// history peaks at about 130 MB (measured with `tests/examples/hardening_figures.rs`), and a
/// snapshot of it takes a quarter of a second in a debug build, where 20000×20000 took the
/// server past 3 GB and 65535² would need 33 GB.
pub const MAX_GRID_COLS: u16 = 1000;
/// The tallest grid a pane may have (see [`MAX_GRID_COLS`]).
pub const MAX_GRID_ROWS: u16 = 1000;

/// A grid larger than [`MAX_GRID_COLS`]×[`MAX_GRID_ROWS`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "a {cols}x{rows} grid is larger than phux allows ({MAX_GRID_COLS}x{MAX_GRID_ROWS} at most)"
)]
pub struct GridTooLarge {
    pub cols: u16,
    pub rows: u16,
}

impl ContractError for GridTooLarge {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidArgument
    }

    fn remedy(&self) -> String {
        format!("ask for at most {MAX_GRID_COLS} columns and {MAX_GRID_ROWS} rows")
    }
}

/// Refuses a grid beyond the cap (0 is not refused here: it means 1 everywhere).
pub fn check_grid(cols: u16, rows: u16) -> Result<(), GridTooLarge> {
    if cols > MAX_GRID_COLS || rows > MAX_GRID_ROWS {
        Err(GridTooLarge { cols, rows })
    } else {
        Ok(())
    }
}

/// The largest grid within the cap that fits in `cols`×`rows` (0 counts as 1): what a size
/// nobody asked for outright becomes — an attached client's terminal, which phux letterboxes
/// rather than refuses, and the size a window-size policy derives from such clients.
pub fn clamp_grid(cols: u16, rows: u16) -> (u16, u16) {
    (cols.clamp(1, MAX_GRID_COLS), rows.clamp(1, MAX_GRID_ROWS))
}

/// The most bytes of history a pane's engine keeps, whatever its history limit in rows and its
/// width: at 10 bytes a cell, 10,000 rows of the widest grid (1000 columns) fit, while 1,000,000
/// rows at that width (10 GB) are cut to this.
pub const MAX_HISTORY_BYTES: usize = 256 << 20;

/// The most tags a pane may carry. 100,000 tags in one request held the session tree's lock for
/// 27 s, and ~750,000 made every `ls` and `status` fail `reply_too_large` until a restart.
pub const MAX_TAGS_PER_PANE: usize = 64;
/// The most tags one request may name.
pub const MAX_TAGS_PER_REQUEST: usize = MAX_TAGS_PER_PANE;
/// The longest tag, in bytes.
pub const MAX_TAG_BYTES: usize = 128;

/// Tags beyond what a request may name, or a pane may carry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TooManyTags {
    #[error("a request may name at most {MAX_TAGS_PER_REQUEST} tags, and this one names {0}")]
    InRequest(usize),
    #[error("a tag is at most {MAX_TAG_BYTES} bytes, and one here is {0}")]
    TooLong(usize),
    #[error("a pane carries at most {MAX_TAGS_PER_PANE} tags; {pane} would carry {count}")]
    OnPane { pane: String, count: usize },
}

impl ContractError for TooManyTags {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidArgument
    }

    fn remedy(&self) -> String {
        format!(
            "remove tags first (`phux tag rm`), or use fewer (at most {MAX_TAGS_PER_PANE} a pane, \
             {MAX_TAG_BYTES} bytes each)"
        )
    }
}

/// Refuses a request's tags beyond the per-request cap or the length cap.
pub fn check_tags<S: AsRef<str>>(tags: &[S]) -> Result<(), TooManyTags> {
    if tags.len() > MAX_TAGS_PER_REQUEST {
        return Err(TooManyTags::InRequest(tags.len()));
    }
    match tags
        .iter()
        .map(|t| t.as_ref().len())
        .find(|&n| n > MAX_TAG_BYTES)
    {
        Some(n) => Err(TooManyTags::TooLong(n)),
        None => Ok(()),
    }
}

/// The longest session name, in bytes.
pub const MAX_SESSION_NAME_BYTES: usize = 64;

/// Why a string cannot name a session.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} is not a usable session name: {reason}", for_display(&format!("{name:?}")))]
pub struct InvalidSessionName {
    pub name: String,
    pub reason: &'static str,
}

impl ContractError for InvalidSessionName {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidArgument
    }

    fn remedy(&self) -> String {
        "use letters, digits, - and _ (at most 64 bytes)".into()
    }
}

/// The rule `new` and `rename` share: a name must come back as the same session TARGET and
/// print as itself on one line.
pub fn check_session_name(name: &str) -> Result<(), InvalidSessionName> {
    let refuse = |reason| {
        Err(InvalidSessionName {
            name: name.to_owned(),
            reason,
        })
    };
    if name.is_empty() {
        return refuse("it is empty");
    }
    if name.len() > MAX_SESSION_NAME_BYTES {
        return refuse("it is longer than 64 bytes");
    }
    if name
        .chars()
        .any(|c| c.is_control() || is_invisible_format(c))
    {
        return refuse("it holds control or bidirectional-override characters");
    }
    if name.chars().any(char::is_whitespace) {
        return refuse("it holds whitespace");
    }
    if name.chars().any(|c| ":.@#/".contains(c)) {
        return refuse("it holds one of : . @ # / (they address windows, panes and tags)");
    }
    if name.starts_with(['%', '=']) {
        return refuse("it starts with % or =");
    }
    Ok(())
}

/// Characters that change how the text around them is shown without showing themselves:
/// bidirectional overrides and isolates, zero-width joiners and marks.
/// Zero-width joiners (U+200C, U+200D) are not among them: they only join what surrounds them
/// (a family emoji is three people and two joiners; Persian needs the non-joiner), so they are
/// printed as they are.
fn is_invisible_format(c: char) -> bool {
    matches!(c,
        '\u{061C}' | '\u{200B}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// `text` as it may be printed for a person: control characters (C0, DEL, C1) and invisible
/// format characters become `<U+202E>`-style escapes (Unicode's own notation), so a name or a title can neither forge a
/// line nor reorder what follows it. Machine output (`--json`) keeps the exact string.
pub fn for_display(text: &str) -> Cow<'_, str> {
    if !text
        .chars()
        .any(|c| c.is_control() || is_invisible_format(c))
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x1b' => out.push_str("\\e"),
            c if c.is_control() || is_invisible_format(c) => {
                let _ = write!(out, "<U+{:04X}>", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_admits_its_own_size_and_refuses_one_more() {
        assert!(check_grid(MAX_GRID_COLS, MAX_GRID_ROWS).is_ok());
        assert!(check_grid(MAX_GRID_COLS + 1, 1).is_err());
        assert!(check_grid(1, MAX_GRID_ROWS + 1).is_err());
        assert!(check_grid(65535, 65535).is_err());
    }

    #[test]
    fn clamping_keeps_sizes_within_the_cap_and_above_zero() {
        assert_eq!(clamp_grid(65535, 65535), (MAX_GRID_COLS, MAX_GRID_ROWS));
        assert_eq!(clamp_grid(0, 0), (1, 1));
        assert_eq!(clamp_grid(120, 40), (120, 40));
        assert!(check_grid(clamp_grid(u16::MAX, 7).0, 7).is_ok());
    }

    #[test]
    fn session_names_that_forge_lines_or_cannot_be_addressed_are_refused() {
        assert!(check_session_name("work").is_ok());
        assert!(check_session_name("my-project_2").is_ok());
        let long = "x".repeat(65);
        for bad in [
            "",
            "x\ny",
            "a:b",
            "a.b",
            "@1",
            "#t",
            "a b",
            "%x",
            "=x",
            "h/@1",
            "\x1b[31mred",
            "abc\u{202E}fed",
            long.as_str(),
        ] {
            assert!(check_session_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn display_escapes_controls_and_bidi_but_keeps_plain_text() {
        assert!(matches!(for_display("plain ünïcode"), Cow::Borrowed(_)));
        assert_eq!(for_display("x\ny"), "x\\ny");
        assert_eq!(for_display("\x1b]0;t\x07"), "\\e]0;t<U+0007>");
        assert_eq!(for_display("a\u{202E}b"), "a<U+202E>b");
        assert_eq!(for_display("\u{9b}"), "<U+009B>");
        // A family emoji is people joined by U+200D: printed as the family, not as escapes.
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}";
        assert_eq!(for_display(family), family);
    }
}
