//! Identifiers of sessions, windows and panes, and the canonical `@N` / `host/@N` terminal address.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A pane (a terminal), stable for the server's lifetime; displayed `@N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PaneId(pub u32);

/// A session, stable for the server's lifetime.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SessionId(pub u32);

/// A window, stable for the server's lifetime.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct WindowId(pub u32);

impl fmt::Display for PaneId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}", self.0)
    }
}

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Display for WindowId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A string that is not `@N` / `host/@N`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a terminal address: {0:?} (expected @N or host/@N)")]
pub struct BadTerminalAddr(pub String);

impl FromStr for PaneId {
    type Err = BadTerminalAddr;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.strip_prefix('@')
            .and_then(parse_decimal_u32)
            .map(PaneId)
            .ok_or_else(|| BadTerminalAddr(s.to_owned()))
    }
}

/// Parses plain ASCII decimal digits (no sign, no whitespace) into a `u32`.
pub(crate) fn parse_decimal_u32(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Whether `host` is usable as the host half of `host/@N`.
pub(crate) fn is_valid_host(host: &str) -> bool {
    !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// The canonical, reusable address of a terminal: `@N` locally, `host/@N` through a hub.
/// Serialized as that string.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TerminalAddr {
    pub host: Option<String>,
    pub pane: PaneId,
}

impl TerminalAddr {
    pub fn local(pane: PaneId) -> Self {
        TerminalAddr { host: None, pane }
    }

    pub fn remote(host: impl Into<String>, pane: PaneId) -> Self {
        TerminalAddr {
            host: Some(host.into()),
            pane,
        }
    }
}

impl fmt::Display for TerminalAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.host {
            Some(host) => write!(f, "{host}/{}", self.pane),
            None => write!(f, "{}", self.pane),
        }
    }
}

impl FromStr for TerminalAddr {
    type Err = BadTerminalAddr;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.split_once('/') {
            None => Ok(TerminalAddr::local(s.parse()?)),
            Some((host, pane)) if is_valid_host(host) => pane
                .parse()
                .map(|pane| TerminalAddr::remote(host, pane))
                .map_err(|_| BadTerminalAddr(s.to_owned())),
            Some(_) => Err(BadTerminalAddr(s.to_owned())),
        }
    }
}

impl Serialize for TerminalAddr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for TerminalAddr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
