//! Everything a tape writes comes from the one recording: the cast as recorded (with the
//! `Hide`…`Show` stretches cut out), rendered to each `Output`, and the screen at each
//! `Screenshot` moment replayed from the same events.

use std::path::{Path, PathBuf};

use phux_encoders::{
    render_cast, render_cast_into, replay_until, resolve_output, screen_of, write_screenshot,
    EncodeError, EncodeOptions, EncodeSummary, OutputFormat, PngFrames, RenderSettings,
};
use phux_recorder::{Cast, CastVersion, CastWriter, Event, EventKind, Header, Utf8Carry};

use super::runner::{Moment, Run};
use super::session::{Observed, Recorded};

/// What an `Output` path asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputKind {
    Gif,
    Apng,
    Cast,
    Text,
    Frames,
    Video(&'static str),
    Html,
    Svg,
}

impl OutputKind {
    /// The kind `path` asks for, and the path written: a path ending in `/` (or naming a
    /// directory) is a directory of PNG frames; `.txt`, `.mp4` and `.webm` are the tape's own;
    /// every other path is classified as `phux rec -o` classifies it
    /// (`phux_encoders::resolve_output`): `.gif`, `.png`/`.apng`, `.svg`, `.cast`, `.html`, and a path
    /// without an extension is a GIF with `.gif` added.
    pub fn of(path: &Path) -> Result<(PathBuf, OutputKind), String> {
        if path.as_os_str().to_string_lossy().ends_with('/') || path.is_dir() {
            return Ok((path.to_path_buf(), OutputKind::Frames));
        }
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        let own = match extension.as_deref() {
            Some("txt" | "ascii") => Some(OutputKind::Text),
            Some("mp4") => Some(OutputKind::Video("mp4")),
            Some("webm") => Some(OutputKind::Video("webm")),
            _ => None,
        };
        if let Some(kind) = own {
            return Ok((path.to_path_buf(), kind));
        }
        match resolve_output(path) {
            Ok(resolved) => Ok((
                resolved.path,
                match resolved.format {
                    OutputFormat::Gif => OutputKind::Gif,
                    OutputFormat::Apng => OutputKind::Apng,
                    OutputFormat::Cast => OutputKind::Cast,
                    OutputFormat::Html => OutputKind::Html,
                    OutputFormat::Svg => OutputKind::Svg,
                },
            )),
            Err(_) => Err(format!(
                "unknown output type .{}: expected .gif, .png, .apng, .svg, .cast, .txt, .mp4, \
                 .webm, .html or a directory/",
                extension.unwrap_or_default()
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            OutputKind::Gif => "gif",
            OutputKind::Apng => "apng",
            OutputKind::Cast => "cast",
            OutputKind::Text => "txt",
            OutputKind::Frames => "frames",
            OutputKind::Video(ext) => ext,
            OutputKind::Html => "html",
            OutputKind::Svg => "svg",
        }
    }
}

/// The recording as casts: raw (every event) and as shown (hidden stretches cut out).
pub struct Recording {
    pub raw: Cast,
    pub shown: Cast,
    /// Where each screenshot was taken, in raw cast time.
    pub screenshots: Vec<(PathBuf, f64)>,
    /// The end of the tape in the shown cast's time.
    pub shown_end: f64,
}

pub fn recording(recorded: &Recorded, run: &Run) -> Recording {
    let origin = recorded.observed.first().map_or(0, Observed::t_ns);
    let secs = |t_ns: u64| t_ns.saturating_sub(origin) as f64 / 1e9;
    let mut raw = Cast {
        header: Header::new(CastVersion::V2, recorded.cols, recorded.rows),
        events: Vec::new(),
    };
    raw.header.term_type = Some("xterm-256color".into());
    let at = |instant| secs(recorded.server_ns(instant));
    // What the pane wrote once it was told to close (a shell reacting to that) is not part of
    // the film: the server stamped it after the moment the stamps map `killed` to.
    let stop = at(recorded.killed);
    let mut utf8 = Utf8Carry::default();
    let mut last = 0.0f64;
    for observed in &recorded.observed {
        if secs(observed.t_ns()) > stop {
            break;
        }
        let time = secs(observed.t_ns()).max(last);
        last = time;
        match observed {
            Observed::Output { bytes, .. } => {
                let text = utf8.decode(bytes);
                if !text.is_empty() {
                    raw.events.push(Event::output(time, text));
                }
            }
            Observed::Resize { cols, rows, .. } => raw.events.push(Event::new(
                time,
                EventKind::Resize {
                    cols: *cols,
                    rows: *rows,
                },
            )),
        }
    }
    let rest = utf8.flush();
    if !rest.is_empty() {
        raw.events.push(Event::output(last, rest));
    }
    let end = at(run.ended).max(last);
    let mut hidden = Vec::new();
    let mut hide_from: Option<f64> = None;
    let mut screenshots = Vec::new();
    for (instant, moment) in &run.moments {
        let t = at(*instant);
        match moment {
            Moment::Hide => {
                hide_from.get_or_insert(t);
            }
            Moment::Show => {
                if let Some(from) = hide_from.take() {
                    hidden.push((from, t));
                }
            }
            Moment::Screenshot(path) => screenshots.push((path.clone(), t)),
        }
    }
    if let Some(from) = hide_from {
        hidden.push((from, f64::INFINITY));
    }
    let (shown, shown_end) = cut(&raw, &hidden, end);
    Recording {
        raw,
        shown,
        screenshots,
        shown_end,
    }
}

/// `raw` with the `hidden` stretches taken out: none of their output is kept (a secret typed
/// under `Hide` must not be readable in the cast); when a stretch ends, one repaint of the
/// screen it left (a reset, then the engine's redraw) stands for it, so the screen jumps to
/// what it became. Later events move earlier by the time cut; a stretch that never ends is
/// dropped.
fn cut(raw: &Cast, hidden: &[(f64, f64)], end: f64) -> (Cast, f64) {
    let shift = |t: f64| -> Option<f64> {
        let mut removed = 0.0;
        for &(from, to) in hidden {
            if t >= to {
                removed += to - from;
            } else if t >= from {
                if to.is_infinite() {
                    return None;
                }
                return Some(to - removed - (to - from));
            }
        }
        Some(t - removed)
    };
    let inside = |t: f64| hidden.iter().any(|&(from, to)| t >= from && t < to);
    // Where each stretch that ends is shown again; the screen is replayed only up to the last.
    let mut shows = (hidden.iter())
        .filter_map(|&(_, to)| to.is_finite().then_some(to))
        .peekable();
    let (cols, rows) = (raw.header.cols, raw.header.rows);
    let mut replay =
        (shows.peek()).and_then(|_| phux_core::engine::Terminal::new(cols, rows, 0).ok());
    let mut events = Vec::new();
    for event in &raw.events {
        repaint_shown(&mut shows, replay.as_ref(), event.time, &shift, &mut events);
        if shows.peek().is_none() {
            replay = None;
        }
        if let Some(screen) = replay.as_mut() {
            match &event.kind {
                EventKind::Output(text) => screen.write(text.as_bytes()),
                EventKind::Resize { cols, rows } => {
                    let _ = screen.resize(*cols, *rows);
                }
                _ => {}
            }
            let _ = screen.take_replies();
        }
        let hidden_output = matches!(event.kind, EventKind::Output(_)) && inside(event.time);
        if let (false, Some(time)) = (hidden_output, shift(event.time)) {
            events.push(Event {
                time,
                kind: event.kind.clone(),
            });
        }
    }
    repaint_shown(
        &mut shows,
        replay.as_ref(),
        f64::INFINITY,
        &shift,
        &mut events,
    );
    // Ending hidden: the end is where the last stretch began, less what was cut before it.
    let shown_end = shift(end).unwrap_or_else(|| {
        let from = hidden.last().map_or(end, |(from, _)| *from);
        let before: f64 = hidden
            .iter()
            .filter(|(_, to)| *to <= from)
            .map(|(f, to)| to - f)
            .sum();
        from - before
    });
    let mut cast = Cast {
        header: raw.header.clone(),
        events,
    };
    // An empty output at the end keeps the tape's closing sleep in the cast's length.
    if cast.raw_duration() < shown_end {
        cast.events.push(Event::output(shown_end, ""));
    }
    (cast, shown_end)
}

/// For each stretch shown again at or before `before` (raw time), one output event at its
/// shown time: a reset, then the redraw of `screen` (the raw events before it, replayed).
fn repaint_shown(
    shows: &mut std::iter::Peekable<impl Iterator<Item = f64>>,
    screen: Option<&phux_core::engine::Terminal>,
    before: f64,
    shift: &impl Fn(f64) -> Option<f64>,
    events: &mut Vec<Event>,
) {
    while let Some(to) = shows.next_if(|&to| to <= before) {
        if let (Some(screen), Some(time)) = (screen, shift(to)) {
            let mut bytes = b"\x1bc".to_vec();
            bytes.extend(screen.vt_repaint());
            events.push(Event::output(time, String::from_utf8_lossy(&bytes)));
        }
    }
}

impl Recording {
    /// The shown cast as an animation starting `offset` seconds in (`LoopOffset`): from there
    /// to the end, then a terminal reset (`ESC c`) and the beginning up to `offset`, so the
    /// loop is the same film started elsewhere. `offset` 0 (or past the end) is the cast as is.
    pub fn looped(&self, offset: f64) -> Cast {
        let end = self.shown_end;
        if !(offset > 0.0 && offset < end) {
            return self.shown.clone();
        }
        let (head, tail): (Vec<&Event>, Vec<&Event>) =
            self.shown.events.iter().partition(|e| e.time <= offset);
        let mut events: Vec<Event> = head
            .iter()
            .map(|e| Event::new(0.0, e.kind.clone()))
            .collect();
        events.extend(
            tail.iter()
                .map(|e| Event::new(e.time - offset, e.kind.clone())),
        );
        let wrap = end - offset;
        events.push(Event::output(wrap, "\u{1b}c"));
        events.extend(
            head.iter()
                .map(|e| Event::new(wrap + e.time, e.kind.clone())),
        );
        events.push(Event::output(end, ""));
        Cast {
            header: self.shown.header.clone(),
            events,
        }
    }
}

/// What one output came to.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Written {
    pub path: String,
    pub format: &'static str,
    pub bytes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frames: Option<u32>,
    pub duration_ms: u64,
}

fn written(
    path: &Path,
    format: &'static str,
    summary: Option<&EncodeSummary>,
    bytes: u64,
    secs: f64,
) -> Written {
    Written {
        path: path.display().to_string(),
        format,
        bytes: summary.map_or(bytes, |s| s.bytes),
        frames: summary.map(|s| s.frames),
        duration_ms: summary.map_or((secs * 1000.0).round() as u64, |s| s.duration_ms),
    }
}

/// Why an output could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("{path}: {source}")]
    Encode { path: PathBuf, source: EncodeError },
    #[error("{path}: {source}")]
    Cast {
        path: PathBuf,
        source: phux_recorder::RecorderError,
    },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("ffmpeg could not make {path}: {detail}")]
    Ffmpeg { path: PathBuf, detail: String },
}

