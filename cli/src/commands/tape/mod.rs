//! `phux tape FILE.tape`: runs a VHS-style tape in a fresh headless pane, in real time, and
//! writes every `Output` it names (and each `-o`) from the one recording (`phux_tape`), then
//! prints the result document or says what was written. `phux tape record` writes a tape of
//! what is typed into a pane (`record.rs`).

mod record;

use std::path::PathBuf;

use phux_tape::{TapeJson, TapeOptions};

use crate::commands::Context;
use crate::failure::conclude;
use crate::output;

/// Run a VHS tape in a headless pane and write its GIF, PNG, SVG, cast, text or video
#[derive(clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = "`phux tape record` writes a tape of what is typed into a pane (see its --help)."
)]
pub struct Args {
    #[command(subcommand)]
    action: Option<Action>,
    /// The tape to run
    #[arg(value_name = "FILE.tape", required = true)]
    tape: Option<PathBuf>,
    /// Also write this output (repeatable; same kinds as the tape's Output lines)
    #[arg(short = 'o', long = "out", value_name = "PATH")]
    out: Vec<PathBuf>,
    /// Print the result document (and nothing else) on stdout
    #[arg(long)]
    json: bool,
}

#[derive(clap::Subcommand)]
enum Action {
    Record(record::Args),
}

pub fn run(args: Args, context: &Context) -> i32 {
    if let Some(Action::Record(args)) = args.action {
        return record::run(args, context);
    }
    let json = args.json;
    let options = TapeOptions {
        tape: args.tape.unwrap_or_default(),
        out: args.out,
        quiet: json,
    };
    conclude(
        json,
        phux_tape::tape(&options, context).map(|doc| {
            report(json, &doc);
            0
        }),
    )
}

fn report(json: bool, doc: &TapeJson) {
    if json {
        output::print_json(doc);
        return;
    }
    for note in &doc.notes {
        output::warn(note);
    }
    for w in doc.outputs.iter().chain(&doc.screenshots) {
        let frames = w
            .frames
            .map(|f| format!(", {f} frames"))
            .unwrap_or_default();
        output::stderr_line(&format!(
            "phux: wrote {} ({} bytes{frames}, {:.1} s)",
            w.path,
            w.bytes,
            w.duration_ms as f64 / 1000.0
        ));
    }
}
