//! A bounded watch for the MCP adapter's `phux_watch`: a batch of events rather than a stream.

use std::time::{Duration, Instant};

use phux_core::documents::{WatchEvent, WatchEventName};
use phux_core::ids::TerminalAddr;
use phux_core::wire::ServerMessage;

use super::{server_gone, server_is_up, WatchClock};
use crate::failure::Failure;
use crate::values::{connect, resolve_pane};
use crate::{target, Context, Pushed};

/// A bounded watch (the MCP tool's): up to `max_events` events, until one named in `until`,
/// the deadline, the pane closing, or `stop`; never a stream.
#[derive(Debug, serde::Serialize)]
pub struct WatchBatch {
    pub schema_version: u32,
    pub events: Vec<WatchEvent>,
    pub count: usize,
    /// Why the batch ended: `max_events`, `until`, `timed_out`, `pane_closed` or `cancelled`.
    pub ended: &'static str,
    /// Where the next batch resumes (`after`): the server's time of the last event here, or of
    /// the subscription when there was none. Opaque.
    pub cursor: u64,
}

/// What a watch batch is asked for.
pub struct BatchSpec {
    pub target: Option<String>,
    pub until: Vec<String>,
    pub max_events: usize,
    pub timeout: Duration,
    /// Resume after this cursor (a batch's `cursor`): the events since are replayed first.
    pub after: Option<u64>,
}

/// Collects one batch of events (see [`WatchBatch`]).
pub fn batch(
    spec: BatchSpec,
    context: &Context,
    stop: &crate::stop::Stop,
) -> Result<WatchBatch, Failure> {
    let until = spec
        .until
        .iter()
        .map(|name| WatchEventName::parse(name))
        .collect::<Result<Vec<_>, _>>()?;
    let selector = spec.target.as_deref().map(target::parse).transpose()?;
    let deadline = Some(Instant::now() + spec.timeout);
    let began = WatchClock::start();
    let mut client = connect(context)?;
    let pane = match &selector {
        Some(selector) => Some(resolve_pane(&mut client, selector)?),
        None => None,
    };
    let now_ns = client.subscribe_from(pane, Vec::new(), None, spec.after)?;
    let mut cursor = spec.after.unwrap_or(0).max(now_ns);
    let mut events = Vec::new();
    let ended = loop {
        if events.len() >= spec.max_events {
            break "max_events";
        }
        match client.next_message_or_stop(deadline, Some(stop.fd()))? {
            Pushed::Message(ServerMessage::Event(event)) => {
                cursor = event.t_ns;
                let (t, ts) = began.times(event.ts_ns);
                let line = WatchEvent {
                    terminal: event.pane.map(TerminalAddr::local),
                    kind: event.event,
                    t: Some(t),
                    ts,
                };
                let matched = until.iter().any(|name| name.as_str() == line.kind.name());
                events.push(line);
                if matched {
                    break "until";
                }
            }
            Pushed::Message(_) => {}
            Pushed::Stopped => break "cancelled",
            Pushed::TimedOut => break "timed_out",
            Pushed::Ended if server_is_up(context) => break "pane_closed",
            Pushed::Ended => return Err(server_gone(context)),
        }
    };
    Ok(WatchBatch {
        schema_version: 1,
        count: events.len(),
        events,
        ended,
        cursor,
    })
}
