//! `phux rec`: record a pane (live, or its past up to now with `--since`, then live with
//! `--follow`), a command in a new headless pane (`-- COMMAND`), or re-render an existing
//! recording (`--from`), to `.cast`, `.gif`, `.png`/`.apng` or a `.html` page that plays it, or
//! one still `.png` of a screen (`--still`, `--frame`).

mod capture;
pub(crate) mod export;
pub(crate) mod html;
mod progress;

use crate::commands::values::STOP_SIGNALS;
use crate::commands::Context;
use crate::failure::{conclude, Failure};
use phux_core::docs::RecJson;
use phux_core::error_code::ErrorCode;
use phux_encoders::{resolve_output, OutputFormat};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Record a pane, a command or a recording to .cast, .gif or .png
#[derive(clap::Args)]
pub struct Args {
    /// The pane to record (default: the most recently active one)
    #[arg(value_name = "TARGET")]
    target: Option<String>,
    /// Output file; its extension picks the format (.cast, .gif, .png, .apng; none: .gif). Its
    /// directory must exist and be writable: checked before anything is recorded
    #[arg(short = 'o', long = "out", value_name = "PATH")]
    out: PathBuf,
    /// Re-render (or transcode) this recording instead of recording; never touches the server
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    /// Stop after this many seconds
    #[arg(long, value_name = "SECS")]
    duration: Option<f64>,
    /// Write the past this far back, from the pane's flight recorder (e.g. 60s, 2m, 500ms), up
    /// to now and exit; with --follow or --duration the recording then goes on live
    #[arg(long, value_name = "DURATION", value_parser = crate::commands::values::parse_duration_ms)]
    since: Option<u64>,
    /// With --since: after the past, keep recording live (until Ctrl-C or the pane exits)
    #[arg(long, requires = "since")]
    follow: bool,
    /// Size of the pane for `-- COMMAND` (default: this terminal's size, else 80x24)
    #[arg(long, value_name = "COLSxROWS", value_parser = crate::commands::values::parse_geometry)]
    size: Option<phux_core::docs::GridSize>,
    /// Longest pause kept when playing or rendering; written to a recording's header
    /// [default: [defaults] idle-limit, else 2, or for --from the recording's own
    /// idle_time_limit]
    #[arg(long, value_name = "SECS")]
    idle_limit: Option<f64>,
    /// asciicast version of a .cast output
    #[arg(long, value_name = "2|3", default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=3))]
    cast_version: u8,
    /// Frames per second cap of an animation [default: [defaults] fps, else 30]
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    fps: Option<u32>,
    /// Playback speed of an animation
    #[arg(long, default_value_t = 1.0)]
    speed: f64,
    /// How long an animation holds its last frame
    #[arg(long, value_name = "SECS", default_value_t = 3.0)]
    last_frame: f64,
    /// Stop an animation before it exceeds this many bytes (the file stays playable)
    /// [default: [defaults] max-bytes, else 8388608]
    #[arg(long, value_name = "BYTES")]
    max_bytes: Option<u64>,
    /// Colour theme of an animation (the recording's own theme wins when it has one)
    /// [default: [defaults] theme]
    #[arg(long)]
    theme: Option<String>,
    /// `[defaults] theme`: used when neither --theme nor the recording names one.
    #[arg(skip)]
    default_theme: Option<String>,
    /// Integer pixel scale of an animation (1 = 8x16 px bitmap cells; multiplies --font-size)
    /// [default: [defaults] scale, else 1]
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=16))]
    scale: Option<u8>,
    #[command(flatten)]
    font: crate::commands::font_flags::FontFlags,
    /// Pixels of background around the grid of an animation
    #[arg(long, value_name = "PX", default_value_t = phux_encoders::DEFAULT_PADDING)]
    padding: u32,
    /// Pixels of --margin-fill around the window of an animation
    #[arg(long, value_name = "PX", default_value_t = 0)]
    margin: u32,
    /// Colour of the margin (and outside rounded corners), as #rrggbb [default: #171717]
    #[arg(long, value_name = "COLOR", value_parser = parse_color)]
    margin_fill: Option<phux_encoders::Rgb>,
    /// A window bar above the grid: Colorful, ColorfulRight, Rings or RingsRight
    #[arg(long, value_name = "STYLE", value_parser = parse_window_bar)]
    window_bar: Option<phux_encoders::WindowBar>,
    /// Radius of the window's rounded corners, in pixels
    #[arg(long, value_name = "PX", default_value_t = 0)]
    border_radius: u32,
    /// Replace whatever is at the output path (a symlink there is replaced, never followed);
    /// without it nothing at the path is ever replaced
    #[arg(long)]
    overwrite: bool,
    /// Write one PNG of the final screen instead of an animation (same as --frame last); of a
    /// live pane without --duration or --since, its screen now
    #[arg(long, conflicts_with = "frame")]
    still: bool,
    /// Write one PNG of this screen instead of an animation: `last`, N for the screen after
    /// the recording's first N screen events (output or resize), or a time (`3.5s`, `1m`) for
    /// the screen as it stood then
    #[arg(long, value_name = "last|N|TIME", value_parser = parse_frame)]
    frame: Option<phux_encoders::StillFrame>,
    /// Print the result document (and nothing else) on stdout
    #[arg(long)]
    json: bool,
    /// Run this command in a new headless pane and record it until it exits
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// `#rrggbb` (or `#rgb`) as a colour.
fn parse_color(text: &str) -> Result<phux_encoders::Rgb, String> {
    phux_encoders::Rgb::parse_hex(text)
        .map_err(|_| format!("{text:?} is not a colour like #674EFF"))
}

