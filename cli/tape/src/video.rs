//! A tape's `.mp4` or `.webm`: ffmpeg encodes the frames at a constant rate, handed to it as
//! raw RGB through a pipe while they are drawn.

use std::path::{Path, PathBuf};

use phux_encoders::{render_cast_into, EncodeError, RawFrames, RenderSettings};
use phux_recorder::Cast;

use super::outputs::OutputError;

/// Has ffmpeg encode the frames at a constant rate, handed to it as raw RGB through a pipe
/// while they are drawn (no image files to write and read back); it writes into a scratch
/// directory, and the video is renamed into place once ffmpeg succeeded.
pub fn video(
    cast: &Cast,
    path: &Path,
    ext: &str,
    settings: &RenderSettings,
) -> Result<(u64, u32), OutputError> {
    let (encode, io) = (OutputError::encode_at(path), OutputError::io_at(path));
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let scratch = tempfile::Builder::new()
        .prefix(".phux-video-")
        .tempdir_in(dir)
        .map_err(io)?;
    let fps = settings.fps.clamp(1, 100);
    let (cols, rows) = phux_encoders::canvas_size(cast);
    let out = scratch.path().join(format!("out.{ext}"));
    let log = scratch.path().join("ffmpeg.log");
    let mut ffmpeg: Option<std::process::Child> = None;
    let started = RawFrames::create(
        cols,
        rows,
        &settings.options,
        fps,
        PathBuf::from("ffmpeg's input"),
        |width, height| {
            let child = ffmpeg_command(ext, fps, (width, height), &out, &log)?.spawn()?;
            let child = ffmpeg.insert(child);
            let stdin = child.stdin.take().ok_or(std::io::ErrorKind::BrokenPipe)?;
            Ok(std::io::BufWriter::with_capacity(1 << 20, stdin))
        },
    );
    // The sink is consumed by the render, finished or not, and its pipe closed with it:
    // ffmpeg has seen the end of its input when this returns.
    let summary = started.and_then(|sink| render_cast_into(cast, sink, settings, &mut |_, _| {}));
    let ran = match ffmpeg {
        Some(mut child) => Some(child.wait().map_err(io)?),
        None => None,
    };
    let failed = || OutputError::Ffmpeg {
        path: path.to_path_buf(),
        detail: std::fs::read_to_string(&log)
            .unwrap_or_default()
            .trim()
            .to_owned(),
    };
    let summary = match (summary, ran) {
        (Ok(summary), Some(status)) if status.success() => summary,
        // ffmpeg failed, or stopped reading (a codec it lacks, a size it refuses): its words,
        // not the broken pipe's.
        (Ok(_) | Err(EncodeError::Io { .. }), Some(status)) if !status.success() => {
            return Err(failed())
        }
        (Err(e), _) => return Err(encode(e)),
        (Ok(_), _) => return Err(failed()),
    };
    std::fs::rename(&out, path).map_err(io)?;
    let bytes = std::fs::metadata(path).map_err(io)?.len();
    Ok((bytes, summary.frames))
}

/// ffmpeg reading raw RGB frames of `size` at `fps` from its input and writing `out` (a
/// `.webm` in VP9, else H.264), its messages to `log`.
fn ffmpeg_command(
    ext: &str,
    fps: u32,
    (width, height): (u32, u32),
    out: &Path,
    log: &Path,
) -> std::io::Result<std::process::Command> {
    let codec: &[&str] = if ext == "webm" {
        &["-c:v", "libvpx-vp9", "-b:v", "0", "-crf", "30"]
    } else {
        &["-c:v", "libx264", "-crf", "18"]
    };
    let mut command = std::process::Command::new("ffmpeg");
    command
        .args(["-hide_banner", "-loglevel", "error", "-y"])
        .args(["-f", "rawvideo", "-pix_fmt", "rgb24", "-video_size"])
        .arg(format!("{width}x{height}"))
        .arg("-framerate")
        .arg(fps.to_string())
        .args(["-i", "pipe:0"])
        .args([
            "-vf",
            "pad=ceil(iw/2)*2:ceil(ih/2)*2",
            "-pix_fmt",
            "yuv420p",
        ])
        .args(codec)
        .arg(out)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(log)?);
    Ok(command)
}