impl OutputError {
    /// An encoder's error, for the output at `path`.
    pub fn encode_at(path: &Path) -> impl Fn(EncodeError) -> OutputError + Copy + '_ {
        |source| OutputError::Encode {
            path: path.to_path_buf(),
            source,
        }
    }

    /// A file's error, for the output at `path`.
    pub fn io_at(path: &Path) -> impl Fn(std::io::Error) -> OutputError + Copy + '_ {
        |source| OutputError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Writes one output from the recording.
pub fn write(
    recording: &Recording,
    path: &Path,
    kind: OutputKind,
    settings: &RenderSettings,
    loop_offset: f64,
) -> Result<Written, OutputError> {
    let (encode, io) = (OutputError::encode_at(path), OutputError::io_at(path));
    let looped = recording.looped(loop_offset);
    // Animations start at the loop offset; the cast and the text are the recording as it ran.
    let cast = match kind {
        OutputKind::Cast | OutputKind::Text => &recording.shown,
        _ => &looped,
    };
    let secs = recording.shown_end / settings.speed;
    match kind {
        OutputKind::Gif | OutputKind::Apng | OutputKind::Svg => {
            let summary = render_cast(cast, path, settings, &mut |_, _| {}).map_err(encode)?;
            Ok(written(path, kind.name(), Some(&summary), 0, secs))
        }
        OutputKind::Frames => {
            let (cols, rows) = phux_encoders::canvas_size(cast);
            let sink =
                PngFrames::create(path, cols, rows, &settings.options, None).map_err(encode)?;
            let summary = render_cast_into(cast, sink, settings, &mut |_, _| {}).map_err(encode)?;
            Ok(written(path, kind.name(), Some(&summary), 0, secs))
        }
        OutputKind::Cast => {
            let bytes = write_cast(cast, path).map_err(|source| OutputError::Cast {
                path: path.to_path_buf(),
                source,
            })?;
            Ok(written(path, kind.name(), None, bytes, cast.raw_duration()))
        }
        OutputKind::Text => {
            let terminal = replay_until(&recording.raw, None).map_err(encode)?;
            let (cols, rows) = terminal.size();
            let screen = screen_of(&terminal, cols, rows);
            let text = screen_text(&screen);
            let bytes = write_atomically(path, text.as_bytes()).map_err(io)?;
            Ok(written(path, kind.name(), None, bytes, secs))
        }
        OutputKind::Html => {
            let page = phux_client::verbs::rec::html::write(
                cast,
                path,
                &phux_client::verbs::rec::html::PageSettings {
                    theme: settings.options.theme,
                    prefer_cast_theme: settings.prefer_cast_theme,
                    idle_limit: settings.idle_limit,
                    speed: settings.speed,
                    overwrite: true,
                },
            )
            .map_err(|e| OutputError::Io {
                path: path.to_path_buf(),
                source: std::io::Error::other(format!("{e}; {}", e.remedy())),
            })?;
            Ok(written(path, kind.name(), None, page.bytes, secs))
        }
        OutputKind::Video(ext) => {
            super::video::video(cast, path, ext, settings).map(|(bytes, frames)| Written {
                frames: Some(frames),
                ..written(path, kind.name(), None, bytes, secs)
            })
        }
    }
}

