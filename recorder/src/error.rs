//! The errors of this crate: `CastError` (a cast file is wrong, and where) and `RecorderError`
//! (anything else that can fail while writing or transcoding).

use std::fmt;
use std::io;
use std::path::PathBuf;

use crate::header::CastVersion;

/// A cast could not be read: which file, which 1-based line, and what was wrong with it.
///
/// `Display` gives `FILE:LINE: problem`; `remedy()` says what to do about it.
#[derive(Debug, thiserror::Error)]
pub struct CastError {
    pub path: Option<PathBuf>,
    /// 1-based physical line number (blank and comment lines count); 0 when no line is involved.
    pub line: usize,
    pub kind: CastErrorKind,
}

impl fmt::Display for CastError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.path, self.line) {
            (Some(path), 0) => write!(f, "{}: {}", path.display(), self.kind),
            (Some(path), line) => write!(f, "{}:{line}: {}", path.display(), self.kind),
            (None, 0) => write!(f, "{}", self.kind),
            (None, line) => write!(f, "line {line}: {}", self.kind),
        }
    }
}

impl CastError {
    pub fn new(path: Option<PathBuf>, line: usize, kind: CastErrorKind) -> Self {
        Self { path, line, kind }
    }

    /// What the user can do about it, in one sentence.
    pub fn remedy(&self) -> String {
        self.kind.remedy()
    }
}

