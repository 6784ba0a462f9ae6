//! `phux tape record`: what is typed into a pane — through the TUI, `attach`, `send-keys`,
//! `paste` or any other client — written as a VHS tape that `phux tape` plays back on a pane of
//! the same grid. The server hands the keys over on a `tap_input` stream (the owner's local
//! connections only); they are decoded into the tape's keys (`decode`), composed into commands
//! (`compose`) under a header of settings (`header`), checked by reading the tape back with
//! the tape's own planner, and written atomically.

pub mod compose;
pub mod decode;
pub mod header;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use phux_client::failure::Failure;
use phux_client::verbs::font::FontChoice;
use phux_client::Pushed;
use phux_client::{Client, Context};
use phux_core::documents::WatchEventKind;
use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;
use phux_core::wire::{
    ClientMessage, ServerMessage, ShellState, ShellStateOk, TapInput, TapInputStart,
};

use compose::Timed;
use header::Header;

/// The outputs a recorded tape may name (`--output-format`); `none` names none.
pub const OUTPUT_FORMATS: &[&str] = &["gif", "png", "apng", "cast", "txt", "mp4", "webm", "none"];

/// How often the stop flag and the duration are checked while nothing is typed.
const POLL: Duration = Duration::from_millis(50);
/// The most keystrokes one recording keeps (a person types a few a second: hours of typing).
pub const MAX_STROKES: usize = 1_000_000;

/// What to record and how.
#[derive(Debug, Clone)]
pub struct RecordOptions {
    /// The pane (`.` when absent: the most recently active one).
    pub target: Option<String>,
    /// The tape to write.
    pub out: PathBuf,
    /// The extension of the tape's `Output` line, or `none`.
    pub output_format: String,
    /// Pauses this long or longer become `Sleep`s.
    pub idle: Duration,
    /// Stop after this long.
    pub duration: Option<Duration>,
    /// Replace a file already at `out`.
    pub overwrite: bool,
    /// The font flags; the config file's `[defaults]` font keys when none is given.
    pub font: FontChoice,
    /// No progress on stderr.
    pub quiet: bool,
}

/// Why the recording ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ended {
    /// Ctrl-C (or TERM, HUP).
    Interrupted,
    Duration,
    PaneExited,
    /// It holds the most keys one tape keeps (`MAX_STROKES`).
    KeyLimit,
    /// The server ended the stream (it stopped, or dropped the recorder for falling behind).
    ServerEnded,
}

/// What `tape record --json` prints.
#[derive(Debug, Clone, serde::Serialize)]
pub struct TapeRecordJson {
    pub schema_version: u32,
    pub path: String,
    pub pane: String,
    pub cols: u16,
    pub rows: u16,
    pub width_px: u32,
    pub height_px: u32,
    /// Commands in the tape (settings and actions; comments are none).
    pub commands: usize,
    /// Keys recorded (each typed character, key press and pasted character).
    pub keys: usize,
    pub typing_speed_ms: u64,
    pub duration_ms: u64,
    pub ended: Ended,
    pub notes: Vec<String>,
}

/// Records until Ctrl-C, `--duration` or the pane's end, writes the tape, and returns what
/// `--json` prints.
pub fn record(options: &RecordOptions, context: &Context) -> Result<TapeRecordJson, Failure> {
    check_output(options)?;
    let font = with_config_font(&options.font, options.quiet);
    font.check(1)?;
    let mut client = Client::connect(&context.socket)?;
    let selector = phux_client::target::parse(options.target.as_deref().unwrap_or("."))?;
    let pane = phux_client::values::resolve_single_pane(&mut client, &selector)?;
    let shell: ShellStateOk = client.request(ClientMessage::ShellState(ShellState {
        id: 0,
        pane,
        output_after: None,
        since_mark: None,
    }))?;
    let start: TapInputStart = client.request(ClientMessage::TapInput(TapInput { id: 0, pane }))?;
    let stop = Arc::new(AtomicBool::new(false));
    for signal in phux_client::values::STOP_SIGNALS {
        let _ = signal_hook::flag::register(signal, Arc::clone(&stop));
    }
    if !options.quiet {
        phux_client::output::stderr_line(&format!(
            "phux: recording what is typed into {pane} ({}x{}) as {}; Ctrl-C ends it",
            start.cols,
            start.rows,
            options.out.display()
        ));
    }
    let began = Instant::now();
    let (strokes, ended, mut notes) = listen(&mut client, options, &stop)?;
    let elapsed = began.elapsed();
    drop(client);
    let end_ns = start.now_ns + u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX);
    let (cols, rows) = size_now(context, pane).unwrap_or((start.cols, start.rows));
    if (cols, rows) != (start.cols, start.rows) {
        notes.push(format!(
            "{pane} was {}x{} when the recording began and {cols}x{rows} at its end: the tape \
             plays on a {cols}x{rows} grid",
            start.cols, start.rows
        ));
    }
    let body = compose::compose(
        &strokes,
        start.now_ns,
        end_ns,
        u64::try_from(options.idle.as_millis()).unwrap_or(u64::MAX),
    );
    let header = header_of(
        options,
        &font,
        &shell,
        pane,
        (cols, rows),
        body.typing_ms,
        &mut notes,
    );
    let text = format!(
        "{}\n{}",
        header.render().map_err(|e| unwritable_size(&e.0))?,
        compose::render(&body.lines)
    );
    let (width_px, height_px) = header.size_px().map_err(|e| unwritable_size(&e.0))?;
    let commands = read_back(&text, &options.out, (cols, rows))?;
    phux_core::atomic_file::write(
        &options.out,
        text.as_bytes(),
        phux_core::atomic_file::PUBLIC,
    )
    .map_err(|e| {
        Failure::new(
            ErrorCode::OutputUnwritable,
            format!("cannot write {}: {e}", options.out.display()),
            "check the directory and the free disk space",
        )
    })?;
    Ok(TapeRecordJson {
        schema_version: 1,
        path: options.out.display().to_string(),
        pane: pane.to_string(),
        cols,
        rows,
        width_px,
        height_px,
        commands,
        keys: strokes.len(),
        typing_speed_ms: body.typing_ms,
        duration_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
        ended,
        notes,
    })
}

