//! The flags `phux play` and the hidden `phux __play-cast` share: how to play a recording
//! (`phux_client::verbs::playback::Playback`, which `play` checks, then hands on to the pane's
//! process as arguments).

use phux_client::verbs::playback::{self, Playback};
use phux_player::PlayOptions;

#[derive(Debug, Clone, PartialEq, clap::Args)]
pub struct PlaybackFlags {
    /// Playback speed, from 0.01 to 100 (2 plays twice as fast)
    #[arg(long, default_value_t = playback::DEFAULT_SPEED, allow_negative_numbers = true)]
    pub speed: f64,
    /// Play any pause longer than SECS as SECS [default: the recording's own idle_time_limit]
    #[arg(long, value_name = "SECS", allow_negative_numbers = true)]
    pub idle_limit: Option<f64>,
    /// Play N times, with a soft reset between passes; a bare --loop repeats until the pane
    /// is killed
    #[arg(long = "loop", value_name = "N", num_args = 0..=1)]
    pub repeat: Option<Option<u32>>,
    /// Begin SECS into the recording (after the idle clamp, at speed 1); what comes before is
    /// shown at once
    #[arg(
        long,
        value_name = "SECS",
        conflicts_with = "marker",
        allow_negative_numbers = true
    )]
    pub start: Option<f64>,
    /// Begin at the first marker with this label; what comes before is shown at once
    #[arg(long, value_name = "NAME", allow_hyphen_values = true)]
    pub marker: Option<String>,
    /// Keep reading a recording that is still being written (mirrors it live); plays once
    #[arg(long, conflicts_with = "repeat")]
    pub follow: bool,
    /// Leave the pane's size alone (no fit to the recording's grid, no resize events)
    #[arg(long)]
    pub no_fit: bool,
    /// Remove the pane when playback ends, instead of holding the last frame
    #[arg(long)]
    pub close: bool,
}

impl PlaybackFlags {
    /// The playback the flags ask for.
    pub fn playback(&self) -> Playback {
        Playback {
            speed: self.speed,
            idle_limit: self.idle_limit,
            repeat: self.repeat,
            start: self.start,
            marker: self.marker.clone(),
            follow: self.follow,
            no_fit: self.no_fit,
            close: self.close,
        }
    }

    /// The player's options; `cast_limit` is the recording's own idle limit, used unless
    /// `--idle-limit` was given.
    pub fn options(&self, cast_limit: Option<f64>) -> PlayOptions {
        self.playback().options(cast_limit)
    }

    /// The same flags as arguments, spelled `--flag=VALUE` so no value is taken for a flag.
    pub fn to_args(&self) -> Vec<String> {
        self.playback().to_args()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use phux_player::Passes;

    #[derive(Parser)]
    struct Probe {
        #[command(flatten)]
        flags: PlaybackFlags,
    }

    fn parse(args: &[&str]) -> PlaybackFlags {
        let mut argv = vec!["probe"];
        argv.extend_from_slice(args);
        Probe::try_parse_from(argv).unwrap().flags
    }

    #[test]
    fn loop_bare_is_forever_and_with_n_is_n() {
        assert_eq!(parse(&[]).options(None).passes, Passes::Count(1));
        assert_eq!(parse(&["--loop"]).options(None).passes, Passes::Forever);
        assert_eq!(
            parse(&["--loop", "3"]).options(None).passes,
            Passes::Count(3)
        );
    }

    #[test]
    fn the_recording_s_idle_limit_applies_unless_overridden() {
        assert_eq!(parse(&[]).options(Some(2.0)).idle_limit, Some(2.0));
        let flags = parse(&["--idle-limit", "0.5"]);
        assert_eq!(flags.options(Some(2.0)).idle_limit, Some(0.5));
    }

    #[test]
    fn flags_survive_the_trip_to_the_pane_s_process() {
        for args in [
            &["--speed", "2.5", "--loop", "--no-fit"][..],
            &[
                "--idle-limit",
                "1",
                "--loop",
                "2",
                "--start",
                "3.5",
                "--close",
            ],
            &["--marker", "-odd name", "--follow"],
        ] {
            let flags = parse(args);
            let again: Vec<String> = flags.to_args();
            let again: Vec<&str> = again.iter().map(String::as_str).collect();
            assert_eq!(parse(&again), flags, "{args:?}");
        }
    }

    #[test]
    fn follow_cannot_loop_and_start_excludes_marker() {
        let probe = |args: &[&str]| {
            let mut argv = vec!["probe"];
            argv.extend_from_slice(args);
            Probe::try_parse_from(argv).is_err()
        };
        assert!(probe(&["--follow", "--loop"]));
        assert!(probe(&["--start", "1", "--marker", "m"]));
    }
}
