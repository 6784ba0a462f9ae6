//! The recording half of `phux rec`: a live pane (optionally from its flight recorder), or a
//! command run in a new headless pane that is removed when the recording ends.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;
use phux_core::wire::{ClientMessage, Kill, NewSession, ObserveStart};
use phux_recorder::{CastVersion, RecordingSummary};

use super::progress::RecordProgress;
use super::RecOptions;
use crate::failure::Failure;
use crate::record::{record, record_stream, RecordError, RecordRequest, StopReason};
use crate::Context;
use crate::{on_a_server, target, Client};

/// A recording that was written.
pub struct Captured {
    pub summary: RecordingSummary,
    pub reason: StopReason,
    /// The recording is of `-- COMMAND` (not of a live pane).
    pub spawned: bool,
    /// The stream ended because the server went away (checked only when it ended unasked).
    pub server_gone: bool,
}

pub fn capture(
    args: &RecOptions,
    context: &Context,
    cast_path: &Path,
    private: bool,
    stop: Arc<AtomicBool>,
) -> Result<Captured, Failure> {
    // A live pane is observed now (or from `--since`); a command's pane is observed from
    // before its program starts, in the same request that creates it.
    let (mut client, pane, observed) = if args.command.is_empty() {
        let (client, pane) = live_target(args, context)?;
        (client, pane, None)
    } else {
        let (client, start) = spawn_command(args, context)?;
        (client, start.pane, Some(start))
    };
    // The server that streams: a stream it ends while another server answers afterwards (one
    // that took the panes over from their keepers after a crash) was cut.
    let streaming_pid = client.welcome().map(|w| w.pid).ok();
    let spawned = observed.is_some();
    // A satellite pane's stream that ends unasked was cut by the link or that host's server.
    let routed = client.route().is_some();
    let request = RecordRequest {
        pane,
        output: cast_path,
        version: if args.cast_version == 3 {
            CastVersion::V3
        } else {
            CastVersion::V2
        },
        overwrite: args.overwrite,
        private,
        idle_limit: Some(args.idle_limit.unwrap_or(super::DEFAULT_IDLE_LIMIT)),
        since_ms: args.since,
        duration: args
            .duration
            .filter(|d| *d > 0.0)
            .map(Duration::from_secs_f64),
        // The past alone, or a still of a live pane (its screen now): nothing live to wait for.
        until_caught_up: (args.since.is_some() || args.still_frame().is_some())
            && !args.follow
            && args.duration.is_none()
            && args.command.is_empty(),
        command: (!args.command.is_empty()).then(|| args.command.join(" ")),
        stop,
    };
    let mut progress = RecordProgress::start(pane, args.quiet);
    let mut on_progress = |events, bytes| progress.update(events, bytes);
    let result = match observed {
        Some(start) => record_stream(client, start, &request, &mut on_progress),
        None => record(client, &request, &mut on_progress),
    };
    progress.finish();
    // A handshake, not a bare connect: a server being torn down may still hold its socket.
    // Never a server started to answer, and only the one that streamed.
    let server_gone = matches!(result, Ok((_, StopReason::StreamEnded)))
        && (routed
            || !Client::connect_running(&context.socket).is_ok_and(|mut client| {
                client.welcome().is_ok_and(|w| Some(w.pid) == streaming_pid)
            }));
    if spawned && !matches!(result, Ok((_, StopReason::PaneExited(_)))) {
        remove_pane(context, pane);
    }
    let (summary, reason) = result.map_err(|e| record_failure(e, cast_path))?;
    Ok(Captured {
        summary,
        reason,
        spawned,
        server_gone,
    })
}

fn live_target(args: &RecOptions, context: &Context) -> Result<(Client, PaneId), Failure> {
    let mut client = Client::connect(&context.socket)?;
    let text = args.target.as_deref().unwrap_or(".");
    let resolution = target::resolve_text(&mut client, text)
        .map_err(|e| Failure::from(e).partial_view_exits_1())?;
    crate::values::warn_if_partial(resolution.partial_warning());
    Ok((client, resolution.pane()))
}

/// Starts the command in a new headless pane whose stream this connection then carries.
fn spawn_command(args: &RecOptions, context: &Context) -> Result<(Client, ObserveStart), Failure> {
    crate::engine_setup::prepare_for_server(&context.socket, args.quiet)?;
    let (cols, rows) = args.size.map_or_else(caller_size, |g| (g.cols, g.rows));
    let cwd = std::env::current_dir()
        .ok()
        .map(|d| d.display().to_string());
    let request = NewSession {
        id: 0,
        name: Some(format!("rec-{}", std::process::id())),
        cwd,
        env: Vec::new(),
        command: Some(args.command.clone()),
        cols: Some(cols),
        rows: Some(rows),
        observe: true,
        history_limit: None,
    };
    Ok(on_a_server(&context.socket, |client| {
        client.request(ClientMessage::NewSession(request.clone()))
    })?)
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