/// Writes each screenshot: the screen at its moment, framed like the animation.
pub fn screenshots(
    recording: &Recording,
    options: &EncodeOptions,
) -> Result<Vec<Written>, OutputError> {
    let mut out = Vec::new();
    for (path, t) in &recording.screenshots {
        let encode = OutputError::encode_at(path);
        let terminal = replay_until(&recording.raw, Some(*t)).map_err(encode)?;
        let (cols, rows) = terminal.size();
        let screen = screen_of(&terminal, cols, rows);
        let bytes = write_screenshot(&screen, options, path).map_err(encode)?;
        out.push(written(path, "png", None, bytes, 0.0));
    }
    Ok(out)
}

fn screen_text(screen: &phux_encoders::RenderScreen) -> String {
    let mut lines: Vec<String> = (0..screen.rows)
        .map(|y| {
            let line: String = (0..screen.cols)
                .filter_map(|x| screen.cell(x, y))
                .filter(|c| c.wide != phux_encoders::CellWidth::SpacerTail)
                .map(|c| if c.text == '\0' { ' ' } else { c.text })
                .collect();
            line.trim_end().to_owned()
        })
        .collect();
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// Writes `path` whole (see `phux_core::atomic_file`).
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<u64> {
    phux_core::atomic_file::write(path, bytes, phux_core::atomic_file::PUBLIC)?;
    Ok(bytes.len() as u64)
}

fn write_cast(cast: &Cast, path: &Path) -> Result<u64, phux_recorder::RecorderError> {
    let mut writer = CastWriter::from_writer(Vec::new(), &cast.header)?;
    for event in &cast.events {
        writer.write_event(event)?;
    }
    let bytes = writer.finish()?;
    write_atomically(path, &bytes).map_err(|source| phux_recorder::RecorderError::Io {
        path: Some(path.to_path_buf()),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_stretches_are_cut_and_only_a_repaint_stands_for_them() {
        let raw = Cast {
            header: Header::new(CastVersion::V2, 10, 2),
            events: vec![
                Event::output(1.0, "a"),
                Event::output(2.5, "secret"),
                Event::output(2.6, "\u{1b}[H\u{1b}[2Jb"),
                Event::output(4.0, "c"),
                Event::output(7.0, "d"),
            ],
        };
        let (shown, end) = cut(&raw, &[(2.0, 3.0), (6.0, f64::INFINITY)], 8.0);
        let times = timeline(&shown);
        let at: Vec<f64> = times.iter().map(|(t, _)| *t).collect();
        assert_eq!(at, vec![1.0, 2.0, 3.0, 5.0], "{times:?}");
        assert_eq!(times[0].1, "a");
        let repaint = &times[1].1;
        assert!(
            repaint.starts_with("\u{1b}c"),
            "a reset, then the redraw: {repaint:?}"
        );
        assert!(
            repaint.contains('b'),
            "the screen the stretch left: {repaint:?}"
        );
        assert!(
            !repaint.contains("secret"),
            "nothing hidden is kept: {repaint:?}"
        );
        assert_eq!(times[2].1, "c");
        assert_eq!(times[3].1, "");
        assert_eq!(end, 5.0);
        let cast_text: String = shown.events.iter().map(|e| e.kind.data()).collect();
        assert!(!cast_text.contains("secret"));
    }

    /// Each event's time and data.
    fn timeline(cast: &Cast) -> Vec<(f64, String)> {
        cast.events
            .iter()
            .map(|e| (e.time, e.kind.data()))
            .collect()
    }

    #[test]
    fn a_loop_offset_starts_the_film_later_and_wraps_with_a_reset() {
        let shown = Cast {
            header: Header::new(CastVersion::V2, 10, 2),
            events: vec![Event::output(1.0, "a"), Event::output(3.0, "b")],
        };
        let recording = Recording {
            raw: shown.clone(),
            shown,
            screenshots: Vec::new(),
            shown_end: 4.0,
        };
        let times = timeline(&recording.looped(2.0));
        assert_eq!(
            times,
            vec![
                (0.0, "a".into()),
                (1.0, "b".into()),
                (2.0, "\u{1b}c".into()),
                (3.0, "a".into()),
                (4.0, String::new())
            ]
        );
        assert_eq!(recording.looped(0.0).events.len(), 2);
    }

    #[test]
    fn output_kinds() {
        let kind = |p: &str| OutputKind::of(Path::new(p)).map(|(_, kind)| kind);
        assert_eq!(kind("a.GIF"), Ok(OutputKind::Gif));
        assert_eq!(kind("frames/"), Ok(OutputKind::Frames));
        assert_eq!(kind("a.webm"), Ok(OutputKind::Video("webm")));
        assert!(kind("a.doc").unwrap_err().contains(".gif"));
    }

    /// `Output demo` wrote a directory of frames where `phux rec -o demo` writes demo.gif: a
    /// path without an extension is a GIF for both.
    #[test]
    fn a_path_without_an_extension_is_a_gif_as_for_rec() {
        assert_eq!(
            OutputKind::of(Path::new("out/demo")),
            Ok((PathBuf::from("out/demo.gif"), OutputKind::Gif))
        );
    }
}