/// What exactly was wrong in a cast.
#[derive(Debug, thiserror::Error)]
pub enum CastErrorKind {
    #[error("cannot read: {0}")]
    Io(#[source] io::Error),
    #[error("empty file: no header line")]
    Empty,
    #[error("first line is not JSON ({0}); an asciicast starts with a JSON header object")]
    HeaderNotJson(String),
    #[error("this is {0}, not an asciicast recording")]
    NotARecording(&'static str),
    #[error("header is not a JSON object")]
    HeaderNotObject,
    #[error("header has no \"version\" key")]
    MissingVersion,
    #[error("unsupported asciicast version {0} (supported: 2 and 3)")]
    UnsupportedVersion(String),
    #[error("{}", header_size_problem(*.0))]
    HeaderSize(CastVersion),
    #[error("\"idle_time_limit\" must be a positive number, found {0}")]
    IdleTimeLimit(String),
    #[error("event is not JSON ({0})")]
    EventNotJson(String),
    #[error("comment lines (starting with #) are only allowed in v3 casts, and this one is v2")]
    CommentInV2,
    #[error("event is not a [time, code, data] array of a number and two strings")]
    EventShape,
    /// Not an error of the cast as a whole: the reader reports it as a warning
    /// ([`crate::CastReader::cut`]) and keeps what comes before it.
    #[error("the last line is incomplete (no newline at its end, not JSON): the recording was cut there, by a crash or while it was written; it is read up to the line before")]
    Truncated,
    #[error("time is negative ({0:.6} s)")]
    NegativeTime(f64),
    #[error("time goes backwards ({time:.6} s after {previous:.6} s)")]
    TimeBackwards { time: f64, previous: f64 },
    #[error("negative interval ({0:.6} s); v3 event times are intervals since the previous event")]
    NegativeInterval(f64),
    #[error("resize data {0:?} is not COLSxROWS with both between 1 and 65535")]
    BadResize(String),
    #[error("exit status {0:?} is not an integer")]
    BadExit(String),
    #[error("{0}, not a regular file: a cast is read from a file")]
    NotAFile(&'static str),
    #[error("larger than {}, the most phux reads of a cast", phux_core::bounded_read::human(*limit))]
    TooLarge { limit: u64 },
    #[error("a line longer than {}, the most phux reads of one event", phux_core::bounded_read::human(*limit))]
    LineTooLong { limit: u64 },
}

fn header_size_problem(version: CastVersion) -> &'static str {
    match version {
        CastVersion::V2 => "header needs \"width\" and \"height\" as integers between 1 and 65535",
        CastVersion::V3 => {
            "header needs \"term\": {\"cols\", \"rows\"} as integers between 1 and 65535"
        }
    }
}

impl CastErrorKind {
    /// What the user can do about this problem.
    pub fn remedy(&self) -> String {
        let text = match self {
            Self::Io(_) => "check that the path exists and is a readable file",
            Self::Empty => "the recording captured nothing; record it again",
            Self::NotARecording(_) => {
                "give the .cast it was made from (`phux rec -o demo.cast` keeps one); an image or a video cannot be read back into a recording"
            }
            Self::HeaderNotJson(_) | Self::HeaderNotObject => {
                "check that this is an asciicast (.cast) file; line 1 must be a JSON object such as {\"version\": 2, \"width\": 80, \"height\": 24}"
            }
            Self::MissingVersion | Self::UnsupportedVersion(_) => {
                "only asciicast v2 and v3 are read; convert the recording to v2 or v3, or record it again"
            }
            Self::HeaderSize(_) => "fix the terminal size in the header (line 1)",
            Self::IdleTimeLimit(_) => "remove \"idle_time_limit\" from the header or set it to a positive number of seconds",
            Self::EventNotJson(_) | Self::EventShape => {
                "fix or delete that line; every event line must look like [1.5, \"o\", \"text\"]"
            }
            Self::CommentInV2 => "delete that line, or convert the cast to v3",
            Self::Truncated => {
                "nothing to do: the lines before it are read; delete the cut line to silence this"
            }
            Self::NegativeTime(_) | Self::TimeBackwards { .. } | Self::NegativeInterval(_) => {
                "the event times were edited or the file was concatenated; fix or delete that line"
            }
            Self::BadResize(_) => "write resize data as COLSxROWS, e.g. \"120x40\", or delete that line",
            Self::BadExit(_) => "write the exit status as a decimal integer, e.g. \"0\", or delete that line",
            Self::NotAFile(_) => "name a .cast file",
            Self::TooLarge { .. } => "cut the recording into smaller casts",
            Self::LineTooLong { .. } => "check that this is an asciicast (.cast) file; split that event",
        };
        text.to_owned()
    }
}

/// Anything that can go wrong writing or transcoding a cast.
#[derive(Debug, thiserror::Error)]
pub enum RecorderError {
    #[error("{}: {source}", display_path(path))]
    Io {
        path: Option<PathBuf>,
        #[source]
        source: io::Error,
    },
    #[error("{}: already exists", .path.display())]
    Exists { path: PathBuf },
    #[error("{}: input and output are the same file", .path.display())]
    SameFile { path: PathBuf },
    #[error(transparent)]
    Cast(#[from] CastError),
    #[error("invalid header: {0}")]
    InvalidHeader(&'static str),
    #[error("event time {time:.6} s is before the previous event at {previous:.6} s")]
    OutOfOrder { time: f64, previous: f64 },
    #[error("event time {0} is not a finite number of seconds from 0")]
    InvalidTime(f64),
    #[error("resize to {cols}x{rows}: a terminal is at least 1x1")]
    InvalidResize { cols: u16, rows: u16 },
    #[error("input events are never written into a recording")]
    InputRefused,
    #[error("playback speed {0} is not a positive number")]
    InvalidSpeed(f64),
}

fn display_path(path: &Option<PathBuf>) -> String {
    path.as_ref()
        .map_or_else(|| "<stream>".to_owned(), |p| p.display().to_string())
}

impl RecorderError {
    pub(crate) fn io(path: Option<PathBuf>, source: io::Error) -> Self {
        Self::Io { path, source }
    }

    /// What the user can do about it, in one sentence.
    pub fn remedy(&self) -> String {
        let text = match self {
            Self::Cast(e) => return e.remedy(),
            Self::Io { .. } => "check the path, its permissions and the free disk space",
            Self::Exists { .. } => "choose another output path, or allow overwriting it",
            Self::SameFile { .. } => "write to a different path, then rename it over the original",
            Self::InvalidHeader(_) => {
                "give the terminal a size of at least 1x1 and a positive idle limit"
            }
            Self::OutOfOrder { .. } | Self::InvalidTime(_) => {
                "this is a bug in the caller: events must be written in time order from 0"
            }
            Self::InvalidResize { .. } => {
                "this is a bug in the caller: drop resizes to a zero size"
            }
            Self::InputRefused => {
                "drop input events before writing; phux never records typed input"
            }
            Self::InvalidSpeed(_) => "give a speed greater than 0, e.g. 1 or 2.5",
        };
        text.to_owned()
    }
}
