//! `phux watch --json` lines: one `{event, terminal?, ...}` object per event, unversioned NDJSON.

use std::fmt;
use std::str::FromStr;

use serde::de::Error as _;
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::agents::{AgentState, Attention};
use crate::error_code::ErrorCode;
use crate::error_doc::ContractError;
use crate::ids::TerminalAddr;

/// How long a pane's output stays quiet before the server reports `idle` (`dirty` comes with
/// the first output after it). One value for the server that decides and the clients that
/// reason about it.
pub const IDLE_SETTLE: std::time::Duration = std::time::Duration::from_millis(250);

/// The names a watcher can ask for (`--until NAME`, `subscribe.events`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WatchEventName {
    Bell,
    TitleChanged,
    CommandStarted,
    CommandFinished,
    Dirty,
    Idle,
    PaneSpawned,
    PaneClosed,
    CwdChanged,
    Asked,
    Resized,
    AgentState,
    Metadata,
    Lease,
}

impl WatchEventName {
    pub const ALL: [WatchEventName; 14] = [
        WatchEventName::Bell,
        WatchEventName::TitleChanged,
        WatchEventName::CommandStarted,
        WatchEventName::CommandFinished,
        WatchEventName::Dirty,
        WatchEventName::Idle,
        WatchEventName::PaneSpawned,
        WatchEventName::PaneClosed,
        WatchEventName::CwdChanged,
        WatchEventName::Asked,
        WatchEventName::Resized,
        WatchEventName::AgentState,
        WatchEventName::Metadata,
        WatchEventName::Lease,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            WatchEventName::Bell => "bell",
            WatchEventName::TitleChanged => "title_changed",
            WatchEventName::CommandStarted => "command_started",
            WatchEventName::CommandFinished => "command_finished",
            WatchEventName::Dirty => "dirty",
            WatchEventName::Idle => "idle",
            WatchEventName::PaneSpawned => "pane_spawned",
            WatchEventName::PaneClosed => "pane_closed",
            WatchEventName::CwdChanged => "cwd_changed",
            WatchEventName::Asked => "asked",
            WatchEventName::Resized => "resized",
            WatchEventName::AgentState => "agent_state",
            WatchEventName::Metadata => "metadata",
            WatchEventName::Lease => "lease",
        }
    }

    /// Parses an event name; anything outside the vocabulary is `unknown_event_name`.
    pub fn parse(name: &str) -> Result<Self, UnknownEventName> {
        WatchEventName::ALL
            .into_iter()
            .find(|n| n.as_str() == name)
            .ok_or_else(|| UnknownEventName(name.to_owned()))
    }
}

impl fmt::Display for WatchEventName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for WatchEventName {
    type Err = UnknownEventName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        WatchEventName::parse(s)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown event name {0:?}")]
pub struct UnknownEventName(pub String);

impl ContractError for UnknownEventName {
    fn code(&self) -> ErrorCode {
        ErrorCode::UnknownEventName
    }
    fn remedy(&self) -> String {
        let names: Vec<&str> = WatchEventName::ALL.iter().map(|n| n.as_str()).collect();
        format!("use one of: {}", names.join(", "))
    }
}

/// What happened, with the fields that event carries. Serialized as `{"event": NAME, ...}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WatchEventKind {
    Bell,
    TitleChanged {
        title: String,
    },
    CommandStarted,
    CommandFinished {
        exit_code: Option<i32>,
    },
    Dirty,
    Idle,
    PaneSpawned,
    PaneClosed {
        exit_status: Option<i32>,
    },
    CwdChanged {
        cwd: String,
    },
    Asked {
        id: String,
        question: String,
        suggestions: Vec<String>,
        elapsed_seconds: Option<u64>,
        /// Who raised it: `report` (`phux ask`), `title` (the title sentinel), `screen` (an
        /// agent's dialog); absent from older servers.
        source: Option<String>,
    },
    /// The pane's grid changed size.
    Resized {
        cols: u16,
        rows: u16,
    },
    /// The pane's agent changed state (or its record came or went: `state` null when gone).
    AgentState(Box<AgentStateEvent>),
    /// A metadata key of the pane was written (`value` null when deleted).
    Metadata {
        key: String,
        value: Value,
    },
    /// The pane's input lease changed: `action` is `taken`, `seized`, `given` or `expired`;
    /// `holder` is who holds it now (null when nobody does).
    Lease {
        action: String,
        holder: Option<String>,
    },
    /// An event this build does not know; a newer server may send it.
    Unknown {
        event: String,
    },
}

