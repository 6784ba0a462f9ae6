//! `phux watch [TARGET]`: prints every watch event of a pane (of every pane without TARGET) as
//! it happens: with `--json` one `WatchEvent` object per line (NDJSON, unversioned), otherwise
//! one readable line. `--until EVENT` (repeatable) stops with 0 at the first of those events;
//! `--timeout` stops with 124; the pane closing first stops with 1 when `--until` was given
//! (0 otherwise); the server going away stops with 1 (`server_disconnected`) either way. Each
//! JSON line carries `t` (seconds since the watch began) and `ts` (the server's wall clock).
//! Ctrl-C (or SIGTERM, SIGHUP) and a reader that stops reading (a closed pipe) end the stream
//! with 0. An unknown event name is refused before connecting.

use std::os::fd::AsFd;
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant, SystemTime};

use phux_core::docs::{WatchEvent, WatchEventKind, WatchEventName};
use phux_core::error_code::ErrorCode;
use phux_core::exit_code::{SUCCESS, WAIT_TIMEOUT};
use phux_core::ids::{PaneId, TerminalAddr};
use phux_core::wire::ServerMessage;

use crate::client::{target, Client, Pushed};
use crate::commands::values::{connect, parse_seconds, resolve_pane, STOP_SIGNALS};
use crate::commands::Context;
use crate::failure::{conclude, Failure, VerbResult};
use crate::output;

/// Print pane events as they happen (NDJSON with --json)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Stop (exit 0) at the first event of this name; repeat for any of several
    #[arg(long = "until", value_name = "EVENT")]
    pub until: Vec<String>,
    /// Stop after SECS seconds and exit 124
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// One JSON object per event and line, with `t` (seconds since the watch began) and `ts`
    /// (the server's clock); exit 1 if the server goes away
    #[arg(long)]
    pub json: bool,
    /// The pane [default: every pane]
    #[arg(value_name = "TARGET")]
    pub target: Option<String>,
}

pub fn run(args: Args, context: &Context) -> i32 {
    // A shared-resolver verb: a partial view keeps exit 1 (§5.2).
    conclude(
        args.json,
        execute(args, context).map_err(crate::failure::Failure::partial_view_exits_1),
    )
}

fn execute(args: Args, context: &Context) -> VerbResult {
    let until = args
        .until
        .iter()
        .map(|name| WatchEventName::parse(name))
        .collect::<Result<Vec<_>, _>>()?;
    let selector = args.target.as_deref().map(target::parse).transpose()?;
    let deadline = args.timeout.map(|t| Instant::now() + t);
    let stop = stop_on_signals()?;
    let began = WatchClock::start();
    let mut client = connect(context)?;
    let pane = match &selector {
        Some(selector) => Some(resolve_pane(&mut client, selector)?),
        None => None,
    };
    // A satellite pane's events come through the hub: name it NAME/@N, and a stream that
    // ends without the pane closing was cut by the link or the satellite's server.
    let satellite = match &selector {
        Some(phux_core::selector::Selector::Remote { host, .. }) => Some(host.clone()),
        _ => None,
    };
    client.subscribe(pane, Vec::new())?;
    // Whether the last event was the watched pane closing: a stream that ends right after it
    // was ended by that (and the server may have stopped with its last pane), not cut.
    let mut just_closed = false;
    loop {
        match client.next_message_or_stop(deadline, Some(stop.as_fd()))? {
            Pushed::Message(ServerMessage::Event(event)) => {
                just_closed = matches!(event.event, WatchEventKind::PaneClosed { .. })
                    && (pane.is_none() || event.pane == pane);
                let (t, ts) = began.times(event.ts_ns);
                let line = WatchEvent {
                    terminal: event.pane.map(|p| match &satellite {
                        Some(host) => TerminalAddr::remote(host.clone(), p),
                        None => TerminalAddr::local(p),
                    }),
                    kind: event.event,
                    t: Some(t),
                    ts,
                };
                let read = print(&line, args.json);
                let matched = until.iter().any(|name| name.as_str() == line.kind.name());
                if matched || read.is_err() {
                    return Ok(SUCCESS);
                }
            }
            Pushed::Message(_) => {}
            Pushed::Stopped => return Ok(SUCCESS),
            Pushed::TimedOut => return Ok(WAIT_TIMEOUT),
            Pushed::Ended if !just_closed && satellite.is_some() => {
                return Err(link_gone(satellite.as_deref().unwrap_or_default()))
            }
            Pushed::Ended if !just_closed && !server_is_up(context) => {
                return Err(server_gone(context))
            }
            Pushed::Ended if until.is_empty() => return Ok(SUCCESS),
            Pushed::Ended => return Err(ended_before(pane, &until)),
        }
    }
}

