//! Tools for recordings: `phux_rec` (a pane, or a command in a new pane, to a file, bounded by
//! `duration_secs`) and `phux_play` (a recording played in a new pane).

use std::path::PathBuf;

use phux_client::failure::Failure;
use phux_client::values::{parse_duration_ms, parse_geometry};
use phux_client::verbs::playback::Playback;
use phux_client::verbs::{play, rec};
use phux_core::split::SplitDirection;
use serde::Deserialize;

use crate::schema::{boolean, choice, integer, number, object, string, strings};
use crate::tools::{invalid_argument, to_value, Call, Document, Tool};

pub fn tools() -> Vec<Tool> {
    vec![
        Tool {
            name: "phux_rec",
            description: "Record a pane (or a command in a new headless pane) to a file: .cast (asciicast), .gif, .png/.apng, .svg (animated SVG) by the out path's extension. Live for duration_secs; or with `since` alone, the pane's past up to now from its flight recorder (no duration needed). Returns RecJson {schema_version, path (absolute), format, bytes, duration_ms (the timeline after the idle clamp), frames (as a decoder shows them), cols, rows, truncated, played_ms (a GIF/APNG: how long the file plays, its last-frame hold included)}. A cancelled call stops the recording.",
            schema: || {
                object(
                    &["out"],
                    vec![
                        ("out", string("The file to write (absolute, or relative to where phux mcp runs); its extension picks the format")),
                        ("duration_secs", number("How long to record live (a command's recording also ends when it exits); required unless `since` is given", 0.1, 3600.0)),
                        ("target", string("The pane to record [default: the active pane; not with command]")),
                        ("command", strings("Record this program in a new headless pane instead")),
                        ("size", string("COLSxROWS of the command's pane [default: 80x24]")),
                        ("since", string("Start that far back in the pane's flight recorder (60s, 2m, 500ms)")),
                        ("idle_limit", number("Clamp pauses longer than this many seconds [default: 2]", 0.01, 3600.0)),
                        ("cast_version", integer("asciicast version of a .cast [default: 2]", 2, 3)),
                        ("overwrite", boolean("Replace an existing file")),
                    ],
                )
            },
            call: rec_tool,
        },
        Tool {
            name: "phux_play",
            description: "Play a recording (.cast) in a new pane beside a target, fitted to the recording's size; it does not take the focus. Returns PlayJson {schema_version, terminal_id, path, cols, rows, events, speed, idle_limit, duration_ms, passes}.",
            schema: || {
                object(
                    &["file"],
                    vec![
                        ("file", string("The .cast file")),
                        ("target", string("The pane to play beside [default: the active pane]")),
                        ("speed", number("Playback speed [default: 1]", 0.01, 100.0)),
                        ("idle_limit", number("Play pauses longer than this as this many seconds [default: the recording's]", 0.0, 3600.0)),
                        ("loop", integer("Play this many times", 1, 1000)),
                        ("start", number("Begin this many seconds in", 0.0, 1e9)),
                        ("marker", string("Begin at the first marker with this label")),
                        ("no_fit", boolean("Leave the pane's size alone")),
                        ("close", boolean("Remove the pane when playback ends")),
                        ("split", choice("Stacked (horizontal) or side by side (vertical) [default: horizontal]", &["horizontal", "vertical"])),
                        ("ratio", number("The share the target keeps [default: 0.5]", 0.0, 1.0)),
                    ],
                )
            },
            call: play_tool,
        },
    ]
}

#[derive(Deserialize)]
struct RecArgs {
    out: String,
    duration_secs: Option<f64>,
    target: Option<String>,
    #[serde(default)]
    command: Vec<String>,
    size: Option<String>,
    since: Option<String>,
    idle_limit: Option<f64>,
    cast_version: Option<u8>,
    #[serde(default)]
    overwrite: bool,
}

fn rec_tool(call: &Call) -> Result<Document, Failure> {
    let args: RecArgs = call.parse()?;
    if args.target.is_some() && !args.command.is_empty() {
        return Err(invalid_argument("phux_rec: target or command, not both"));
    }
    if args.duration_secs.is_none() && args.since.is_none() {
        return Err(invalid_argument(
            "phux_rec: give duration_secs (record live that long) or since (the past up to now)",
        ));
    }
    // The path as the result names it: absolute, from where `phux mcp` runs.
    let out = std::path::absolute(&args.out)
        .map(|p| p.display().to_string())
        .unwrap_or(args.out);
    // The verb's own checks, made by the functions its flags' parsers call.
    let mut options = rec::RecOptions::new(PathBuf::from(out));
    options.quiet = true;
    // The verb's flag took no negative number (it read as another flag), nor a non-number.
    if let Some(secs) = args.duration_secs.filter(|s| !s.is_finite() || *s < 0.0) {
        return Err(invalid_argument(format!(
            "phux_rec: invalid value '{secs}' for duration_secs: a number of seconds from 0"
        )));
    }
    options.duration = args.duration_secs;
    options.size = checked("size", "<COLSxROWS>", args.size, parse_geometry)?;
    options.since = checked("since", "<DURATION>", args.since, parse_duration_ms)?;
    options.idle_limit = args.idle_limit;
    options.cast_version = checked(
        "cast-version",
        "<2|3>",
        args.cast_version.map(|v| v.to_string()),
        rec::parse_cast_version,
    )?
    .unwrap_or(rec::DEFAULT_CAST_VERSION);
    options.overwrite = args.overwrite;
    options.target = args.target;
    options.command = args.command;
    to_value(&rec::record_to_file(
        options,
        &call.context,
        call.stop.flag(),
    )?)
}

/// `value` checked as `phux rec --FLAG` checks it, refused in the words the verb uses.
fn checked<T>(
    flag: &str,
    value_name: &str,
    value: Option<String>,
    check: impl Fn(&str) -> Result<T, String>,
) -> Result<Option<T>, Failure> {
    value
        .map(|value| {
            check(&value).map_err(|why| {
                invalid_argument(format!(
                    "phux_rec: invalid value '{value}' for '--{flag} {value_name}': {why}"
                ))
            })
        })
        .transpose()
}

#[derive(Deserialize)]
struct PlayArgs {
    file: String,
    target: Option<String>,
    speed: Option<f64>,
    idle_limit: Option<f64>,
    #[serde(rename = "loop")]
    repeat: Option<u32>,
    start: Option<f64>,
    marker: Option<String>,
    #[serde(default)]
    no_fit: bool,
    #[serde(default)]
    close: bool,
    split: Option<String>,
    ratio: Option<f64>,
}

fn play_tool(call: &Call) -> Result<Document, Failure> {
    let args: PlayArgs = call.parse()?;
    if args.start.is_some() && args.marker.is_some() {
        return Err(invalid_argument("phux_play: start or marker, not both"));
    }
    let verb_args = play::PlayOptions {
        file: PathBuf::from(args.file),
        target: args.target.unwrap_or_else(|| ".".into()),
        playback: Playback {
            speed: args.speed.unwrap_or(1.0),
            idle_limit: args.idle_limit,
            repeat: args.repeat.map(Some),
            start: args.start,
            marker: args.marker,
            follow: false,
            no_fit: args.no_fit,
            close: args.close,
        },
        split: match args.split.as_deref() {
            Some("vertical") => SplitDirection::Vertical,
            _ => SplitDirection::Horizontal,
        },
        ratio: args.ratio.unwrap_or(phux_core::split::DEFAULT_RATIO),
    };
    to_value(&play::start_playback(&verb_args, &call.context)?.0)
}