/// Refuses, before anything is recorded, a tape path that is no `.tape`, is already there
/// (without `--overwrite`), or lies in a directory that is missing or cannot be written.
fn check_output(options: &RecordOptions) -> Result<(), Failure> {
    let out = &options.out;
    if out.extension().and_then(|e| e.to_str()) != Some("tape") {
        return Err(Failure::new(
            ErrorCode::UnsupportedFormat,
            format!("-o {}: a recorded tape is a .tape file", out.display()),
            "name the output FILE.tape (its Output line is FILE.gif, or --output-format)",
        ));
    }
    if !OUTPUT_FORMATS.contains(&options.output_format.as_str()) {
        return Err(Failure::new(
            ErrorCode::InvalidArgument,
            format!(
                "--output-format {}: expected one of {}",
                options.output_format,
                OUTPUT_FORMATS.join(", ")
            ),
            "see `phux tape record --help`",
        )
        .with_exit_code(2));
    }
    if std::fs::symlink_metadata(out).is_ok() && !options.overwrite {
        return Err(Failure::new(
            ErrorCode::OutputExists,
            format!("{} already exists", out.display()),
            "choose another path, or pass --overwrite",
        ));
    }
    phux_client::verbs::rec::check_directory(out)
}

/// The font flags, else the config file's `[defaults]` font keys (as `rec` takes them).
fn with_config_font(flags: &FontChoice, quiet: bool) -> FontChoice {
    if !flags.is_empty() {
        return flags.clone();
    }
    let defaults = match phux_client::registry::load_config() {
        Ok(loaded) => loaded.file.defaults,
        Err(error) => {
            if !quiet {
                phux_client::output::warn(&format!("{error}; the tape gets the default font"));
            }
            return FontChoice::default();
        }
    };
    FontChoice {
        fonts: defaults
            .font
            .as_deref()
            .map(phux_encoders::FontOptions::family_list)
            .unwrap_or_default(),
        font_size: defaults.font_size,
        line_height: defaults.line_height,
        letter_spacing: defaults.letter_spacing,
    }
}

/// Reads the tap until a stop: the keystrokes, why it stopped, and notes.
fn listen(
    client: &mut Client,
    options: &RecordOptions,
    stop: &AtomicBool,
) -> Result<(Vec<Timed>, Ended, Vec<String>), Failure> {
    let deadline = options.duration.map(|d| Instant::now() + d);
    let mut strokes = Vec::new();
    let mut notes = Vec::new();
    client.set_read_timeout(None)?;
    let ended = loop {
        if stop.load(Ordering::Relaxed) {
            break Ended::Interrupted;
        }
        let now = Instant::now();
        if deadline.is_some_and(|d| now >= d) {
            break Ended::Duration;
        }
        let wait = deadline.map_or(now + POLL, |d| d.min(now + POLL));
        match client.next_message(Some(wait))? {
            Pushed::Message(ServerMessage::InputTapped(input)) => {
                let decoded = match &input.paste {
                    Some(text) => decode::pasted(text),
                    None => decode::decode(&input.bytes),
                };
                if strokes.len() + decoded.len() > MAX_STROKES {
                    notes.push(format!(
                        "the recording stopped at {MAX_STROKES} keys, the most one tape keeps"
                    ));
                    break Ended::KeyLimit;
                }
                strokes.extend(decoded.into_iter().map(|stroke| Timed {
                    t_ns: input.t_ns,
                    stroke,
                }));
            }
            Pushed::Message(ServerMessage::Event(event))
                if matches!(event.event, WatchEventKind::PaneClosed { .. }) =>
            {
                break Ended::PaneExited;
            }
            Pushed::Message(ServerMessage::ObserverLagged(_)) => {
                notes.push(
                    "the server stopped the recording: it fell behind reading the keys".into(),
                );
                break Ended::ServerEnded;
            }
            Pushed::Message(_) | Pushed::TimedOut | Pushed::Stopped => {}
            Pushed::Ended => {
                notes.push("the server ended the recording (it stopped)".into());
                break Ended::ServerEnded;
            }
        }
    };
    Ok((strokes, ended, notes))
}