/// When the watch began, on both clocks: `t` is measured against the server's wall-clock stamp
/// when the event has one (same host, same clock), else against the moment it arrived.
struct WatchClock {
    instant: Instant,
    unix: Option<Duration>,
}

impl WatchClock {
    fn start() -> WatchClock {
        WatchClock {
            instant: Instant::now(),
            unix: SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .ok(),
        }
    }

    /// (`t`, `ts`) of an event stamped `ts_ns` by the server.
    fn times(&self, ts_ns: Option<u64>) -> (f64, Option<f64>) {
        let ts = ts_ns.map(Duration::from_nanos);
        let t = match (ts, self.unix) {
            (Some(ts), Some(began)) => ts.saturating_sub(began),
            _ => self.instant.elapsed(),
        };
        (
            round_us(t.as_secs_f64()),
            ts.map(|d| round_us(d.as_secs_f64())),
        )
    }
}

/// Microseconds are all a watcher can use; fewer digits keep the lines short.
fn round_us(seconds: f64) -> f64 {
    (seconds * 1e6).round() / 1e6
}

/// Whether a server still answers at the socket: a stream that ended while it does was ended
/// on purpose (the pane closed); one that ended with it gone was cut. It must answer the
/// handshake: a server being torn down may still hold its listening socket for a moment.
fn server_is_up(context: &Context) -> bool {
    Client::connect(&context.socket).is_ok_and(|mut client| client.welcome().is_ok())
}

fn server_gone(context: &Context) -> Failure {
    Failure::new(
        ErrorCode::ServerDisconnected,
        format!(
            "the server at {} went away while watching",
            context.socket.display()
        ),
        "check `phux status`, then watch again",
    )
}

fn link_gone(satellite: &str) -> Failure {
    Failure::new(
        ErrorCode::ServerDisconnected,
        format!("the link to satellite {satellite} dropped (or its server stopped) while watching"),
        "check `phux ls --json` for `unreachable`, then watch again",
    )
}

fn ended_before(pane: Option<PaneId>, until: &[WatchEventName]) -> Failure {
    let names: Vec<&str> = until.iter().map(|n| n.as_str()).collect();
    match pane {
        Some(pane) => Failure::new(
            ErrorCode::PaneExited,
            format!("{pane} exited before any of: {}", names.join(", ")),
            "list what exists with `phux ls --json`",
        ),
        None => Failure::new(
            ErrorCode::ServerDisconnected,
            format!(
                "the server ended the stream before any of: {}",
                names.join(", ")
            ),
            "check `phux status`, then watch again",
        ),
    }
}

/// A descriptor that becomes readable when one of the `STOP_SIGNALS` arrives: the stream
/// then ends as the user asked, with 0, instead of the signal killing the process mid-line.
fn stop_on_signals() -> Result<UnixStream, Failure> {
    let cannot = |e: std::io::Error| {
        Failure::new(
            ErrorCode::Transport,
            format!("cannot prepare for Ctrl-C: {e}"),
            "retry; if it persists, check the process's file descriptor limit",
        )
    };
    let (read_end, write_end) = UnixStream::pair().map_err(cannot)?;
    write_end.set_nonblocking(true).map_err(cannot)?;
    for signal in STOP_SIGNALS {
        let write_end = write_end.try_clone().map_err(cannot)?;
        signal_hook::low_level::pipe::register(signal, write_end).map_err(cannot)?;
    }
    Ok(read_end)
}

/// Prints one event; an error means the reader is gone.
fn print(event: &WatchEvent, json: bool) -> std::io::Result<()> {
    if json {
        output::write_json(event)
    } else {
        output::write_line(&readable(event))
    }
}

/// `@3 command_finished exit_code=0`: the pane, the event, then its fields as `key=value`
/// with JSON values.
pub fn readable(event: &WatchEvent) -> String {
    let mut line = match &event.terminal {
        Some(terminal) => format!("{terminal} {}", event.kind.name()),
        None => event.kind.name().to_owned(),
    };
    if let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(&event.kind) {
        for (key, value) in fields.iter().filter(|(k, _)| k.as_str() != "event") {
            line.push_str(&format!(" {key}={value}"));
        }
    }
    // JSON escapes C0 controls but not C1 or bidi overrides, which a title may carry.
    phux_core::limits::for_display(&line).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_readable_line_names_pane_event_and_fields() {
        let event = WatchEvent {
            terminal: Some(TerminalAddr::local(PaneId(3))),
            kind: WatchEventKind::CommandFinished {
                exit_code: Some(42),
            },
            t: Some(0.5),
            ts: None,
        };
        assert_eq!(readable(&event), "@3 command_finished exit_code=42");
        let bell = WatchEvent {
            terminal: None,
            kind: WatchEventKind::Bell,
            t: None,
            ts: None,
        };
        assert_eq!(readable(&bell), "bell");
    }
}