impl WatchEventKind {
    /// The `event` string.
    pub fn name(&self) -> &str {
        let known = match self {
            WatchEventKind::Bell => WatchEventName::Bell,
            WatchEventKind::TitleChanged { .. } => WatchEventName::TitleChanged,
            WatchEventKind::CommandStarted => WatchEventName::CommandStarted,
            WatchEventKind::CommandFinished { .. } => WatchEventName::CommandFinished,
            WatchEventKind::Dirty => WatchEventName::Dirty,
            WatchEventKind::Idle => WatchEventName::Idle,
            WatchEventKind::PaneSpawned => WatchEventName::PaneSpawned,
            WatchEventKind::PaneClosed { .. } => WatchEventName::PaneClosed,
            WatchEventKind::CwdChanged { .. } => WatchEventName::CwdChanged,
            WatchEventKind::Asked { .. } => WatchEventName::Asked,
            WatchEventKind::Resized { .. } => WatchEventName::Resized,
            WatchEventKind::AgentState(_) => WatchEventName::AgentState,
            WatchEventKind::Metadata { .. } => WatchEventName::Metadata,
            WatchEventKind::Lease { .. } => WatchEventName::Lease,
            WatchEventKind::Unknown { event } => return event,
        };
        known.as_str()
    }

    fn write_fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        match self {
            WatchEventKind::TitleChanged { title } => map.serialize_entry("title", title),
            WatchEventKind::CommandFinished { exit_code } => {
                map.serialize_entry("exit_code", exit_code)
            }
            WatchEventKind::PaneClosed { exit_status } => {
                map.serialize_entry("exit_status", exit_status)
            }
            WatchEventKind::CwdChanged { cwd } => map.serialize_entry("cwd", cwd),
            WatchEventKind::Asked {
                id,
                question,
                suggestions,
                elapsed_seconds,
                source,
            } => {
                map.serialize_entry("id", id)?;
                map.serialize_entry("question", question)?;
                map.serialize_entry("suggestions", suggestions)?;
                map.serialize_entry("elapsed_seconds", elapsed_seconds)?;
                match source {
                    Some(source) => map.serialize_entry("source", source),
                    None => Ok(()),
                }
            }
            WatchEventKind::Resized { cols, rows } => {
                map.serialize_entry("cols", cols)?;
                map.serialize_entry("rows", rows)
            }
            WatchEventKind::AgentState(event) => {
                map.serialize_entry("name", &event.name)?;
                map.serialize_entry("kind", &event.kind)?;
                map.serialize_entry("session", &event.session)?;
                map.serialize_entry("state", &event.state)?;
                map.serialize_entry("attention", &event.attention)?;
                map.serialize_entry("from", &event.from)?;
                map.serialize_entry("source", &event.source)
            }
            WatchEventKind::Metadata { key, value } => {
                map.serialize_entry("key", key)?;
                map.serialize_entry("value", value)
            }
            WatchEventKind::Lease { action, holder } => {
                map.serialize_entry("action", action)?;
                map.serialize_entry("holder", holder)
            }
            WatchEventKind::Bell
            | WatchEventKind::CommandStarted
            | WatchEventKind::Dirty
            | WatchEventKind::Idle
            | WatchEventKind::PaneSpawned
            | WatchEventKind::Unknown { .. } => Ok(()),
        }
    }

    fn from_map<E: serde::de::Error>(map: &mut Map<String, Value>) -> Result<Self, E> {
        let event = match map.remove("event") {
            Some(Value::String(s)) => s,
            _ => return Err(E::custom("missing string field `event`")),
        };
        let Ok(name) = WatchEventName::parse(&event) else {
            return Ok(WatchEventKind::Unknown { event });
        };
        fn field<T: serde::de::DeserializeOwned, E: serde::de::Error>(
            map: &mut Map<String, Value>,
            key: &str,
        ) -> Result<T, E> {
            let value = map.remove(key).unwrap_or(Value::Null);
            serde_json::from_value(value).map_err(|e| E::custom(format!("field `{key}`: {e}")))
        }
        Ok(match name {
            WatchEventName::Bell => WatchEventKind::Bell,
            WatchEventName::TitleChanged => WatchEventKind::TitleChanged {
                title: field(map, "title")?,
            },
            WatchEventName::CommandStarted => WatchEventKind::CommandStarted,
            WatchEventName::CommandFinished => WatchEventKind::CommandFinished {
                exit_code: field(map, "exit_code")?,
            },
            WatchEventName::Dirty => WatchEventKind::Dirty,
            WatchEventName::Idle => WatchEventKind::Idle,
            WatchEventName::PaneSpawned => WatchEventKind::PaneSpawned,
            WatchEventName::PaneClosed => WatchEventKind::PaneClosed {
                exit_status: field(map, "exit_status")?,
            },
            WatchEventName::CwdChanged => WatchEventKind::CwdChanged {
                cwd: field(map, "cwd")?,
            },
            WatchEventName::Asked => WatchEventKind::Asked {
                id: field(map, "id")?,
                question: field(map, "question")?,
                suggestions: field::<Option<Vec<String>>, E>(map, "suggestions")?
                    .unwrap_or_default(),
                elapsed_seconds: field(map, "elapsed_seconds")?,
                source: field(map, "source")?,
            },
            WatchEventName::Resized => WatchEventKind::Resized {
                cols: field(map, "cols")?,
                rows: field(map, "rows")?,
            },
            WatchEventName::AgentState => WatchEventKind::AgentState(Box::new(AgentStateEvent {
                name: field(map, "name")?,
                kind: field(map, "kind")?,
                session: field(map, "session")?,
                state: field(map, "state")?,
                attention: field(map, "attention")?,
                from: field(map, "from")?,
                source: field(map, "source")?,
            })),
            WatchEventName::Metadata => WatchEventKind::Metadata {
                key: field(map, "key")?,
                value: field(map, "value")?,
            },
            WatchEventName::Lease => WatchEventKind::Lease {
                action: field(map, "action")?,
                holder: field(map, "holder")?,
            },
        })
    }
}

