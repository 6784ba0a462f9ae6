//! `play`'s operation: plays a recording in a new pane beside TARGET. The cast is read here, in
//! the caller's process, so a malformed one is refused before any pane exists; the pane runs
//! `phux __play-cast`, which writes the cast to its own PTY.

use std::path::{Path, PathBuf};

use phux_core::documents::play::PLAY_SCHEMA_VERSION;
use phux_core::documents::{GridSize, PlayJson};
use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;
use phux_core::split::{check_ratio, SplitDirection};
use phux_player::{pass_duration, PlayError, PlayOptions as PlayerOptions, StartPoint};
use phux_recorder::{Cast, CastReader};

use crate::failure::Failure;
use crate::lifecycle::spawn_beside;
use crate::output;
use crate::values::{connect, warn_if_partial};
use crate::verbs::playback::Playback;
use crate::Context;
use crate::{target, Client};

/// Play a recording (.cast) in a new pane beside TARGET
#[derive(Debug, Clone)]
pub struct PlayOptions {
    /// The recording (.cast, asciicast v2 or v3)
    pub file: PathBuf,
    /// The pane to play beside
    pub target: String,
    pub playback: Playback,
    /// The divider: horizontal (stacked) or vertical (side by side)
    pub split: SplitDirection,
    /// The new pane's share of the space, strictly between 0 and 1
    pub ratio: f64,
}

/// Opens the pane that plays the recording (fitted, beside TARGET) and returns what `--json`
/// prints and the pane's address (`NAME/@N` on a satellite); the verb and the MCP tool share it.
pub fn start_playback(
    args: &PlayOptions,
    context: &Context,
) -> Result<(PlayJson, phux_core::ids::TerminalAddr), Failure> {
    check_ratio(args.ratio)?;
    let path = std::path::absolute(&args.file).unwrap_or_else(|_| args.file.clone());
    let cast = read(&path, args.playback.follow)?;
    let options = args.playback.options(cast.header.idle_time_limit);
    options.check().map_err(refused)?;
    let duration = duration(&cast, &options, args.playback.follow)?;
    let selector = target::parse(&args.target)?;
    let mut client = connect(context)?;
    let resolved = target::resolve_target(&mut client, &selector)
        .map_err(|e| Failure::from(e).partial_view_exits_1())?;
    warn_if_partial(resolved.partial_warning());
    let grid = GridSize {
        cols: cast.header.cols,
        rows: cast.header.rows,
    };
    let fit = (!args.playback.no_fit).then_some(grid);
    if let Some(grid) = fit {
        // The server refuses it too; here it is refused before a connection or a pane.
        phux_core::limits::check_grid(grid.cols, grid.rows)?;
    }
    let mut command = pane_command(&path, &args.playback, options.idle_limit)?;
    if client.route().is_some() {
        // The pane runs on a satellite: its own phux, found as the hub's proxy is; the cast
        // must be at the same path there.
        command[0] = "phux".to_owned();
    }
    let spawned = spawn_beside(
        &mut client,
        resolved.pane(),
        args.split,
        args.ratio,
        command,
        fit,
    )?;
    if fit.is_some() {
        warn_if_not_fitted(&mut client, spawned.pane, grid);
    }
    let address = resolved.address(spawned.pane);
    let document = PlayJson {
        schema_version: PLAY_SCHEMA_VERSION,
        terminal_id: spawned.pane,
        path: path.display().to_string(),
        cols: grid.cols,
        rows: grid.rows,
        events: cast.events.len() as u64,
        speed: options.speed,
        idle_limit: options.idle_limit,
        duration_ms: total_ms(duration, options.passes.count()),
        passes: options.passes.count(),
        satellite: client.route().map(str::to_owned),
    };
    Ok((document, address))
}

/// §4.16: the wait the caller is in for, every pass counted (passes replay back to back, the
/// soft reset between them takes no time); `None` for an endless loop, which has no end to wait
/// for.
fn total_ms(pass_secs: f64, passes: Option<u32>) -> Option<u64> {
    passes.map(|n| (pass_secs * f64::from(n) * 1000.0).round() as u64)
}

/// The whole cast. One whose last line was cut short (a recording cut by a crash) is played up
/// to it, with a warning naming the line; a followed one may end in a line still being
/// written, which is no news: what comes before it is what there is so far.
fn read(path: &Path, follow: bool) -> Result<Cast, Failure> {
    let invalid = |e: phux_recorder::CastError| {
        Failure::new(ErrorCode::CastInvalid, e.to_string(), e.remedy())
    };
    let mut reader = CastReader::open(path).map_err(invalid)?;
    let events = reader
        .by_ref()
        .collect::<Result<Vec<_>, _>>()
        .map_err(invalid)?;
    if let Some(cut) = reader.cut().filter(|_| !follow) {
        output::warn(&cut.to_string());
    }
    Ok(Cast {
        header: reader.into_header(),
        events,
    })
}

/// Seconds one pass takes. A followed recording may not have its marker yet: then it counts
/// what the file holds now.
fn duration(cast: &Cast, options: &PlayerOptions, follow: bool) -> Result<f64, Failure> {
    match pass_duration(&cast.events, options) {
        Err(PlayError::NoSuchMarker(_)) if follow => {
            let from_start = PlayerOptions {
                start: StartPoint::Beginning,
                ..options.clone()
            };
            pass_duration(&cast.events, &from_start).map_err(refused)
        }
        other => other.map_err(refused),
    }
}

fn refused(error: PlayError) -> Failure {
    Failure::new(
        ErrorCode::InvalidArgument,
        error.to_string(),
        error.remedy(),
    )
}

/// `phux __play-cast ABSOLUTE_PATH FLAGS...`, run by this same binary. The idle limit goes
/// explicitly: a followed cast is read by the pane as a stream, and it must clamp with the
/// limit this process reported.
pub fn pane_command(
    path: &Path,
    flags: &Playback,
    idle_limit: Option<f64>,
) -> Result<Vec<String>, Failure> {
    let exe = std::env::current_exe().map_err(|e| {
        Failure::new(
            ErrorCode::SpawnFailed,
            format!("cannot find the phux binary to run in the pane: {e}"),
            "run phux from an installed path",
        )
    })?;
    let mut command = vec![
        exe.display().to_string(),
        "__play-cast".to_owned(),
        path.display().to_string(),
    ];
    let flags = Playback {
        idle_limit,
        ..flags.clone()
    };
    command.extend(flags.to_args());
    Ok(command)
}

/// One line on stderr when the pane did not get the recording's grid; playback goes on.
fn warn_if_not_fitted(client: &mut Client, pane: PaneId, grid: GridSize) {
    let Ok(state) = client.state() else {
        return;
    };
    let size = state
        .sessions
        .iter()
        .flat_map(|s| &s.windows)
        .flat_map(|w| &w.panes)
        .find(|p| p.id == pane)
        .map(|p| (p.cols, p.rows));
    if let Some((cols, rows)) = size {
        if (cols, rows) != (grid.cols, grid.rows) {
            output::warn(&format!(
                "{pane} is {cols}x{rows}, not the recording's {}x{}; playing anyway",
                grid.cols, grid.rows
            ));
        }
    }
}
