//! `phux watch [TARGET...]`: prints every watch event of the panes TARGETs name (every pane of
//! a session, a window or a `#tag`; every pane without TARGET) as it happens: with `--json` one
//! `WatchEvent` object per line (NDJSON, unversioned), otherwise one readable line. `--until
//! EVENT` (repeatable) stops with 0 at the first of those events, or with `--all` once every
//! watched pane has had one; `--timeout` stops with 124; the watched panes closing first stops
//! with 1 when `--until` was given (0 otherwise); the server going away stops with 1
//! (`server_disconnected`) either way. Each JSON line carries `t` (seconds since the watch
//! began) and `ts` (the server's wall clock). Ctrl-C (or SIGTERM, SIGHUP) and a reader that
//! stops reading (a closed pipe) end the stream with 0. An unknown event name is refused before
//! connecting. `--since DURATION` first replays the events of the last DURATION from the
//! server's memory of recent events (their `t` is negative: before the watch began), then goes
//! on live, so a watcher that starts late still sees the ask or the exit it missed.

use std::os::fd::AsFd;
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use phux_core::documents::{WatchEvent, WatchEventName};
use phux_core::error_code::ErrorCode;
use phux_core::exit_code::SUCCESS;
use phux_core::ids::{PaneId, TerminalAddr};
use phux_core::selector::Selector;
use phux_core::wire::ServerMessage;

use crate::client::{target, Client, Pushed};
use crate::commands::values::{connect, parse_seconds, resolve_pane, STOP_SIGNALS};
use crate::commands::Context;
use crate::failure::{conclude, Failure, VerbResult};
use crate::output;

mod scope;
pub use phux_client::verbs::watch::{batch, BatchSpec, WatchBatch};
use phux_client::verbs::watch::{server_gone, WatchClock};
mod targets;
use scope::{Scope, Step};

/// Print pane events as they happen (NDJSON with --json)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Stop (exit 0) at the first event of this name; repeat for any of several
    #[arg(long = "until", value_name = "EVENT")]
    pub until: Vec<String>,
    /// With --until: stop only once every watched pane has had one of the events (each pane's
    /// exit status is in its `pane_closed` / `command_finished` line); a pane that closes
    /// without it ends the watch with 1
    #[arg(long, requires = "until")]
    pub all: bool,
    /// First replay the events of the last DURATION (e.g. 30s, 5m, 1h; the server remembers
    /// the last hour, up to 16384 events), their `t` negative, then go on live; a replayed
    /// event counts for --until
    #[arg(long, value_name = "DURATION", value_parser = crate::commands::values::parse_duration_ms)]
    pub since: Option<u64>,
    /// Stop after SECS seconds and exit 124
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// One JSON object per event and line, with `t` (seconds since the watch began) and `ts`
    /// (the server's clock); exit 1 if the server goes away
    #[arg(long)]
    pub json: bool,
    /// The panes: a session, a window or a #tag covers every pane in it; several TARGETs
    /// together [default: every pane]
    #[arg(value_name = "TARGET")]
    pub targets: Vec<String>,
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
    let selectors = args
        .targets
        .iter()
        .map(|text| target::parse(text))
        .collect::<Result<Vec<_>, _>>()?;
    let deadline = args.timeout.map(|t| Instant::now() + t);
    let stop = stop_on_signals()?;
    let began = WatchClock::start();
    let mut client = connect(context)?;
    // A satellite pane's events come through the hub: a stream that ends there was cut by the
    // link or the satellite's server.
    let satellite = selectors.iter().find_map(|s| match s {
        phux_core::selector::Selector::Remote { host, .. } => Some(host.clone()),
        _ => None,
    });
    let (mut scope, single) = subscribe(
        &mut client,
        context,
        &selectors,
        Interest {
            until,
            all: args.all,
            since_ms: args.since,
        },
    )?;
    let mut resumes = 0;
    let mut printed = 0_usize;
    loop {
        match client.next_message_or_stop(deadline, Some(stop.as_fd()))? {
            Pushed::Message(ServerMessage::Event(event)) => {
                let step = scope.step(event.pane, &event.event);
                if step == Step::Skip {
                    continue;
                }
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
                printed += 1;
                if print(&line, args.json).is_err() {
                    return Ok(SUCCESS);
                }
                match step {
                    Step::Satisfied | Step::AllClosed => return Ok(SUCCESS),
                    Step::Unreachable(pane) => return Err(ended_before(Some(pane), &scope)),
                    Step::Skip | Step::Print => {}
                }
            }
            Pushed::Message(_) => {}
            Pushed::Stopped => return Ok(SUCCESS),
            Pushed::TimedOut => return Ok(timed_out(&args, printed).report(args.json)),
            Pushed::Ended if satellite.is_some() => {
                return Err(link_gone(satellite.as_deref().unwrap_or_default()))
            }
            Pushed::Ended => match resume(context, single, &mut resumes) {
                Resumed::Again(again) => client = *again,
                Resumed::ServerGone => return Err(server_gone(context)),
                Resumed::PaneGone if scope.until().is_empty() => return Ok(SUCCESS),
                Resumed::PaneGone => return Err(ended_before(single, &scope)),
            },
        }
    }
}

