//! How to play a recording, as `phux play` and the hidden `phux __play-cast` share it: `play`
//! checks it, then hands it on to the pane's process as arguments.

use phux_player::{Passes, PlayOptions, StartPoint};

/// How to play a recording.
#[derive(Debug, Clone, PartialEq)]
pub struct Playback {
    /// Playback speed, from 0.01 to 100 (2 plays twice as fast)
    pub speed: f64,
    /// Play any pause longer than SECS as SECS [default: the recording's own idle_time_limit]
    pub idle_limit: Option<f64>,
    /// Play N times, with a soft reset between passes; a bare --loop repeats until the pane
    /// is killed
    pub repeat: Option<Option<u32>>,
    /// Begin SECS into the recording (after the idle clamp, at speed 1); what comes before is
    /// shown at once
    pub start: Option<f64>,
    /// Begin at the first marker with this label; what comes before is shown at once
    pub marker: Option<String>,
    /// Keep reading a recording that is still being written (mirrors it live); plays once
    pub follow: bool,
    /// Leave the pane's size alone (no fit to the recording's grid, no resize events)
    pub no_fit: bool,
    /// Remove the pane when playback ends, instead of holding the last frame
    pub close: bool,
}

impl Playback {
    /// The player's options; `cast_limit` is the recording's own idle limit, used unless
    /// `--idle-limit` was given.
    pub fn options(&self, cast_limit: Option<f64>) -> PlayOptions {
        PlayOptions {
            speed: self.speed,
            idle_limit: self.idle_limit.or(cast_limit),
            passes: match self.repeat {
                None => Passes::Count(1),
                Some(None) => Passes::Forever,
                Some(Some(n)) => Passes::Count(n),
            },
            start: match (&self.start, &self.marker) {
                (Some(secs), _) => StartPoint::At(*secs),
                (None, Some(name)) => StartPoint::Marker(name.clone()),
                (None, None) => StartPoint::Beginning,
            },
        }
    }

    /// The same flags as arguments, spelled `--flag=VALUE` so no value is taken for a flag.
    pub fn to_args(&self) -> Vec<String> {
        let mut args = vec![format!("--speed={}", self.speed)];
        if let Some(limit) = self.idle_limit {
            args.push(format!("--idle-limit={limit}"));
        }
        match self.repeat {
            None => {}
            Some(None) => args.push("--loop".to_owned()),
            Some(Some(n)) => args.push(format!("--loop={n}")),
        }
        if let Some(secs) = self.start {
            args.push(format!("--start={secs}"));
        }
        if let Some(name) = &self.marker {
            args.push(format!("--marker={name}"));
        }
        for (on, flag) in [
            (self.follow, "--follow"),
            (self.no_fit, "--no-fit"),
            (self.close, "--close"),
        ] {
            if on {
                args.push(flag.to_owned());
            }
        }
        args
    }
}

impl Default for Playback {
    /// Once, from the beginning, at speed 1, fitted, the last frame held.
    fn default() -> Playback {
        Playback {
            speed: DEFAULT_SPEED,
            idle_limit: None,
            repeat: None,
            start: None,
            marker: None,
            follow: false,
            no_fit: false,
            close: false,
        }
    }
}

/// Playback speed unless asked otherwise.
pub const DEFAULT_SPEED: f64 = 1.0;
