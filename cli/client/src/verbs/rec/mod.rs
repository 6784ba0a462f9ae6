//! `rec`'s operation: record a pane (live, or its past up to now with `since`, then live with
//! `follow`), a command in a new headless pane, or re-render an existing recording (`from`),
//! to `.cast`, `.gif`, `.png`/`.apng`, an animated `.svg` or a `.html` page that plays it, or
//! one still `.png`/`.svg` of a screen. The checks of its
//! values are plain functions here, which `phux rec`'s flags and the MCP tool both call.

mod capture;
pub mod export;
pub mod html;
mod progress;

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use phux_core::documents::RecJson;
use phux_core::error_code::ErrorCode;
use phux_encoders::{resolve_output, OutputFormat};

use crate::failure::Failure;
use crate::verbs::font::FontChoice;
use crate::Context;

/// asciicast version of a `.cast` output unless asked otherwise.
pub const DEFAULT_CAST_VERSION: u8 = 2;
/// Playback speed of an animation unless asked otherwise.
pub const DEFAULT_SPEED: f64 = 1.0;
/// How long an animation holds its last frame unless asked otherwise, in seconds.
pub const DEFAULT_LAST_FRAME: f64 = 3.0;

/// What to record (or re-render), to where, and how an animation is drawn. `new` gives the
/// defaults `phux rec`'s flags have.
#[derive(Debug, Clone)]
pub struct RecOptions {
    /// The pane to record (default: the most recently active one)
    pub target: Option<String>,
    /// Output file; its extension picks the format (.cast, .gif, .png: animated unless --still,
    /// .apng, .svg: animated unless --still, .html: a page that plays it; none: .gif). Its
    /// directory must exist and be writable: checked before anything is recorded
    pub out: PathBuf,
    /// Re-render (or transcode) this recording instead of recording; never touches the server
    pub from: Option<PathBuf>,
    /// Stop after this many seconds
    pub duration: Option<f64>,
    /// Write the past this far back, from the pane's flight recorder (e.g. 60s, 2m, 500ms), up
    /// to now and exit; with --follow or --duration the recording then goes on live
    pub since: Option<u64>,
    /// With --since: after the past, keep recording live (until Ctrl-C or the pane exits)
    pub follow: bool,
    /// Size of the pane for `-- COMMAND` (default: this terminal's size, else 80x24)
    pub size: Option<phux_core::documents::GridSize>,
    /// Longest pause kept when playing or rendering; written to a recording's header
    /// [default: [defaults] idle-limit, else 2, or for --from the recording's own
    /// idle_time_limit]
    pub idle_limit: Option<f64>,
    /// asciicast version of a .cast output
    pub cast_version: u8,
    /// Frames per second cap of an animation [default: [defaults] fps, else 30]
    pub fps: Option<u32>,
    /// Playback speed of an animation
    pub speed: f64,
    /// How long an animation holds its last frame
    pub last_frame: f64,
    /// Stop an animation before it exceeds this many bytes (the file stays playable)
    /// [default: [defaults] max-bytes, else 8388608]
    pub max_bytes: Option<u64>,
    /// Colour theme of an animation (the recording's own theme wins when it has one)
    /// [default: [defaults] theme]
    pub theme: Option<String>,
    /// `[defaults] theme`: used when neither --theme nor the recording names one.
    pub default_theme: Option<String>,
    /// Integer pixel scale of an animation (1 = 8x16 px bitmap cells; multiplies --font-size)
    /// [default: [defaults] scale, else 1]
    pub scale: Option<u8>,
    pub font: FontChoice,
    /// Pixels of background around the grid of an animation
    pub padding: u32,
    /// Pixels of --margin-fill around the window of an animation
    pub margin: u32,
    /// Colour of the margin (and outside rounded corners), as #rrggbb [default: #171717]
    pub margin_fill: Option<phux_encoders::Rgb>,
    /// A window bar above the grid: Colorful, ColorfulRight, Rings or RingsRight
    pub window_bar: Option<phux_encoders::WindowBar>,
    /// Radius of the window's rounded corners, in pixels
    pub border_radius: u32,
    /// Replace whatever is at the output path (a symlink there is replaced, never followed);
    /// without it nothing at the path is ever replaced
    pub overwrite: bool,
    /// Write one PNG (or SVG) of the final screen instead of an animation (same as --frame
    /// last); of a live pane without --duration or --since, its screen now
    pub still: bool,
    /// Write one PNG (or SVG) of this screen instead of an animation: `last`, N for the screen after
    /// the recording's first N screen events (output or resize), or a time (`3.5s`, `1m`) for
    /// the screen as it stood then
    pub frame: Option<phux_encoders::StillFrame>,
    /// No progress on stderr (the caller prints a document).
    pub quiet: bool,
    /// Run this command in a new headless pane and record it until it exits
    pub command: Vec<String>,
}

