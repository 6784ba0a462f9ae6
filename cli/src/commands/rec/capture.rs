//! The recording half of `phux rec`: a live pane (optionally from its flight recorder), or a
//! command run in a new headless pane that is removed when the recording ends.

use super::progress::RecordProgress;
use super::Args;
use crate::client::record::{record, RecordError, RecordRequest, StopReason};
use crate::client::{ensure_server, target, Client};
use crate::commands::Context;
use crate::failure::Failure;
use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;
use phux_core::wire::{ClientMessage, Kill, NewSession, NewSessionOk};
use phux_recorder::{CastVersion, RecordingSummary};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// A recording that was written.
pub struct Captured {
    pub summary: RecordingSummary,
    pub reason: StopReason,
}

/// Starts at the pane's birth: the flight recorder keeps a keyframe of the blank screen.
const FROM_BIRTH_MS: u64 = u64::MAX / 2_000_000;

pub fn capture(args: &Args, context: &Context, cast_path: &Path) -> Result<Captured, Failure> {
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
    ] {
        let _ = signal_hook::flag::register(signal, Arc::clone(&stop));
    }
    let (client, pane, since_ms, spawned) = if args.command.is_empty() {
        let (client, pane) = live_target(args, context)?;
        (client, pane, args.since, false)
    } else {
        let (client, pane) = spawn_command(args, context)?;
        (client, pane, Some(FROM_BIRTH_MS), true)
    };
    let request = RecordRequest {
        pane,
        output: cast_path,
        version: if args.cast_version == 3 {
            CastVersion::V3
        } else {
            CastVersion::V2
        },
        overwrite: args.overwrite,
        idle_limit: Some(args.idle_limit.unwrap_or(super::DEFAULT_IDLE_LIMIT)),
        since_ms,
        duration: args
            .duration
            .filter(|d| *d > 0.0)
            .map(Duration::from_secs_f64),
        command: (!args.command.is_empty()).then(|| args.command.join(" ")),
        stop,
    };
    let mut progress = RecordProgress::start(pane, args.json);
    let result = record(client, &request, &mut |events, bytes| {
        progress.update(events, bytes)
    });
    progress.finish();
    if spawned && !matches!(result, Ok((_, StopReason::PaneExited(_)))) {
        remove_pane(context, pane);
    }
    let (summary, reason) = result.map_err(|e| record_failure(e, cast_path))?;
    Ok(Captured { summary, reason })
}

fn live_target(args: &Args, context: &Context) -> Result<(Client, PaneId), Failure> {
    let mut client = Client::connect(&context.socket)?;
    let text = args.target.as_deref().unwrap_or(".");
    let resolution = target::resolve_text(&mut client, text)
        .map_err(|e| Failure::from(e).partial_view_exits_1())?;
    crate::commands::values::warn_if_partial(resolution.partial_warning());
    Ok((client, resolution.pane()))
}

fn spawn_command(args: &Args, context: &Context) -> Result<(Client, PaneId), Failure> {
    let mut client = ensure_server(&context.socket)?;
    let (cols, rows) = args.size.map_or_else(caller_size, |g| (g.cols, g.rows));
    let ok: NewSessionOk = client.request(ClientMessage::NewSession(NewSession {
        id: 0,
        name: Some(format!("rec-{}", std::process::id())),
        cwd: std::env::current_dir()
            .ok()
            .map(|d| d.display().to_string()),
        env: Vec::new(),
        command: Some(args.command.clone()),
        cols: Some(cols),
        rows: Some(rows),
    }))?;
    Ok((client, ok.pane))
}

/// This terminal's size when there is one, else 80x24.
fn caller_size() -> (u16, u16) {
    rustix::termios::tcgetwinsize(std::io::stdout())
        .ok()
        .filter(|w| w.ws_col > 0 && w.ws_row > 0)
        .map_or((80, 24), |w| (w.ws_col, w.ws_row))
}

fn remove_pane(context: &Context, pane: PaneId) {
    if let Ok(mut client) = Client::connect(&context.socket) {
        let _: Result<phux_core::wire::Done, _> = client.request(ClientMessage::Kill(Kill {
            id: 0,
            panes: vec![pane],
        }));
    }
}

fn record_failure(error: RecordError, cast_path: &Path) -> Failure {
    match error {
        RecordError::Client(e) => Failure::from(e),
        RecordError::Cast(e) => {
            let remedy = e.remedy();
            Failure::new(
                ErrorCode::RecordFailed,
                format!("{} ({})", e, cast_path.display()),
                remedy,
            )
        }
    }
}
