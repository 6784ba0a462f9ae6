//! The cast header (line 1): what both versions store, how each version spells it, and its checks.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value};

use crate::error::{CastErrorKind, RecorderError};
use crate::theme::{format_palette, Theme};

/// The asciicast format version of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastVersion {
    /// Event times are absolute seconds since the start.
    V2,
    /// Event times are intervals since the previous event; `#` comment lines are allowed.
    V3,
}

impl CastVersion {
    pub fn number(self) -> u8 {
        match self {
            Self::V2 => 2,
            Self::V3 => 3,
        }
    }
}

impl fmt::Display for CastVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.number())
    }
}

/// Everything a cast header says, independent of how the version spells it.
///
/// `term_type` is `env.TERM` in v2 and `term.type` in v3; reading a v2 header moves `TERM` out
/// of `env` into `term_type`, so `env` never holds it twice.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    pub version: CastVersion,
    pub cols: u16,
    pub rows: u16,
    /// Unix seconds when the recording started.
    pub timestamp: Option<u64>,
    /// Players play any longer gap as exactly this many seconds; the file keeps raw times.
    pub idle_time_limit: Option<f64>,
    pub command: Option<String>,
    pub title: Option<String>,
    pub env: BTreeMap<String, String>,
    pub term_type: Option<String>,
    /// The terminal's XTVERSION reply (v3 only; dropped when writing v2, which has no key for it).
    pub term_version: Option<String>,
    pub theme: Option<Theme>,
}

impl Header {
    /// A header with only the required facts set.
    pub fn new(version: CastVersion, cols: u16, rows: u16) -> Self {
        Self {
            version,
            cols,
            rows,
            timestamp: None,
            idle_time_limit: None,
            command: None,
            title: None,
            env: BTreeMap::new(),
            term_type: None,
            term_version: None,
            theme: None,
        }
    }

    /// Reads a parsed header line. Unknown keys are ignored; cosmetic keys of the wrong type
    /// (title, command, env values, theme) are dropped; keys that change playback are checked.
    pub(crate) fn from_json(value: &Value) -> Result<Self, CastErrorKind> {
        let object = value.as_object().ok_or(CastErrorKind::HeaderNotObject)?;
        let version = parse_version(object)?;
        let (cols, rows, term) = match version {
            CastVersion::V2 => (object.get("width"), object.get("height"), None),
            CastVersion::V3 => {
                let term = object.get("term").and_then(Value::as_object);
                let get = |key: &str| term.and_then(|t| t.get(key));
                (get("cols"), get("rows"), term)
            }
        };
        let size = |v: Option<&Value>| v.and_then(as_grid_size);
        let (Some(cols), Some(rows)) = (size(cols), size(rows)) else {
            return Err(CastErrorKind::HeaderSize(version));
        };
        let mut header = Self::new(version, cols, rows);
        header.timestamp = object.get("timestamp").and_then(as_timestamp);
        header.idle_time_limit = parse_idle_limit(object.get("idle_time_limit"))?;
        header.command = string_at(object, "command");
        header.title = string_at(object, "title");
        header.env = parse_env(object.get("env"));
        match term {
            Some(term) => {
                header.term_type = string_at(term, "type");
                header.term_version = string_at(term, "version");
                header.theme = term.get("theme").and_then(Theme::from_json);
            }
            None => {
                header.term_type = header.env.remove("TERM");
                header.theme = object.get("theme").and_then(Theme::from_json);
            }
        }
        Ok(header)
    }

    /// Refuses a header that would make an unreadable or unplayable file.
    pub(crate) fn validate(&self) -> Result<(), RecorderError> {
        if self.cols == 0 || self.rows == 0 {
            return Err(RecorderError::InvalidHeader(
                "the terminal size must be at least 1x1",
            ));
        }
        if let Some(limit) = self.idle_time_limit {
            if !(limit.is_finite() && limit > 0.0) {
                return Err(RecorderError::InvalidHeader(
                    "idle_time_limit must be a positive number of seconds",
                ));
            }
        }
        Ok(())
    }