impl RecOptions {
    /// Recording to `out` with every other option at its default.
    pub fn new(out: PathBuf) -> RecOptions {
        RecOptions {
            target: None,
            out,
            from: None,
            duration: None,
            since: None,
            follow: false,
            size: None,
            idle_limit: None,
            cast_version: DEFAULT_CAST_VERSION,
            fps: None,
            speed: DEFAULT_SPEED,
            last_frame: DEFAULT_LAST_FRAME,
            max_bytes: None,
            theme: None,
            default_theme: None,
            scale: None,
            font: FontChoice::default(),
            padding: phux_encoders::DEFAULT_PADDING,
            margin: 0,
            margin_fill: None,
            window_bar: None,
            border_radius: 0,
            overwrite: false,
            still: false,
            frame: None,
            quiet: false,
            command: Vec::new(),
        }
    }
}

/// `--cast-version`: 2 or 3.
pub fn parse_cast_version(text: &str) -> Result<u8, String> {
    match text.parse::<i64>() {
        Ok(version @ 2..=3) => Ok(version as u8),
        Ok(version) => Err(format!("{version} is not in 2..=3")),
        Err(e) => Err(e.to_string()),
    }
}

/// `#rrggbb` as a colour (the one rule of `Rgb::parse_hex`: a short `#rgb` is refused).
pub fn parse_color(text: &str) -> Result<phux_encoders::Rgb, String> {
    phux_encoders::Rgb::parse_hex(text)
        .map_err(|_| format!("{text:?} is not a colour like #674EFF"))
}

pub fn parse_window_bar(text: &str) -> Result<phux_encoders::WindowBar, String> {
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
pub fn parse_frame(text: &str) -> Result<phux_encoders::StillFrame, String> {
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
        .then(|| crate::values::parse_duration_ms(text).ok())
        .flatten()
        .map(|ms| ms as f64 / 1000.0);
    time.map(phux_encoders::StillFrame::At).ok_or_else(|| {
        format!("{text:?} is not `last`, a frame number from 1, or a time such as 3.5s")
    })
}

impl RecOptions {
    /// The still frame asked for by `--still` or `--frame`, if any.
    pub fn still_frame(&self) -> Option<phux_encoders::StillFrame> {
        self.frame
            .or(self.still.then_some(phux_encoders::StillFrame::Last))
    }
}

/// The flags left unset take the config file's `[defaults]` (its recording keys), else the
/// built-in defaults. An unreadable config leaves the built-in ones, with a warning.
fn with_config_defaults(mut args: RecOptions) -> RecOptions {
    let defaults = match crate::registry::load_config() {
        Ok(loaded) => loaded.file.defaults,
        Err(error) => {
            if !args.quiet {
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
    args: RecOptions,
    context: &Context,
    stop: Arc<AtomicBool>,
) -> Result<RecJson, Failure> {
    record_to_file_timed(args, context, stop).map(|(doc, _)| doc)
}

/// As `record_to_file`, with how long the live recording ran (None for `--from`): a quiet
/// pane's cast plays 0.0 s however long it was recorded, and the verb says both.
pub fn record_to_file_timed(
    args: RecOptions,
    context: &Context,
    stop: Arc<AtomicBool>,
) -> Result<(RecJson, Option<std::time::Duration>), Failure> {
    let args = with_config_defaults(args);
    let output = resolve_output(&args.out).map_err(|e| {
        Failure::new(
            ErrorCode::UnsupportedFormat,
            e.to_string(),
            "name the output .cast, .gif, .png (animated unless --still), .apng, .svg or .html",
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
    if args.still_frame().is_some()
        && !matches!(output.format, OutputFormat::Apng | OutputFormat::Svg)
    {
        return Err(Failure::new(
            ErrorCode::InvalidArgument,
            "--still and --frame write one PNG or SVG image",
            "name the output .png or .svg",
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
/// (or any command started), not after. `phux tape` checks its outputs with it too.
pub fn check_directory(out: &Path) -> Result<(), Failure> {
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
