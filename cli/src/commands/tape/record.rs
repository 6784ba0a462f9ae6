//! `phux tape record [-o FILE.tape] [TARGET]`: writes a VHS tape of what is typed into a pane
//! until Ctrl-C, `--duration` or the pane's end (`phux_tape::record`), then prints the path or
//! the result document.

use std::path::PathBuf;
use std::time::Duration;

use phux_tape::record::{Ended, RecordOptions, TapeRecordJson};

use crate::commands::Context;
use crate::failure::conclude;
use crate::output;
use phux_client::verbs::font::FontChoice;

/// Write a tape of what is typed into a pane (through the TUI, attach, send-keys, paste or any
/// client), until Ctrl-C, --duration or the pane's end
#[derive(clap::Args)]
#[command(after_help = "\
Text typed without a pause becomes `Type` runs, keys their names (`Enter`, `Backspace 3`,
`Ctrl+C`, `Alt+Left`), pastes their text, and every pause of at least --idle a `Sleep`; the
tape's TypingSpeed is the median gap between keys. Width and Height make the pane's grid with
the tape's font, so `phux tape FILE.tape` replays on a pane of the same size. Only the
server's owner, on its own machine, can record what is typed.")]
pub struct Args {
    /// The pane whose input is recorded [default: the most recently active pane]
    #[arg(value_name = "TARGET")]
    target: Option<String>,
    /// The tape to write; its directory must exist and be writable
    #[arg(
        short = 'o',
        long = "out",
        value_name = "FILE.tape",
        default_value = "recording.tape"
    )]
    out: PathBuf,
    /// The tape's Output line: FILE.EXT beside the tape (gif, png, apng, cast, txt, mp4, webm),
    /// or none
    #[arg(long, value_name = "EXT", default_value = "gif")]
    output_format: String,
    /// Pauses at least this long become Sleep commands (e.g. 500ms, 2s)
    #[arg(long, value_name = "DURATION", default_value = "500ms", value_parser = crate::commands::values::parse_duration_ms)]
    idle: u64,
    /// Stop after this long (e.g. 30s, 2m)
    #[arg(long, value_name = "DURATION", value_parser = crate::commands::values::parse_duration_ms)]
    duration: Option<u64>,
    /// Replace a file already at the tape's path
    #[arg(long)]
    overwrite: bool,
    /// The tape's FontFamily: a family name or a font file; repeat it for a fallback chain
    /// [default: [defaults] font, else the tape's default]
    #[arg(long = "font", value_name = "NAME|FILE")]
    fonts: Vec<String>,
    /// The tape's FontSize in pixels [default: [defaults] font-size, else the tape's 22]
    #[arg(long, value_name = "PX")]
    font_size: Option<f32>,
    /// The tape's LineHeight, a multiple of the font size [default: [defaults] line-height,
    /// else the tape's 1.0]
    #[arg(long, value_name = "X")]
    line_height: Option<f32>,
    /// The tape's LetterSpacing in pixels [default: [defaults] letter-spacing, else 0]
    #[arg(long, value_name = "PX", allow_negative_numbers = true)]
    letter_spacing: Option<f32>,
    /// Print the result document (and nothing else) on stdout
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    let json = args.json;
    let options = RecordOptions {
        target: args.target,
        out: args.out,
        output_format: args.output_format.to_ascii_lowercase(),
        idle: Duration::from_millis(args.idle),
        duration: args.duration.map(Duration::from_millis),
        overwrite: args.overwrite,
        font: FontChoice {
            fonts: args.fonts,
            font_size: args.font_size,
            line_height: args.line_height,
            letter_spacing: args.letter_spacing,
        },
        quiet: json,
    };
    conclude(
        json,
        phux_tape::record::record(&options, context).map(|doc| {
            report(json, &doc);
            0
        }),
    )
}

fn report(json: bool, doc: &TapeRecordJson) {
    if json {
        output::print_json(doc);
        return;
    }
    for note in &doc.notes {
        output::warn(note);
    }
    let why = match doc.ended {
        Ended::Interrupted => "stopped",
        Ended::Duration => "its time was up",
        Ended::PaneExited => "the pane exited",
        Ended::KeyLimit => "it holds the most keys a tape keeps",
        Ended::ServerEnded => "the server ended it",
    };
    output::stderr_line(&format!(
        "phux: wrote {} ({} keys, {} commands, {:.1} s; {why})",
        doc.path,
        doc.keys,
        doc.commands,
        doc.duration_ms as f64 / 1000.0
    ));
}