impl Serialize for WatchEventKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("event", self.name())?;
        self.write_fields(&mut map)?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for WatchEventKind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut map = Map::deserialize(deserializer)?;
        WatchEventKind::from_map(&mut map)
    }
}

/// The fields of an `agent_state` event: who the agent is, its state now (`null` when the
/// record went away) and before, its attention, and where the new state came from
/// (`agent_record`, `title_ask`, `reported_ask`, `screen`, `plugin_report`, or `none`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentStateEvent {
    pub name: Option<String>,
    pub kind: Option<String>,
    pub session: Option<String>,
    pub state: Option<AgentState>,
    pub attention: Option<Attention>,
    pub from: Option<AgentState>,
    pub source: String,
}

/// One NDJSON line of `phux watch --json`. No `schema_version`: the stream is unversioned.
#[derive(Debug, Clone, PartialEq)]
pub struct WatchEvent {
    /// Absent for server-scope events.
    pub terminal: Option<TerminalAddr>,
    pub kind: WatchEventKind,
    /// Seconds since the watch began (written last, after the event's own fields).
    pub t: Option<f64>,
    /// The server's wall clock at the event, in seconds since the Unix epoch.
    pub ts: Option<f64>,
}

impl Serialize for WatchEvent {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("event", self.kind.name())?;
        if let Some(terminal) = &self.terminal {
            map.serialize_entry("terminal", terminal)?;
        }
        self.kind.write_fields(&mut map)?;
        if let Some(t) = self.t {
            map.serialize_entry("t", &t)?;
        }
        if let Some(ts) = self.ts {
            map.serialize_entry("ts", &ts)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for WatchEvent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut map = Map::deserialize(deserializer)?;
        let terminal = match map.remove("terminal") {
            None | Some(Value::Null) => None,
            Some(value) => Some(serde_json::from_value(value).map_err(D::Error::custom)?),
        };
        let mut seconds = |key: &str| map.remove(key).and_then(|v| v.as_f64());
        let (t, ts) = (seconds("t"), seconds("ts"));
        let kind = WatchEventKind::from_map(&mut map)?;
        Ok(WatchEvent {
            terminal,
            kind,
            t,
            ts,
        })
    }
}
