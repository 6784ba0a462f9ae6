//! phux-player: paced playback of a cast into a writer (a pane's PTY, in practice).
//!
//! Every event's time goes through the recorder's one [`phux_recorder::Timeline`] (idle clamp,
//! then speed), and each write waits for an absolute deadline measured from one anchor, so
//! sleeping late once never delays everything after it. Only `o` events are written and only
//! `r` events reach the resize callback; `i`, `m` and `x` events move the clock and nothing
//! else (typed input is never fed back).

#![forbid(unsafe_code)]

mod clock;
mod error;
mod follow;
mod options;
mod pass;

pub use clock::{Clock, SystemClock};
pub use error::PlayError;
pub use follow::{follow_cast, TailReader};
pub use options::{Passes, PlayOptions, StartPoint, MAX_SPEED, MIN_SPEED};
pub use pass::{pass_duration, play_cast, PlaybackSink, SOFT_RESET_AND_CLEAR};