    /// The header line for this header's version, without the trailing newline.
    pub fn to_json_line(&self) -> String {
        let mut line = OrderedObject::default();
        line.push("version", Value::from(self.version.number()));
        match self.version {
            CastVersion::V2 => {
                line.push("width", Value::from(self.cols));
                line.push("height", Value::from(self.rows));
            }
            CastVersion::V3 => line.push_raw("term", &self.v3_term_object()),
        }
        line.push_opt("timestamp", self.timestamp.map(Value::from));
        line.push_opt("idle_time_limit", self.idle_time_limit.map(Value::from));
        line.push_opt("command", self.command.clone().map(Value::from));
        line.push_opt("title", self.title.clone().map(Value::from));
        let env = self.env_object();
        if !env.is_empty() {
            line.push_raw("env", &env.finish());
        }
        if let (CastVersion::V2, Some(theme)) = (self.version, &self.theme) {
            line.push_raw("theme", &theme_object(theme));
        }
        line.finish()
    }

    fn v3_term_object(&self) -> String {
        let mut term = OrderedObject::default();
        term.push("cols", Value::from(self.cols));
        term.push("rows", Value::from(self.rows));
        term.push_opt("type", self.term_type.clone().map(Value::from));
        term.push_opt("version", self.term_version.clone().map(Value::from));
        if let Some(theme) = &self.theme {
            term.push_raw("theme", &theme_object(theme));
        }
        term.finish()
    }

    /// `env` as written: in v2 `TERM` (from `term_type`) comes first.
    fn env_object(&self) -> OrderedObject {
        let mut env = OrderedObject::default();
        let v2_term = match self.version {
            CastVersion::V2 => self.term_type.as_deref(),
            CastVersion::V3 => None,
        };
        if let Some(term) = v2_term {
            env.push("TERM", Value::from(term));
        }
        for (key, value) in &self.env {
            if v2_term.is_none() || key != "TERM" {
                env.push(key, Value::from(value.as_str()));
            }
        }
        env
    }
}

/// The theme object in a fixed key order, whatever serde_json's map ordering is.
fn theme_object(theme: &Theme) -> String {
    let mut object = OrderedObject::default();
    object.push("fg", Value::from(theme.fg.to_string()));
    object.push("bg", Value::from(theme.bg.to_string()));
    object.push("palette", Value::from(format_palette(&theme.palette)));
    object.finish()
}

fn parse_version(object: &Map<String, Value>) -> Result<CastVersion, CastErrorKind> {
    match object.get("version") {
        None => Err(CastErrorKind::MissingVersion),
        Some(v) => match v.as_u64() {
            Some(2) => Ok(CastVersion::V2),
            Some(3) => Ok(CastVersion::V3),
            _ => Err(CastErrorKind::UnsupportedVersion(v.to_string())),
        },
    }
}

fn as_grid_size(value: &Value) -> Option<u16> {
    let n = u16::try_from(value.as_u64()?).ok()?;
    (n >= 1).then_some(n)
}

fn as_timestamp(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| {
        let f = value.as_f64()?;
        // Truncation is the intent: some writers store fractional Unix seconds.
        (f.is_finite() && f >= 0.0).then_some(f as u64)
    })
}

fn parse_idle_limit(value: Option<&Value>) -> Result<Option<f64>, CastErrorKind> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_f64() {
            Some(limit) if limit.is_finite() && limit > 0.0 => Ok(Some(limit)),
            _ => Err(CastErrorKind::IdleTimeLimit(v.to_string())),
        },
    }
}

fn string_at(object: &Map<String, Value>, key: &str) -> Option<String> {
    object.get(key)?.as_str().map(str::to_owned)
}