fn parse_window_bar(text: &str) -> Result<phux_encoders::WindowBar, String> {
    phux_encoders::WindowBar::parse(text).ok_or_else(|| {
        format!(
            "unknown window bar {text:?}: use {}",
            phux_encoders::WindowBar::NAMES.join(", ")
        )
    })
}

/// The idle limit a new recording gets when none is given.
pub const DEFAULT_IDLE_LIMIT: f64 = 2.0;

/// `last` or a frame number from 1.
fn parse_frame(text: &str) -> Result<phux_encoders::StillFrame, String> {
    if text.eq_ignore_ascii_case("last") {
        return Ok(phux_encoders::StillFrame::Last);
    }
    if let Ok(n) = text.parse::<usize>() {
        if n > 0 {
            return Ok(phux_encoders::StillFrame::Event(n));
        }
    }
    // A time has a unit (`3.5s`, `2m`): a bare number is a frame number.
    let time = text
        .ends_with(|c: char| c.is_ascii_alphabetic())
        .then(|| crate::commands::values::parse_duration_ms(text).ok())
        .flatten()
        .map(|ms| ms as f64 / 1000.0);
    time.map(phux_encoders::StillFrame::At).ok_or_else(|| {
        format!("{text:?} is not `last`, a frame number from 1, or a time such as 3.5s")
    })
}

impl Args {
    /// The still frame asked for by `--still` or `--frame`, if any.
    fn still_frame(&self) -> Option<phux_encoders::StillFrame> {
        self.frame
            .or(self.still.then_some(phux_encoders::StillFrame::Last))
    }
}

pub fn run(args: Args, context: &Context) -> i32 {
    let json = args.json;
    let stop = Arc::new(AtomicBool::new(false));
    for signal in STOP_SIGNALS {
        let _ = signal_hook::flag::register(signal, Arc::clone(&stop));
    }
    // A shared-resolver verb: a partial view keeps exit 1 (§5.2).
    let result = record_to_file_timed(args, context, stop)
        .map_err(Failure::partial_view_exits_1)
        .map(|(doc, recorded)| export::report(json, &doc, recorded));
    conclude(json, result)
}

/// The flags left unset take the config file's `[defaults]` (its recording keys), else the
/// built-in defaults. An unreadable config leaves the built-in ones, with a warning.
fn with_config_defaults(mut args: Args) -> Args {
    let defaults = match crate::registry::load_config() {
        Ok(loaded) => loaded.file.defaults,
        Err(error) => {
            if !args.json {
                crate::output::warn(&format!("{error}; using the built-in recording defaults"));
            }
            phux_core::config::defaults::Defaults::default()
        }
    };
    args.idle_limit = args.idle_limit.or(defaults.idle_limit);
    args.fps = Some(args.fps.or(defaults.fps).unwrap_or(30).clamp(1, 100));
    args.max_bytes = Some(
        args.max_bytes
            .or(defaults.max_bytes)
            .unwrap_or(phux_encoders::DEFAULT_MAX_BYTES),
    );
    args.default_theme = defaults.theme;
    // The font keys count only when no font flag was given: the flags describe one font.
    if args.font.is_empty() {
        if let Some(fonts) = &defaults.font {
            args.font.fonts = phux_encoders::FontOptions::family_list(fonts);
        }
        args.font.font_size = defaults.font_size;
        args.font.line_height = defaults.line_height;
        args.font.letter_spacing = defaults.letter_spacing;
    }
    args.scale = Some(args.scale.or(defaults.scale).unwrap_or(1).clamp(1, 16));
    args
}

