//! The output half of `phux rec`: a `.cast` as recorded (or transcoded), or an animation
//! rendered from the cast. A failed render keeps the cast and says how to render it again.

use std::path::{Path, PathBuf};

use phux_core::documents::rec::REC_SCHEMA_VERSION;
use phux_core::documents::{RecFormat, RecJson};
use phux_core::error_code::ErrorCode;
use phux_encoders::{
    render_cast, render_still, EncodeError, EncodeOptions, OutputFormat, RenderSettings, Theme,
};
use phux_recorder::{read_cast, read_cast_and_cut, transcode, Cast, CastVersion};

use super::capture::Captured;
use super::progress::RenderProgress;
use super::{RecOptions, DEFAULT_IDLE_LIMIT};
use crate::failure::Failure;
use crate::output;
use crate::record::StopReason;

/// Where a recording bound for an animation is kept while it is captured and rendered: a
/// fresh directory only its owner may enter (0700), in the temporary directory. The cast in
/// it is created 0600; it was `phux-rec-<pid>-x.cast` in the shared directory, 0644, where
/// another user could read whatever was typed.
pub fn scratch_cast_path(out: &Path) -> Result<PathBuf, Failure> {
    let stem = out
        .file_stem()
        .map_or_else(|| "recording".into(), |s| s.to_string_lossy().into_owned());
    let dir = private_scratch_dir("phux-rec-")?;
    Ok(dir.join(format!("{stem}.cast")))
}

/// A new 0700 directory in the temporary directory, left in place (the caller removes it
/// when its cast has been rendered; a failure keeps it and says where).
pub fn private_scratch_dir(prefix: &str) -> Result<PathBuf, Failure> {
    use std::os::unix::fs::PermissionsExt;
    tempfile::Builder::new()
        .prefix(prefix)
        .permissions(std::fs::Permissions::from_mode(0o700))
        .tempdir()
        .map(tempfile::TempDir::keep)
        .map_err(|e| {
            Failure::new(
                ErrorCode::OutputUnwritable,
                format!(
                    "cannot make a private directory in {} to stage the recording: {e}",
                    std::env::temp_dir().display()
                ),
                "set TMPDIR to a writable directory",
            )
        })
}

/// Removes a rendered scratch cast and its private directory.
pub fn remove_scratch(cast_path: &Path) {
    let _ = std::fs::remove_file(cast_path);
    if let Some(dir) = cast_path.parent() {
        let _ = std::fs::remove_dir(dir);
    }
}

fn cast_failure(error: impl std::fmt::Display, remedy: String) -> Failure {
    Failure::new(ErrorCode::CastInvalid, error.to_string(), remedy)
}

/// `--from FILE`: transcode to a cast, or render an animation; the server is never contacted.
pub fn from_file(
    args: &RecOptions,
    from: &Path,
    out: &Path,
    format: OutputFormat,
) -> Result<RecJson, Failure> {
    if format == OutputFormat::Cast {
        let version = if args.cast_version == 3 {
            CastVersion::V3
        } else {
            CastVersion::V2
        };
        let summary = transcode(from, out, version, args.overwrite).map_err(|e| {
            let remedy = e.remedy();
            cast_failure(e, remedy)
        })?;
        let doc = document(
            out,
            RecFormat::Cast,
            summary.bytes,
            summary.duration_ms,
            summary.events,
            summary.cols,
            summary.rows,
            false,
        );
        return Ok(doc);
    }
    let (cast, cut) = read_cast_and_cut(from).map_err(|e| {
        let remedy = e.remedy();
        cast_failure(e, remedy)
    })?;
    if let Some(cut) = cut {
        output::warn(&cut.to_string());
    }
    render(args, &cast, out, format)
}