fn parse_env(value: Option<&Value>) -> BTreeMap<String, String> {
    let Some(object) = value.and_then(Value::as_object) else {
        return BTreeMap::new();
    };
    object
        .iter()
        .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
        .collect()
}

/// A JSON object written in the order keys are pushed (serde_json's map would sort them).
#[derive(Default)]
struct OrderedObject {
    fields: Vec<String>,
}

impl OrderedObject {
    fn push(&mut self, key: &str, value: Value) {
        self.push_raw(key, &value.to_string());
    }

    fn push_opt(&mut self, key: &str, value: Option<Value>) {
        if let Some(value) = value {
            self.push(key, value);
        }
    }

    fn push_raw(&mut self, key: &str, json: &str) {
        self.fields.push(format!("{}:{json}", Value::from(key)));
    }

    fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    fn finish(self) -> String {
        format!("{{{}}}", self.fields.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::theme::Rgb;

    fn parse(text: &str) -> Result<Header, CastErrorKind> {
        Header::from_json(&serde_json::from_str(text).unwrap())
    }

    #[test]
    fn v2_header_moves_term_out_of_env() {
        let h = parse(
            r#"{"version":2,"width":80,"height":24,"env":{"TERM":"xterm","SHELL":"/bin/zsh"}}"#,
        )
        .unwrap();
        assert_eq!(h.term_type.as_deref(), Some("xterm"));
        assert_eq!(h.env.get("SHELL").map(String::as_str), Some("/bin/zsh"));
        assert!(!h.env.contains_key("TERM"));
    }

    #[test]
    fn v2_header_is_written_in_the_documented_order() {
        let mut h = Header::new(CastVersion::V2, 100, 30);
        h.timestamp = Some(1_700_000_000);
        h.idle_time_limit = Some(2.0);
        h.term_type = Some("xterm-256color".into());
        h.env.insert("SHELL".into(), "/bin/bash".into());
        assert_eq!(
            h.to_json_line(),
            r#"{"version":2,"width":100,"height":30,"timestamp":1700000000,"idle_time_limit":2.0,"env":{"TERM":"xterm-256color","SHELL":"/bin/bash"}}"#
        );
    }

    #[test]
    fn v3_header_puts_terminal_facts_under_term_and_omits_absent_keys() {
        let mut h = Header::new(CastVersion::V3, 80, 24);
        h.term_type = Some("xterm".into());
        h.theme = Some(Theme {
            fg: Rgb::new(255, 255, 255),
            bg: Rgb::new(0, 0, 0),
            palette: vec![Rgb::new(1, 2, 3)],
        });
        assert_eq!(
            h.to_json_line(),
            r##"{"version":3,"term":{"cols":80,"rows":24,"type":"xterm","theme":{"fg":"#ffffff","bg":"#000000","palette":"#010203"}}}"##
        );
    }

    #[test]
    fn header_checks_size_version_and_idle_limit() {
        assert!(matches!(
            parse(r#"{"version":2,"width":0,"height":24}"#),
            Err(CastErrorKind::HeaderSize(CastVersion::V2))
        ));
        assert!(matches!(
            parse(r#"{"version":3,"term":{"cols":80}}"#),
            Err(CastErrorKind::HeaderSize(CastVersion::V3))
        ));
        assert!(matches!(
            parse(r#"{"width":80,"height":24}"#),
            Err(CastErrorKind::MissingVersion)
        ));
        assert!(
            matches!(parse(r#"{"version":1}"#), Err(CastErrorKind::UnsupportedVersion(v)) if v == "1")
        );
        assert!(matches!(
            parse(r#"{"version":2,"width":80,"height":24,"idle_time_limit":-1}"#),
            Err(CastErrorKind::IdleTimeLimit(_))
        ));
        let h = parse(
            r#"{"version":2,"width":80,"height":24,"idle_time_limit":null,"duration":3.5,"x":[1]}"#,
        );
        assert_eq!(h.unwrap().idle_time_limit, None);
    }
}
