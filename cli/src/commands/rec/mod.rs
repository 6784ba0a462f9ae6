//! `phux rec`: record a pane (live, or its past up to now with `--since`, then live with
//! `--follow`), a command in a new headless pane (`-- COMMAND`), or re-render an existing
//! recording (`--from`), to `.cast`, `.gif`, `.png`/`.apng`, an animated `.svg` or a `.html`
//! page that plays it, or one still `.png`/`.svg` of a screen (`--still`, `--frame`). The recording itself is
//! `phux_client::verbs::rec`'s.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use phux_client::verbs::rec::{self, record_to_file_timed, RecOptions};
use phux_core::documents::{RecFormat, RecJson};

use crate::commands::values::STOP_SIGNALS;
use crate::commands::Context;
use crate::failure::{conclude, Failure};
use crate::output;

/// Record a pane, a command or a recording to .cast, .gif, .png, .svg or .html
#[derive(clap::Args)]
pub struct Args {
    /// The pane to record (default: the most recently active one)
    #[arg(value_name = "TARGET")]
    target: Option<String>,
    /// Output file; its extension picks the format (.cast, .gif, .png: animated unless --still,
    /// .apng, .svg: animated unless --still, .html: a page that plays it; none: .gif). Its
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
    size: Option<phux_core::documents::GridSize>,
    /// Longest pause kept when playing or rendering; written to a recording's header
    /// [default: [defaults] idle-limit, else 2, or for --from the recording's own
    /// idle_time_limit]
    #[arg(long, value_name = "SECS")]
    idle_limit: Option<f64>,
    /// asciicast version of a .cast output
    #[arg(long, value_name = "2|3", default_value_t = rec::DEFAULT_CAST_VERSION, value_parser = rec::parse_cast_version)]
    cast_version: u8,
    /// Frames per second cap of an animation [default: [defaults] fps, else 30]
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    fps: Option<u32>,
    /// Playback speed of an animation
    #[arg(long, default_value_t = rec::DEFAULT_SPEED)]
    speed: f64,
    /// How long an animation holds its last frame
    #[arg(long, value_name = "SECS", default_value_t = rec::DEFAULT_LAST_FRAME)]
    last_frame: f64,
    /// Stop an animation before it exceeds this many bytes (the file stays playable)
    /// [default: [defaults] max-bytes, else 8388608]
    #[arg(long, value_name = "BYTES")]
    max_bytes: Option<u64>,
    /// Colour theme of an animation (the recording's own theme wins when it has one)
    /// [default: [defaults] theme]
    #[arg(long, ignore_case = true,
          value_parser = clap::builder::PossibleValuesParser::new(phux_encoders::Theme::builtin_names()))]
    theme: Option<String>,
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
    #[arg(long, value_name = "COLOR", value_parser = rec::parse_color)]
    margin_fill: Option<phux_encoders::Rgb>,
    /// A window bar above the grid: Colorful, ColorfulRight, Rings or RingsRight
    #[arg(long, value_name = "STYLE", value_parser = rec::parse_window_bar)]
    window_bar: Option<phux_encoders::WindowBar>,
    /// Radius of the window's rounded corners, in pixels
    #[arg(long, value_name = "PX", default_value_t = 0)]
    border_radius: u32,
    /// Replace whatever is at the output path (a symlink there is replaced, never followed);
    /// without it nothing at the path is ever replaced
    #[arg(long)]
    overwrite: bool,
    /// Write one PNG (or SVG) of the final screen instead of an animation (same as --frame
    /// last); of a live pane without --duration or --since, its screen now
    #[arg(long, conflicts_with = "frame")]
    still: bool,
    /// Write one PNG (or SVG) of this screen instead of an animation: `last`, N for the screen after
    /// the recording's first N screen events (output or resize), or a time (`3.5s`, `1m`) for
    /// the screen as it stood then
    #[arg(long, value_name = "last|N|TIME", value_parser = rec::parse_frame)]
    frame: Option<phux_encoders::StillFrame>,
    /// Print the result document (and nothing else) on stdout
    #[arg(long)]
    json: bool,
    /// Run this command in a new headless pane and record it until it exits
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