/// The pane's grid now, asked on a connection of its own (`None` once the pane is gone).
fn size_now(context: &Context, pane: PaneId) -> Option<(u16, u16)> {
    let mut client = Client::connect(&context.socket).ok()?;
    let state = client.state().ok()?;
    state
        .sessions
        .iter()
        .flat_map(|s| {
            s.windows
                .iter()
                .flat_map(|w| w.panes.iter())
                .chain(&s.unplaced)
        })
        .find(|p| p.id == pane)
        .map(|p| (p.cols, p.rows))
}

/// The shells the tape runner starts as a demo shell, or as written.
const SHELLS: &[&str] = &["bash", "zsh", "fish", "sh", "dash", "ksh", "mksh"];

fn header_of(
    options: &RecordOptions,
    font: &FontChoice,
    shell: &ShellStateOk,
    pane: PaneId,
    (cols, rows): (u16, u16),
    typing_ms: u64,
    notes: &mut Vec<String>,
) -> Header {
    let program = shell.program.trim_start_matches('-');
    let shell = match program {
        // The tape's default.
        "bash" => None,
        p if SHELLS.contains(&p) => Some(p.to_owned()),
        other => {
            notes.push(format!(
                "{pane} runs {other}, which is no shell the tape starts: the tape starts bash; \
                 add the command that started {other} at its top"
            ));
            None
        }
    };
    let output = (options.output_format != "none").then(|| {
        let stem = options
            .out
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "recording".into());
        format!("{stem}.{}", options.output_format)
    });
    Header {
        output,
        shell,
        font_family: (!font.fonts.is_empty()).then(|| font.fonts.join(", ")),
        font_size: font.font_size.map(f64::from),
        line_height: font.line_height.map(f64::from),
        letter_spacing: font.letter_spacing.map(f64::from),
        theme: None,
        cols,
        rows,
        typing_ms,
        comments: vec![
            format!("Recorded by `phux tape record` from {pane} ({cols}x{rows})."),
            format!(
                "Play it with `phux tape {}`.",
                options
                    .out
                    .file_name()
                    .map_or_else(|| "FILE.tape".into(), |n| n.to_string_lossy())
            ),
        ],
    }
}

/// Reads the tape back as `phux tape` will: it must parse, and plan the recorded grid. The
/// number of commands in it.
fn read_back(text: &str, out: &Path, grid: (u16, u16)) -> Result<usize, Failure> {
    let bug = |what: String| {
        Failure::new(
            ErrorCode::RecordFailed,
            format!("the recorded tape does not read back: {what}; nothing was written"),
            "report this bug, with the keys typed",
        )
    };
    let steps = crate::parser::parse_text(out, text).map_err(|e| bug(e.to_string()))?;
    let commands = steps.len();
    let plan = crate::plan::plan(steps).map_err(|e| unwritable_size(&e.message))?;
    if plan.grid != grid {
        return Err(bug(format!(
            "it plays on {}x{} cells, not the pane's {}x{}",
            plan.grid.0, plan.grid.1, grid.0, grid.1
        )));
    }
    Ok(commands)
}

fn unwritable_size(problem: &str) -> Failure {
    Failure::new(
        ErrorCode::InvalidArgument,
        format!("the pane's grid cannot be a tape's image: {problem}"),
        "use a smaller --font-size, or record a smaller pane",
    )
    .with_exit_code(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `tape record --json`'s document, pinned (`tests/golden/docs/tape_record.json`).
    #[test]
    fn the_document_is_pinned() {
        let doc = TapeRecordJson {
            schema_version: 1,
            path: "demo.tape".into(),
            pane: "@3".into(),
            cols: 80,
            rows: 24,
            width_px: 1160,
            height_px: 648,
            commands: 11,
            keys: 23,
            typing_speed_ms: 120,
            duration_ms: 6412,
            ended: Ended::Interrupted,
            notes: vec![
                "@3 was 80x20 when the recording began and 80x24 at its end: the tape \
                         plays on a 80x24 grid"
                    .into(),
            ],
        };
        let golden =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden/docs/tape_record.json");
        let text = serde_json::to_string(&doc).unwrap() + "\n";
        phux_golden::check(&golden, &text);
    }
}
