//! `phux play FILE [TARGET] [flags]`: plays a recording in a new pane beside TARGET. The cast is
//! read here, in the caller's process, so a malformed one is refused before any pane exists;
//! the pane runs `phux __play-cast` (see `play_cast`), which writes the cast to its own PTY.

use std::path::PathBuf;

pub use phux_client::verbs::play::{start_playback, PlayOptions};
use phux_core::exit_code::SUCCESS;

use crate::commands::playback_flags::PlaybackFlags;
use crate::commands::values::SplitArg;
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Play a recording (.cast) in a new pane beside TARGET
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The recording (.cast, asciicast v2 or v3)
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The pane to play beside
    #[arg(value_name = "TARGET", default_value = ".")]
    pub target: String,
    #[command(flatten)]
    pub playback: PlaybackFlags,
    /// The divider: horizontal (stacked) or vertical (side by side)
    #[arg(long, value_enum, default_value_t = SplitArg::Horizontal)]
    pub split: SplitArg,
    /// The new pane's share of the space, strictly between 0 and 1
    #[arg(
        long,
        default_value_t = phux_core::split::DEFAULT_RATIO,
        allow_negative_numbers = true
    )]
    pub ratio: f64,
    /// Print a PlayJson document instead of the pane id
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let (document, address) = start_playback(&args.options(), context)?;
    if args.json {
        output::print_json(&document);
    } else {
        output::print_line(&address.to_string());
    }
    Ok(SUCCESS)
}

impl Args {
    /// The operation's options, as the flags give them.
    pub fn options(&self) -> PlayOptions {
        PlayOptions {
            file: self.file.clone(),
            target: self.target.clone(),
            playback: self.playback.playback(),
            split: self.split.into(),
            ratio: self.ratio,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use phux_client::verbs::play::pane_command;
    use std::path::Path;

    #[derive(Parser)]
    struct Probe {
        #[command(flatten)]
        args: Args,
    }

    #[test]
    fn the_pane_gets_the_absolute_path_and_the_limit_actually_applied() {
        let probe = Probe::try_parse_from(["play", "demo.cast", "--follow", "--speed", "2"]);
        let args = probe.unwrap().args;
        let command = pane_command(
            Path::new("/abs/demo.cast"),
            &args.playback.playback(),
            Some(2.0),
        )
        .unwrap();
        assert_eq!(command[1..3], ["__play-cast", "/abs/demo.cast"]);
        assert!(
            command.contains(&"--idle-limit=2".to_owned()),
            "{command:?}"
        );
        assert!(command.contains(&"--follow".to_owned()), "{command:?}");
        assert!(command.contains(&"--speed=2".to_owned()), "{command:?}");
    }
}