impl Args {
    /// The operation's options, as the flags give them.
    pub fn options(&self) -> RecOptions {
        RecOptions {
            target: self.target.clone(),
            out: self.out.clone(),
            from: self.from.clone(),
            duration: self.duration,
            since: self.since,
            follow: self.follow,
            size: self.size,
            idle_limit: self.idle_limit,
            cast_version: self.cast_version,
            fps: self.fps,
            speed: self.speed,
            last_frame: self.last_frame,
            max_bytes: self.max_bytes,
            theme: self.theme.clone(),
            scale: self.scale,
            font: self.font.choice(),
            padding: self.padding,
            margin: self.margin,
            margin_fill: self.margin_fill,
            window_bar: self.window_bar,
            border_radius: self.border_radius,
            overwrite: self.overwrite,
            still: self.still,
            frame: self.frame,
            quiet: self.json,
            command: self.command.clone(),
            default_theme: None,
        }
    }
}

pub fn run(args: Args, context: &Context) -> i32 {
    let json = args.json;
    let stop = Arc::new(AtomicBool::new(false));
    for signal in STOP_SIGNALS {
        let _ = signal_hook::flag::register(signal, Arc::clone(&stop));
    }
    // A shared-resolver verb: a partial view keeps exit 1 (§5.2).
    let result = record_to_file_timed(args.options(), context, stop)
        .map_err(Failure::partial_view_exits_1)
        .map(|(doc, recorded)| report(json, &doc, recorded));
    conclude(json, result)
}

/// Prints the document (`--json`) or a line on stderr saying what was written; the status.
/// `recorded` is how long a live recording ran.
pub fn report(json: bool, doc: &RecJson, recorded: Option<std::time::Duration>) -> i32 {
    if json {
        output::print_json(doc);
    } else {
        output::stderr_line(&summary_line(doc, recorded));
    }
    0
}

/// `phux: wrote demo.cast (381 bytes, 1 event, plays 0.0 s, 80x24; recorded 1.0 s)`: the
/// playback time is the cast's own timeline after the idle clamp, which a quiet pane leaves
/// at 0 however long it was recorded, so the time it was recorded is said too.
fn summary_line(doc: &RecJson, recorded: Option<std::time::Duration>) -> String {
    let kind = if doc.format == RecFormat::Cast {
        "event"
    } else {
        "frame"
    };
    let plural = if doc.frames == 1 { "" } else { "s" };
    // `-o x.png` without `--still` is an animation: said, since a `.png` is often taken for
    // one picture.
    let kind = if doc.format == RecFormat::Apng && doc.path.to_ascii_lowercase().ends_with(".png") {
        "animated PNG frame"
    } else {
        kind
    };
    let truncated = if doc.truncated {
        " (stopped at --max-bytes)"
    } else {
        ""
    };
    let recorded = recorded.map_or(String::new(), |d| {
        format!("; recorded {:.1} s", d.as_secs_f64())
    });
    format!(
        "phux: wrote {} ({} bytes, {} {kind}{plural}, plays {:.1} s, {}x{}{recorded}){truncated}",
        doc.path,
        doc.bytes,
        doc.frames,
        doc.duration_ms as f64 / 1000.0,
        doc.cols,
        doc.rows
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use phux_client::verbs::rec::export;
    use std::path::Path;

    /// `rec work --duration 1` said `1 events, 0.0 s`: a quiet pane's second of recording
    /// plays in no time, and the line now says which time is which.
    #[test]
    fn the_summary_says_how_long_it_plays_and_how_long_it_was_recorded() {
        let doc = export::document(
            Path::new("demo.cast"),
            RecFormat::Cast,
            381,
            0,
            1,
            80,
            24,
            false,
        );
        let line = summary_line(&doc, Some(std::time::Duration::from_millis(1020)));
        assert_eq!(
            line,
            "phux: wrote demo.cast (381 bytes, 1 event, plays 0.0 s, 80x24; recorded 1.0 s)"
        );
        let doc = export::document(
            Path::new("d.gif"),
            RecFormat::Gif,
            9,
            2500,
            12,
            80,
            24,
            false,
        );
        assert!(summary_line(&doc, None).contains("12 frames, plays 2.5 s, 80x24)"));
        // `-o x.png` without `--still` wrote an animation, and says so.
        let doc = export::document(
            Path::new("d.png"),
            RecFormat::Apng,
            9,
            2500,
            12,
            80,
            24,
            false,
        );
        assert!(
            summary_line(&doc, None).contains("12 animated PNG frames"),
            "{}",
            summary_line(&doc, None)
        );
    }
}
