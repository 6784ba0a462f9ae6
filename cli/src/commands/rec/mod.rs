//! `phux rec`: record a pane (live, or starting in the past with `--since`), a command in a new
//! headless pane (`-- COMMAND`), or re-render an existing recording (`--from`), to `.cast`,
//! `.gif` or `.png`/`.apng`.

mod capture;
mod export;
mod progress;

use crate::commands::Context;
use crate::failure::{conclude, Failure, VerbResult};
use phux_core::error_code::ErrorCode;
use phux_encoders::{resolve_output, OutputFormat};
use std::path::{Path, PathBuf};

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
    /// Start this far in the past, from the pane's flight recorder (e.g. 60s, 2m, 500ms)
    #[arg(long, value_name = "DURATION", value_parser = parse_since)]
    since: Option<u64>,
    /// Size of the pane for `-- COMMAND` (default: this terminal's size, else 80x24)
    #[arg(long, value_name = "COLSxROWS", value_parser = crate::commands::values::parse_geometry)]
    size: Option<phux_core::docs::GridSize>,
    /// Longest pause kept when playing or rendering; written to a recording's header
    /// [default: 2, or for --from the recording's own idle_time_limit]
    #[arg(long, value_name = "SECS")]
    idle_limit: Option<f64>,
    /// asciicast version of a .cast output
    #[arg(long, value_name = "2|3", default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=3))]
    cast_version: u8,
    /// Frames per second cap of an animation
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=100))]
    fps: u32,
    /// Playback speed of an animation
    #[arg(long, default_value_t = 1.0)]
    speed: f64,
    /// How long an animation holds its last frame
    #[arg(long, value_name = "SECS", default_value_t = 3.0)]
    last_frame: f64,
    /// Stop an animation before it exceeds this many bytes (the file stays playable)
    #[arg(long, value_name = "BYTES", default_value_t = phux_encoders::DEFAULT_MAX_BYTES)]
    max_bytes: u64,
    /// Colour theme of an animation (the recording's own theme wins when it has one)
    #[arg(long)]
    theme: Option<String>,
    /// Integer pixel scale of an animation (1 = 8x16 px cells)
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=16))]
    scale: u8,
    /// Replace whatever is at the output path (a symlink there is replaced, never followed);
    /// without it nothing at the path is ever replaced
    #[arg(long)]
    overwrite: bool,
    /// Print the result document (and nothing else) on stdout
    #[arg(long)]
    json: bool,
    /// Run this command in a new headless pane and record it until it exits
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// The idle limit a new recording gets when none is given.
pub const DEFAULT_IDLE_LIMIT: f64 = 2.0;

/// `60s`, `2m`, `500ms`, `1h`, or bare seconds, in milliseconds.
fn parse_since(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (number, unit) = text
        .find(|c: char| c.is_ascii_alphabetic())
        .map_or((text, "s"), |i| text.split_at(i));
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration like 60s, 2m or 500ms"))?;
    let scale = match unit {
        "ms" => 1.0,
        "s" => 1_000.0,
        "m" => 60_000.0,
        "h" => 3_600_000.0,
        _ => {
            return Err(format!(
                "unknown unit {unit:?} in {text:?}: use ms, s, m or h"
            ))
        }
    };
    if !(value.is_finite() && value >= 0.0) {
        return Err(format!("{text:?} is not a positive duration"));
    }
    Ok((value * scale) as u64)
}

pub fn run(args: Args, context: &Context) -> i32 {
    let json = args.json;
    // A shared-resolver verb: a partial view keeps exit 1 (§5.2).
    conclude(
        json,
        rec(args, context).map_err(crate::failure::Failure::partial_view_exits_1),
    )
}

fn rec(args: Args, context: &Context) -> VerbResult {
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
    if let Some(size) = args.size {
        phux_core::limits::check_grid(size.cols, size.rows)?;
    }
    if let Some(name) = &args.theme {
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
    if let Some(from) = &args.from {
        if args.target.is_some() || !args.command.is_empty() {
            return Err(Failure::new(
                ErrorCode::InvalidArgument,
                "--from re-renders a file; it takes no TARGET or COMMAND",
                "drop the TARGET / -- COMMAND",
            ))
            .map_err(|f| f.with_exit_code(2));
        }
        return export::from_file(&args, from, &output.path, output.format);
    }
    let cast_path = match output.format {
        OutputFormat::Cast => output.path.clone(),
        _ => export::scratch_cast_path(&output.path),
    };
    let captured = capture::capture(&args, context, &cast_path)?;
    export::finish(&args, &captured, &cast_path, &output.path, output.format)
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
    let writable = rustix::fs::access(
        dir,
        rustix::fs::Access::WRITE_OK | rustix::fs::Access::EXEC_OK,
    );
    if writable.is_err() {
        return Err(refuse("is not writable"));
    }
    Ok(())
}
