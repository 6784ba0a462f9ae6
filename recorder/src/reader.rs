//! Reading casts: v2 and v3 line by line into `Header` and absolute-time `Event`s, with errors
//! that name the file and line.
//!
//! Rules, for both versions unless said otherwise:
//! * each line is read as bytes; invalid UTF-8 is replaced by U+FFFD, never an error;
//! * blank lines are skipped, and in v3 lines starting with `#` (never the header line);
//! * events with a code this crate does not know are skipped (their time still counts);
//! * a file holding only a header is a valid cast with zero events; an empty file is an error;
//! * a last line cut short (no newline at its end and not JSON: the recording was cut by a
//!   crash, or is still being written) ends the cast where the whole lines end, and is
//!   reported as [`CastReader::cut`], a warning naming the line, not an error;
//! * the first error ends the iteration: later lines are not read.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};

use phux_core::bounded_read::{self, BoundedReadError, MAX_CAST_BYTES, MAX_CAST_LINE_BYTES};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{CastError, CastErrorKind};
use crate::event::{Event, EventKind};
use crate::header::{CastVersion, Header};

/// A whole cast in memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Cast {
    pub header: Header,
    pub events: Vec<Event>,
}

impl Cast {
    /// The raw time of the last event (0 for no events), before any idle clamp.
    pub fn raw_duration(&self) -> f64 {
        self.events.last().map_or(0.0, |e| e.time)
    }
}

/// Reads the whole cast at `path` (up to a last line cut short: see [`read_cast_and_cut`] for
/// the warning that says so).
pub fn read_cast(path: impl AsRef<Path>) -> Result<Cast, CastError> {
    read_cast_and_cut(path).map(|(cast, _)| cast)
}

/// Reads the whole cast at `path`, and where its last line was cut short, if it was: a warning
/// for the person who gave it (`FILE:LINE: the last line is incomplete...`).
pub fn read_cast_and_cut(path: impl AsRef<Path>) -> Result<(Cast, Option<CastError>), CastError> {
    let mut reader = CastReader::open(path)?;
    let events = reader.by_ref().collect::<Result<Vec<_>, _>>()?;
    let cut = reader.cut.take();
    Ok((
        Cast {
            header: reader.header,
            events,
        },
        cut,
    ))
}

/// A streaming cast reader: the header is read on construction, events by iterating.
pub struct CastReader<R> {
    source: R,
    path: Option<PathBuf>,
    header: Header,
    /// 1-based number of the last line read.
    line: usize,
    /// How many more bytes may be read (a file's is the cast limit; a stream's is unbounded,
    /// its events being played as they come, but each of its lines is bounded).
    budget: Option<u64>,
    /// Absolute time of the last event read, skipped events included.
    clock: f64,
    finished: bool,
    /// The last line, cut short: what was read ends before it.
    cut: Option<CastError>,
}

/// One physical line, newline stripped.
struct Line {
    text: String,
    /// False when the file ended without a newline after this line.
    complete: bool,
}

impl CastReader<BufReader<File>> {
    /// Opens and reads the header of the cast at `path`.
    /// A device, a FIFO or a directory is refused before a byte is read, and so is a file
    /// larger than [`MAX_CAST_BYTES`] (and one that grows past it while it is read): `play
    /// /dev/zero` and `rec --from /dev/zero` passed 4 GB.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, CastError> {
        let path = path.as_ref();
        let file = bounded_read::open_file(path, MAX_CAST_BYTES, "a cast").map_err(|e| {
            let kind = match e {
                BoundedReadError::Io { source, .. } => CastErrorKind::Io(source),
                BoundedReadError::NotAFile { kind, .. } => CastErrorKind::NotAFile(kind),
                BoundedReadError::TooLarge { limit, .. } => CastErrorKind::TooLarge { limit },
            };
            CastError::new(Some(path.to_owned()), 0, kind)
        })?;
        Self::read_header_of(BufReader::new(file), path, Some(MAX_CAST_BYTES))
    }
}

