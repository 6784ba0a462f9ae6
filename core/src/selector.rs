//! TARGET selectors: their grammar, parsing and canonical spelling (resolution is in `resolve`).

use std::fmt;
use std::str::FromStr;

use crate::error_code::ErrorCode;
use crate::error_doc::ContractError;
use crate::ids::{is_valid_host, parse_decimal_u32, PaneId};

/// A parsed TARGET.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Selector {
    /// `.`: the focused pane (headless: the most recently active one).
    Focused,
    /// `name`: a session by name.
    Session(String),
    /// `name:W`: window index `W` of a session.
    WindowIndex { session: String, index: u32 },
    /// `name:tag`: the window of a session whose name is `tag`.
    WindowName { session: String, window: String },
    /// `name:W.P`: pane `P` (position) of window index `W`.
    Pane {
        session: String,
        window: u32,
        pane: u32,
    },
    /// `@N`: a local terminal id.
    Terminal(PaneId),
    /// `host/@N`: a satellite terminal through a hub.
    Remote { host: String, pane: PaneId },
    /// `#tag`: every terminal carrying the tag.
    Tag(String),
    /// `=`: the previously focused pane of an attached client. Headless callers refuse it.
    Previous,
    /// `%name`: reserved; always resolves as a miss.
    Reserved(String),
}

/// A TARGET that does not follow the grammar.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid selector {input:?}: {reason}")]
pub struct SelectorError {
    pub input: String,
    pub reason: &'static str,
}

impl ContractError for SelectorError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidSelector
    }
    fn remedy(&self) -> String {
        "use one of: . | SESSION | SESSION:W | SESSION:W.P | SESSION:WINDOW_NAME | @N | HOST/@N | #TAG; \
         `phux ls --json` lists sessions and terminals"
            .to_owned()
    }
}

fn fail(input: &str, reason: &'static str) -> SelectorError {
    SelectorError {
        input: input.to_owned(),
        reason,
    }
}

/// Characters a name (session, window, tag) may never contain: they would make the spelling
/// ambiguous or unprintable.
fn is_name_char(c: char) -> bool {
    !c.is_whitespace() && !c.is_control()
}

fn check_name<'a>(
    input: &str,
    name: &'a str,
    what: &'static str,
) -> Result<&'a str, SelectorError> {
    if name.is_empty() {
        return Err(fail(input, what));
    }
    if !name.chars().all(is_name_char) {
        return Err(fail(
            input,
            "names may not contain whitespace or control characters",
        ));
    }
    Ok(name)
}

impl Selector {
    /// Parses a TARGET. Never trims: surrounding whitespace is an error, not a different name.
    pub fn parse(input: &str) -> Result<Selector, SelectorError> {
        match input {
            "" => return Err(fail(input, "empty selector")),
            "." => return Ok(Selector::Focused),
            "=" => return Ok(Selector::Previous),
            _ => {}
        }
        if let Some(rest) = input.strip_prefix('@') {
            return parse_decimal_u32(rest)
                .map(|n| Selector::Terminal(PaneId(n)))
                .ok_or_else(|| fail(input, "@ must be followed by a decimal terminal id"));
        }
        if let Some(tag) = input.strip_prefix('#') {
            let tag = check_name(input, tag, "# must be followed by a tag")?;
            if tag.starts_with('#') {
                return Err(fail(input, "a tag may not start with #"));
            }
            return Ok(Selector::Tag(tag.to_owned()));
        }
        if let Some(name) = input.strip_prefix('%') {
            return Ok(Selector::Reserved(
                check_name(input, name, "% must be followed by a name")?.to_owned(),
            ));
        }
        if let Some((host, pane)) = input.split_once('/') {
            if !is_valid_host(host) {
                return Err(fail(input, "host must be letters, digits, '-', '_' or '.'"));
            }
            let pane = pane
                .strip_prefix('@')
                .and_then(parse_decimal_u32)
                .ok_or_else(|| fail(input, "host/ must be followed by @N"))?;
            return Ok(Selector::Remote {
                host: host.to_owned(),
                pane: PaneId(pane),
            });
        }
        if input.starts_with('=') {
            return Err(fail(input, "= takes no argument"));
        }
        parse_session_form(input)
    }

    /// Whether a miss on this selector can be explained by an unreachable satellite. Session
    /// names are hub-local, so a miss on them is always a real absence.
    pub fn can_be_partial(&self) -> bool {
        matches!(
            self,
            Selector::Focused | Selector::Terminal(_) | Selector::Remote { .. } | Selector::Tag(_)
        )
    }
}

/// `name`, `name:W`, `name:W.P`, `name:tag`.
fn parse_session_form(input: &str) -> Result<Selector, SelectorError> {
    let Some((session, window)) = input.split_once(':') else {
        return Ok(Selector::Session(
            check_name(input, input, "empty session name")?.to_owned(),
        ));
    };
    let session = check_name(input, session, "empty session name before ':'")?.to_owned();
    let window = check_name(input, window, "empty window after ':'")?;
    if window.contains(':') {
        return Err(fail(input, "more than one ':'"));
    }
    if let Some(index) = parse_decimal_u32(window) {
        return Ok(Selector::WindowIndex { session, index });
    }
    if let Some((w, p)) = window.split_once('.') {
        if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) {
            // A numeric window followed by '.' is a pane address, so it must be a whole one.
            let window =
                parse_decimal_u32(w).ok_or_else(|| fail(input, "window index out of range"))?;
            let pane = parse_decimal_u32(p)
                .ok_or_else(|| fail(input, "pane index after W. must be a decimal u32"))?;
            return Ok(Selector::Pane {
                session,
                window,
                pane,
            });
        }
    }
    if window.bytes().all(|b| b.is_ascii_digit()) {
        return Err(fail(input, "window index out of range"));
    }
    Ok(Selector::WindowName {
        session,
        window: window.to_owned(),
    })
}

impl FromStr for Selector {
    type Err = SelectorError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Selector::parse(s)
    }
}

impl fmt::Display for Selector {
    /// The canonical spelling; it parses back to the same selector.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Selector::Focused => f.write_str("."),
            Selector::Session(name) => f.write_str(name),
            Selector::WindowIndex { session, index } => write!(f, "{session}:{index}"),
            Selector::WindowName { session, window } => write!(f, "{session}:{window}"),
            Selector::Pane {
                session,
                window,
                pane,
            } => write!(f, "{session}:{window}.{pane}"),
            Selector::Terminal(pane) => write!(f, "{pane}"),
            Selector::Remote { host, pane } => write!(f, "{host}/{pane}"),
            Selector::Tag(tag) => write!(f, "#{tag}"),
            Selector::Previous => f.write_str("="),
            Selector::Reserved(name) => write!(f, "%{name}"),
        }
    }
}