/// After a capture: report the cast, or render it and drop the scratch cast. A recording cut
/// short by the server going away is a failure (the cast up to then is kept, and named in
/// the error); a command that exited non-zero is recorded all the same, with a warning.
pub fn finish(
    args: &RecOptions,
    captured: &Captured,
    cast_path: &Path,
    out: &Path,
    format: OutputFormat,
) -> Result<RecJson, Failure> {
    if captured.server_gone {
        return Err(server_went_away(cast_path, out, format));
    }
    if matches!(
        captured.reason,
        StopReason::StreamEnded | StopReason::Lagged
    ) {
        crate::observe::warn_lagged();
    }
    let exit_status = match captured.reason {
        StopReason::PaneExited(status) if captured.spawned => status,
        _ => None,
    };
    if let Some(status) = exit_status.filter(|s| *s != 0) {
        output::warn(&format!(
            "the command exited with status {status}; it was recorded all the same"
        ));
    }
    let summary = &captured.summary;
    if format == OutputFormat::Cast {
        let duration_ms = (summary.clamped_duration * 1000.0).round() as u64;
        let bytes = std::fs::metadata(out).map_or(0, |m| m.len());
        let mut doc = document(
            out,
            RecFormat::Cast,
            bytes,
            duration_ms,
            summary.events,
            summary.cols,
            summary.rows,
            false,
        );
        doc.exit_status = exit_status;
        return Ok(doc);
    }
    let kept = |failure: Failure| {
        let again = format!(
            "phux rec --from {} -o {}",
            cast_path.display(),
            out.display()
        );
        Failure {
            message: format!(
                "{}; the recording is kept at {}",
                failure.message,
                cast_path.display()
            ),
            remedy: format!("render it again with `{again}`"),
            ..failure
        }
    };
    let cast = read_cast(cast_path).map_err(|e| {
        let remedy = e.remedy();
        kept(cast_failure(e, remedy))
    })?;
    let mut doc = render(args, &cast, out, format).map_err(kept)?;
    remove_scratch(cast_path);
    doc.exit_status = exit_status;
    Ok(doc)
}

/// `server_disconnected`, with where the recording so far is: the cast itself, or for an
/// animation the scratch cast, which is left unrendered.
fn server_went_away(cast_path: &Path, out: &Path, format: OutputFormat) -> Failure {
    let remedy = if format == OutputFormat::Cast {
        format!(
            "the cast is valid up to that point (play it with `phux play {}`); check `phux status`",
            cast_path.display()
        )
    } else {
        format!(
            "render what was recorded with `phux rec --from {} -o {}`; check `phux status`",
            cast_path.display(),
            out.display()
        )
    };
    Failure::new(
        ErrorCode::ServerDisconnected,
        format!(
            "the server went away while recording; the recording is kept at {}",
            cast_path.display()
        ),
        remedy,
    )
}

fn render(
    args: &RecOptions,
    cast: &Cast,
    out: &Path,
    format: OutputFormat,
) -> Result<RecJson, Failure> {
    warn_without_colour_emoji(cast);
    let theme = match args.theme.as_ref().or(args.default_theme.as_ref()) {
        Some(name) => Theme::builtin(name).map_err(|e| {
            Failure::new(
                ErrorCode::InvalidArgument,
                e.to_string(),
                format!("use one of: {}", Theme::builtin_names().join(", ")),
            )
            .with_exit_code(2)
        })?,
        None => Theme::default(),
    };
    let settings = RenderSettings {
        options: EncodeOptions {
            theme,
            scale: args.scale.unwrap_or(1),
            max_bytes: args.max_bytes.unwrap_or(phux_encoders::DEFAULT_MAX_BYTES),
            overwrite: args.overwrite,
            font: args.font.options(),
            chrome: phux_encoders::FrameChrome {
                padding: args.padding,
                margin: args.margin,
                margin_fill: args.margin_fill,
                window_bar: args.window_bar,
                border_radius: args.border_radius,
                ..phux_encoders::FrameChrome::default()
            },
            keep_unchanged_transparent: true,
        },
        prefer_cast_theme: args.theme.is_none(),
        fps: args.fps.unwrap_or(30),
        speed: args.speed,
        idle_limit: args
            .idle_limit
            .or(cast.header.idle_time_limit)
            .or(Some(DEFAULT_IDLE_LIMIT)),
        last_frame_hold: args.last_frame.max(0.0),
    };
    if format == OutputFormat::Html && args.still_frame().is_none() {
        return page(cast, out, &settings);
    }
    let result = match args.still_frame() {
        Some(frame) => render_still(
            cast,
            out,
            &settings.options,
            settings.prefer_cast_theme,
            frame,
        ),
        None => {
            let mut progress = RenderProgress::new(args.quiet);
            let result = render_cast(cast, out, &settings, &mut |done, total| {
                progress.update(done, total)
            });
            progress.finish();
            result
        }
    };
    let summary = result.map_err(|e| {
        // Where a flag of `phux rec` is the fix, say it with the flag.
        let remedy = match e {
            EncodeError::CanvasTooLarge { .. } | EncodeError::BadDimensions { .. } => {
                "lower --scale or --font-size, or render a recording of a smaller grid (.cast output keeps any size)".into()
            }
            EncodeError::OutputExists(_) => "choose another path, or pass --overwrite".into(),
            EncodeError::FrameOutOfRange { .. } => "pass a smaller --frame, or --frame last".into(),
            EncodeError::MaxBytesTooSmall { needed, .. } => {
                format!("pass --max-bytes {needed} or more, or lower --scale or --font-size")
            }
            _ => e.remedy(),
        };
        let code = match e {
            EncodeError::OutputExists(_) => ErrorCode::OutputExists,
            EncodeError::FrameOutOfRange { .. } => ErrorCode::InvalidArgument,
            _ => ErrorCode::EncodeFailed,
        };
        Failure::new(code, e.to_string(), remedy)
    })?;
    let format = if format == OutputFormat::Svg {
        RecFormat::Svg
    } else if args.still_frame().is_some() {
        RecFormat::Png
    } else if format == OutputFormat::Gif {
        RecFormat::Gif
    } else {
        RecFormat::Apng
    };
    let (cols, rows) = (cast.header.cols, cast.header.rows);
    let duration_ms = timeline_ms(cast, &settings, summary.duration_ms, summary.truncated);
    if summary.truncated {
        let whole = timeline_ms(cast, &settings, u64::MAX, false);
        output::warn(&format!(
            "--max-bytes cut the recording short: kept {:.1} s of {:.1} s (raise --max-bytes, or lower --scale or --font-size, to keep it all)",
            duration_ms as f64 / 1000.0,
            whole as f64 / 1000.0
        ));
    }
    let mut doc = document(
        out,
        format,
        summary.bytes,
        duration_ms,
        u64::from(summary.frames),
        cols,
        rows,
        summary.truncated,
    );
    if args.still_frame().is_none() {
        doc.played_ms = Some(summary.duration_ms);
    }
    Ok(doc)
}

