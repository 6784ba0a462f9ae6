//! phux-recorder: asciicast v2/v3 reader and writer, the idle clamp and playback timeline,
//! and v2↔v3 transcoding. Pure format code: no server, no engine.
//!
//! In memory an [`Event`]'s time is always absolute seconds since the start, whatever the
//! file's version. Every consumer plays times through the same [`IdleClamp`], fed with the
//! events it keeps (never `Input`), so a cast, its GIF and its playback agree.

#![forbid(unsafe_code)]

mod clamp;
mod error;
mod event;
mod header;
mod json_string;
mod live;
mod reader;
mod theme;
mod transcode;
mod utf8_carry;
mod writer;

pub use clamp::{clamped_duration, playback_duration, IdleClamp, Timeline};
pub use error::{CastError, CastErrorKind, RecorderError};
pub use event::{Event, EventKind};
pub use header::{CastVersion, Header};
pub use live::{LiveSink, RecordingSummary};
pub use reader::{read_cast, read_cast_and_cut, Cast, CastReader};
pub use theme::{format_palette, parse_palette, Rgb, RgbParseError, Theme};
pub use transcode::{transcode, TranscodeSummary};
pub use utf8_carry::Utf8Carry;
pub use writer::CastWriter;