/// Records (or re-renders) as `args` say and returns the RecJson; `stop` set ends a live
/// recording early, as Ctrl-C does for the verb. The verb and the MCP tool share it.
pub fn record_to_file(
    args: Args,
    context: &Context,
    stop: Arc<AtomicBool>,
) -> Result<RecJson, Failure> {
    record_to_file_timed(args, context, stop).map(|(doc, _)| doc)
}

/// As `record_to_file`, with how long the live recording ran (None for `--from`): a quiet
/// pane's cast plays 0.0 s however long it was recorded, and the verb says both.
fn record_to_file_timed(
    args: Args,
    context: &Context,
    stop: Arc<AtomicBool>,
) -> Result<(RecJson, Option<std::time::Duration>), Failure> {
    let args = with_config_defaults(args);
    let output = resolve_output(&args.out).map_err(|e| {
        Failure::new(
            ErrorCode::UnsupportedFormat,
            e.to_string(),
            "name the output .cast, .gif, .png or .apng",
        )
    })?;
    // symlink_metadata: a dangling symlink is something at the path too.
    if std::fs::symlink_metadata(&output.path).is_ok() && !args.overwrite {
        return Err(Failure::new(
            ErrorCode::OutputExists,
            format!("{} already exists", output.path.display()),
            "choose another path, or pass --overwrite",
        ));
    }
    check_directory(&output.path)?;
    let positive = |v: f64| v.is_finite() && v > 0.0;
    if !positive(args.speed) || !args.idle_limit.is_none_or(positive) {
        return Err(Failure::new(
            ErrorCode::InvalidArgument,
            "--speed and --idle-limit must be positive",
            "e.g. --speed 2 --idle-limit 1.5",
        ));
    }
    if args.still_frame().is_some() && output.format != OutputFormat::Apng {
        return Err(Failure::new(
            ErrorCode::InvalidArgument,
            "--still and --frame write one PNG image",
            "name the output .png",
        )
        .with_exit_code(2));
    }
    if let Some(size) = args.size {
        phux_core::limits::check_grid(size.cols, size.rows)?;
    }
    if let Some(name) = args.theme.as_ref().or(args.default_theme.as_ref()) {
        // Checked again when rendering; here so a bad name costs no recording.
        phux_encoders::Theme::builtin(name).map_err(|e| {
            Failure::new(
                ErrorCode::InvalidArgument,
                e.to_string(),
                format!(
                    "use one of: {}",
                    phux_encoders::Theme::builtin_names().join(", ")
                ),
            )
        })?;
    }
    if !matches!(output.format, OutputFormat::Cast | OutputFormat::Html) {
        // Checked again when rendering; here so a missing font costs no recording.
        args.font.check(args.scale.unwrap_or(1))?;
    }
    if let Some(from) = &args.from {
        if args.target.is_some() || !args.command.is_empty() {
            return Err(Failure::new(
                ErrorCode::InvalidArgument,
                "--from re-renders a file; it takes no TARGET or COMMAND",
                "drop the TARGET / -- COMMAND",
            ))
            .map_err(|f| f.with_exit_code(2));
        }
        return export::from_file(&args, from, &output.path, output.format).map(|doc| (doc, None));
    }
    let (cast_path, private) = match output.format {
        OutputFormat::Cast => (output.path.clone(), false),
        _ => (export::scratch_cast_path(&output.path)?, true),
    };
    let started = std::time::Instant::now();
    let captured = capture::capture(&args, context, &cast_path, private, stop);
    if private && captured.is_err() && !cast_path.exists() {
        // Refused before anything was recorded: no cast to keep, so no directory either.
        export::remove_scratch(&cast_path);
    }
    let captured = captured?;
    let recorded = started.elapsed();
    export::finish(&args, &captured, &cast_path, &output.path, output.format)
        .map(|doc| (doc, Some(recorded)))
}

/// The output's directory must exist and take new files: refused before anything is recorded
/// (or any command started), not after.
fn check_directory(out: &Path) -> Result<(), Failure> {
    let dir = match out.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let refuse = |why: &str| {
        Failure::new(
            ErrorCode::OutputUnwritable,
            format!("cannot write {}: {} {why}", out.display(), dir.display()),
            "create the directory, or choose another output path",
        )
    };
    if !dir.exists() {
        return Err(refuse("does not exist"));
    }
    if !dir.is_dir() {
        return Err(refuse("is not a directory"));
    }
    // Making a file there is the one test that holds for every user and file system (root
    // passes a permission check on /proc, which still takes no new files).
    if tempfile::Builder::new()
        .prefix(".phux-rec-probe")
        .tempfile_in(dir)
        .is_err()
    {
        return Err(refuse("is not writable"));
    }
    Ok(())
}