/// `--timeout` reached: exit 124 with a typed line on stderr, as `wait` says it (the events
/// printed so far are the output).
fn timed_out(args: &Args, printed: usize) -> Failure {
    let secs = args.timeout.unwrap_or_default().as_secs_f64();
    let what = if args.until.is_empty() {
        let plural = if printed == 1 { "" } else { "s" };
        format!("{printed} event{plural} printed")
    } else {
        format!("none of --until {} happened", args.until.join(", "))
    };
    Failure::new(
        ErrorCode::WaitTimedOut,
        format!("watch timed out after {secs}s ({what})"),
        "watch again with a longer --timeout (or none), or read the pane with `phux snapshot`",
    )
}

/// How many times one watch subscribes again after its stream ended with the panes still there.
const MAX_RESUMES: usize = 16;

/// What follows a stream that ended without being asked to.
enum Resumed {
    /// A server took over (the same one re-exec'd by `phux upgrade`, or one that took the
    /// panes over from their keepers after a crash): the watch goes on, subscribed to it.
    Again(Box<Client>),
    /// The watched pane is gone: its stream ended with it.
    PaneGone,
    /// No server answers (it stopped).
    ServerGone,
}

/// Subscribes again where the stream ended while the watched panes live on (an upgrade, or a
/// server that took the panes over after a crash). Events between the old server's last and
/// the new one's first are not replayed (the event ring is not carried over).
fn resume(context: &Context, single: Option<PaneId>, resumes: &mut usize) -> Resumed {
    if *resumes >= MAX_RESUMES {
        return Resumed::ServerGone;
    }
    *resumes += 1;
    let Ok(mut client) = Client::connect(&context.socket) else {
        return Resumed::ServerGone;
    };
    let Ok(state) = client.state() else {
        return Resumed::ServerGone;
    };
    if let Some(pane) = single {
        if !state.panes().any(|p| p.id == pane) {
            return Resumed::PaneGone;
        }
    }
    match client.subscribe_since(single, Vec::new(), None) {
        Ok(()) => Resumed::Again(Box::new(client)),
        Err(_) => Resumed::ServerGone,
    }
}

/// Subscribes `client` to the events of the panes `selectors` name and returns the scope that
/// filters and counts them, with the pane when the server filters for one pane itself.
///
/// One pane named outright (`@N`, `.`, `s:W.P`) keeps the server-side filter. Otherwise the
/// subscription covers every pane and is taken before the selectors are resolved (on a second
/// connection), so a watched pane cannot end unseen between the two. With `since_ms` the
/// server replays its recent events first; a pane's replayed stream does not end when the pane
/// closes, so the scope counts its close as it does for a set of panes.
fn subscribe(
    client: &mut Client,
    context: &Context,
    selectors: &[Selector],
    interest: Interest,
) -> Result<(Scope, Option<PaneId>), Failure> {
    let Interest {
        until,
        all,
        since_ms,
    } = interest;
    if let [selector] = selectors {
        if !matches!(
            selector,
            Selector::Session(_)
                | Selector::WindowIndex { .. }
                | Selector::WindowName { .. }
                | Selector::Tag(_)
        ) {
            let pane = resolve_pane(client, selector)?;
            client.subscribe_since(Some(pane), Vec::new(), since_ms)?;
            let shown = since_ms.map(|_| vec![pane]);
            let scope = Scope::new(shown, vec![pane], until, all);
            return Ok((scope, Some(pane)));
        }
    }
    client.subscribe_since(None, Vec::new(), since_ms)?;
    let mut resolver = connect(context)?;
    if selectors.is_empty() {
        // Every pane, those that come later too; `--all` counts the ones there now.
        let every = if all {
            resolver.state()?.panes().map(|pane| pane.id).collect()
        } else {
            Vec::new()
        };
        return Ok((Scope::new(None, every, until, all), None));
    }
    let panes = targets::watched_panes(&mut resolver, selectors, since_ms)?;
    Ok((Scope::new(Some(panes.clone()), panes, until, all), None))
}

/// What the watch waits for and from when.
struct Interest {
    until: Vec<WatchEventName>,
    all: bool,
    since_ms: Option<u64>,
}

fn link_gone(satellite: &str) -> Failure {
    Failure::new(
        ErrorCode::ServerDisconnected,
        format!("the link to satellite {satellite} dropped (or its server stopped) while watching"),
        "check `phux ls --json` for `unreachable`, then watch again",
    )
}

fn ended_before(pane: Option<PaneId>, scope: &Scope) -> Failure {
    let names: Vec<&str> = scope.until().iter().map(|n| n.as_str()).collect();
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
    use phux_core::documents::WatchEventKind;

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