/// The page that plays the recording (`-o demo.html`).
fn page(cast: &Cast, out: &Path, settings: &RenderSettings) -> Result<RecJson, Failure> {
    let summary = super::html::write(
        cast,
        out,
        &super::html::PageSettings {
            theme: settings.options.theme,
            prefer_cast_theme: settings.prefer_cast_theme,
            idle_limit: settings.idle_limit,
            speed: settings.speed,
            overwrite: settings.options.overwrite,
        },
    )
    .map_err(|e| {
        let code = match &e {
            super::html::HtmlError::Encode(EncodeError::OutputExists(_)) => ErrorCode::OutputExists,
            _ => ErrorCode::EncodeFailed,
        };
        let remedy = e.remedy();
        Failure::new(code, e.to_string(), remedy)
    })?;
    Ok(document(
        out,
        RecFormat::Html,
        summary.bytes,
        summary.duration_ms,
        summary.events,
        cast.header.cols,
        cast.header.rows,
        false,
    ))
}

/// §4.14: `duration_ms` is the recording's own timeline after the idle clamp (at the render
/// speed), not the file's delay sum: the `--last-frame` hold is how long the last picture stays
/// up, not part of the recording, so the same cast reports the same duration as .cast and .gif.
/// A file cut short by `--max-bytes` reports what it holds: the hold comes with the last
/// frame, which a cut file never reaches, so its frames' delays are all recording.
fn timeline_ms(cast: &Cast, settings: &RenderSettings, written_ms: u64, truncated: bool) -> u64 {
    let whole = phux_recorder::playback_duration(&cast.events, settings.idle_limit, settings.speed)
        .map_or(0, |secs| (secs * 1000.0).round() as u64);
    if truncated {
        whole.min(written_ms)
    } else {
        whole
    }
}

#[allow(clippy::too_many_arguments)] // one field each of the document, in its order
pub fn document(
    out: &Path,
    format: RecFormat,
    bytes: u64,
    duration_ms: u64,
    frames: u64,
    cols: u16,
    rows: u16,
    truncated: bool,
) -> RecJson {
    RecJson {
        schema_version: REC_SCHEMA_VERSION,
        path: out.display().to_string(),
        format,
        bytes,
        duration_ms,
        frames,
        cols,
        rows,
        truncated,
        exit_status: None,
        played_ms: None,
    }
}

/// Emoji in a recording rendered with no colour emoji font installed come out as one-colour
/// outlines: said once, naming the package that fixes it.
fn warn_without_colour_emoji(cast: &Cast) {
    use phux_encoders::font::color_emoji::{has_emoji, installed_font};
    let shows_emoji = cast.events.iter().any(|event| match &event.kind {
        phux_recorder::EventKind::Output(text) => has_emoji(text),
        _ => false,
    });
    if shows_emoji && installed_font().is_none() {
        output::warn(
            "the recording shows emoji but no colour emoji font is installed: they are drawn as one-colour outlines (install one, e.g. Debian/Ubuntu `fonts-noto-color-emoji`, Fedora `google-noto-color-emoji-fonts`, Arch `noto-fonts-emoji`; `phux doctor` checks)",
        );
    }
}