impl<R: BufRead> CastReader<R> {
    /// Reads the header from `reader`; `display_name` is the file name errors will show.
    pub fn from_bufread(reader: R, display_name: impl Into<PathBuf>) -> Result<Self, CastError> {
        Self::read_header_of(reader, display_name, None)
    }

    fn read_header_of(
        reader: R,
        display_name: impl Into<PathBuf>,
        budget: Option<u64>,
    ) -> Result<Self, CastError> {
        let mut this = Self {
            source: reader,
            path: Some(display_name.into()),
            header: Header::new(CastVersion::V2, 1, 1),
            line: 0,
            budget,
            clock: 0.0,
            finished: false,
            cut: None,
        };
        this.header = this.read_header()?;
        Ok(this)
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    pub fn into_header(self) -> Header {
        self.header
    }

    /// The last line read, when it was cut short (no newline, not JSON) and so ended the cast:
    /// a warning naming it. A stream still being written ends in such a line too.
    pub fn cut(&self) -> Option<&CastError> {
        self.cut.as_ref()
    }

    fn error(&self, kind: CastErrorKind) -> CastError {
        CastError::new(self.path.clone(), self.line, kind)
    }

    fn read_line(&mut self) -> Result<Option<Line>, CastError> {
        let mut bytes = Vec::new();
        let n = (&mut self.source)
            .take(MAX_CAST_LINE_BYTES + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| self.error(CastErrorKind::Io(e)))?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        let complete = bytes.last() == Some(&b'\n');
        if !complete && n as u64 > MAX_CAST_LINE_BYTES {
            return Err(self.error(CastErrorKind::LineTooLong {
                limit: MAX_CAST_LINE_BYTES,
            }));
        }
        if let Some(budget) = self.budget.as_mut() {
            *budget = budget.checked_sub(n as u64).ok_or_else(|| {
                CastError::new(
                    self.path.clone(),
                    0,
                    CastErrorKind::TooLarge {
                        limit: MAX_CAST_BYTES,
                    },
                )
            })?;
        }
        if complete {
            bytes.pop();
            if bytes.last() == Some(&b'\r') {
                bytes.pop();
            }
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        Ok(Some(Line { text, complete }))
    }

    fn read_header(&mut self) -> Result<Header, CastError> {
        let line = loop {
            match self.read_line()? {
                None => return Err(CastError::new(self.path.clone(), 0, CastErrorKind::Empty)),
                Some(line) if line.text.trim().is_empty() => continue,
                Some(line) => break line,
            }
        };
        let text = line.text.strip_prefix('\u{feff}').unwrap_or(&line.text);
        if let Some(what) = made_from_a_recording(text) {
            return Err(self.error(CastErrorKind::NotARecording(what)));
        }
        let value: Value = serde_json::from_str(text)
            .map_err(|e| self.error(CastErrorKind::HeaderNotJson(json_problem(&e))))?;
        Header::from_json(&value).map_err(|kind| self.error(kind))
    }

    /// The next event, or `None` at the end; skips blank, comment and unknown-code lines.
    fn next_event(&mut self) -> Result<Option<Event>, CastError> {
        loop {
            let Some(line) = self.read_line()? else {
                return Ok(None);
            };
            if self.is_skippable(&line.text) {
                continue;
            }
            match self.parse_event(line) {
                Ok(Some(event)) => return Ok(Some(event)),
                Ok(None) => {}
                Err(CastErrorKind::Truncated) => {
                    self.cut = Some(self.error(CastErrorKind::Truncated));
                    return Ok(None);
                }
                Err(kind) => return Err(self.error(kind)),
            }
        }
    }

    fn is_skippable(&self, text: &str) -> bool {
        let trimmed = text.trim_start();
        trimmed.is_empty() || (self.header.version == CastVersion::V3 && trimmed.starts_with('#'))
    }

    fn parse_event(&mut self, line: Line) -> Result<Option<Event>, CastErrorKind> {
        let value: Value = match serde_json::from_str(&line.text) {
            Ok(value) => value,
            Err(_) if !line.complete => return Err(CastErrorKind::Truncated),
            Err(_) if line.text.trim_start().starts_with('#') => {
                return Err(CastErrorKind::CommentInV2)
            }
            Err(e) => return Err(CastErrorKind::EventNotJson(json_problem(&e))),
        };
        let (time, code, data) = event_parts(value).ok_or(CastErrorKind::EventShape)?;
        let time = self.advance_clock(time)?;
        let kind = EventKind::from_code(&code, data)?;
        Ok(kind.map(|kind| Event { time, kind }))
    }

    /// Turns the file's time field into absolute seconds, refusing time that runs backwards.
    fn advance_clock(&mut self, time: f64) -> Result<f64, CastErrorKind> {
        match self.header.version {
            CastVersion::V2 if time < 0.0 => return Err(CastErrorKind::NegativeTime(time)),
            CastVersion::V2 if time < self.clock => {
                let previous = self.clock;
                return Err(CastErrorKind::TimeBackwards { time, previous });
            }
            CastVersion::V2 => self.clock = time,
            CastVersion::V3 if time < 0.0 => return Err(CastErrorKind::NegativeInterval(time)),
            CastVersion::V3 => self.clock += time,
        }
        Ok(self.clock)
    }
}

impl<R: BufRead> Iterator for CastReader<R> {
    type Item = Result<Event, CastError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.finished {
            return None;
        }
        let result = self.next_event().transpose();
        if !matches!(result, Some(Ok(_))) {
            self.finished = true;
        }
        result
    }
}

/// `[number, string, string]` → its parts; `None` for any other shape.
fn event_parts(value: Value) -> Option<(f64, String, String)> {
    let Value::Array(items) = value else {
        return None;
    };
    let [time, code, data]: [Value; 3] = items.try_into().ok()?;
    match (time.as_f64(), code, data) {
        (Some(time), Value::String(code), Value::String(data)) => Some((time, code, data)),
        _ => None,
    }
}

/// serde_json's message without its "at line 1 column N" (we name the line ourselves).
fn json_problem(error: &serde_json::Error) -> String {
    let message = error.to_string();
    match message.rfind(" at line ") {
        Some(cut) => format!("{} at column {}", &message[..cut], error.column()),
        None => message,
    }
}

/// What a file starting with `first_line` is, when it is what people make from a recording
/// and may hand over in its place: a GIF or PNG image, an MP4 or WebM video (by their magic
/// bytes, as read lossily: WebM's `DF A3` happens to be valid UTF-8).
fn made_from_a_recording(first_line: &str) -> Option<&'static str> {
    if first_line.starts_with("GIF87a") || first_line.starts_with("GIF89a") {
        Some("a GIF image")
    } else if first_line.starts_with("\u{fffd}PNG") {
        Some("a PNG image")
    } else if first_line.get(4..8) == Some("ftyp") {
        Some("an MP4 video")
    } else if first_line.starts_with("\u{1a}E\u{7e3}") {
        Some("a WebM video")
    } else {
        None
    }
}

#[cfg(test)]
mod recognised_files {
    use super::made_from_a_recording;

    #[test]
    fn images_and_videos_are_named_and_casts_are_not() {
        let lossy = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        let png = lossy(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
        let mp4 = lossy(b"\0\0\0\x20ftypisom\0\0\x02\0");
        let webm = lossy(b"\x1a\x45\xdf\xa3\x9f\x42\x86\x81");
        assert_eq!(made_from_a_recording("GIF89a\u{1}\0"), Some("a GIF image"));
        assert_eq!(made_from_a_recording(&png), Some("a PNG image"));
        assert_eq!(made_from_a_recording(&mp4), Some("an MP4 video"));
        assert_eq!(made_from_a_recording(&webm), Some("a WebM video"));
        let cast = r#"{"version": 2, "width": 80, "height": 24}"#;
        assert_eq!(made_from_a_recording(cast), None);
        assert_eq!(made_from_a_recording(""), None);
    }
}
