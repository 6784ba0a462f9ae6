//! Writing casts line by line, so that a writer killed at any moment leaves a readable prefix.
//!
//! Every line (header or event) goes out whole, newline included, straight to the sink, then
//! the sink is flushed. `create` writes to the `File` itself, never through a buffer that could
//! hold a line back. A batch ([`CastWriter::begin_batch`] … [`CastWriter::end_batch`]) writes
//! the lines of events that arrived together in one `write_all`: still only whole lines, one
//! system call instead of one per event. A live recorder keeps a batch open for at most a few
//! tens of milliseconds, so a recorder killed with SIGKILL loses no more than that.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use crate::error::RecorderError;
use crate::event::{Event, EventKind};
use crate::header::{CastVersion, Header};
use crate::json_string;

/// Writes one cast, in the version its header names.
///
/// Times are given absolute (seconds since the start) and must not go backwards. v2 stores them
/// with 6 decimals; v3 stores intervals in whole milliseconds, each interval chosen so that the
/// sum written so far is the event's time rounded to the millisecond: the rounding error is
/// carried forward and the cumulative drift never exceeds 0.5 ms.
pub struct CastWriter<W: Write = File> {
    sink: W,
    path: Option<PathBuf>,
    version: CastVersion,
    last_time: f64,
    /// v3: sum of the intervals written so far, in milliseconds.
    written_ms: u64,
    events: u64,
    bytes: u64,
    /// Lines of the open batch, not yet written.
    pending: Vec<u8>,
    batching: bool,
}

impl CastWriter<File> {
    /// Creates the file at `path` and writes the header. An existing file is refused with
    /// `RecorderError::Exists` unless `overwrite`.
    pub fn create(
        path: impl AsRef<Path>,
        header: &Header,
        overwrite: bool,
    ) -> Result<Self, RecorderError> {
        Self::create_with_mode(path.as_ref(), header, overwrite, 0o666)
    }

    /// As [`CastWriter::create`], but only its owner may read the file (mode 0600): a cast
    /// staged before it is rendered holds whatever was typed and shown, secrets included.
    pub fn create_private(
        path: impl AsRef<Path>,
        header: &Header,
        overwrite: bool,
    ) -> Result<Self, RecorderError> {
        Self::create_with_mode(path.as_ref(), header, overwrite, 0o600)
    }

    fn create_with_mode(
        path: &Path,
        header: &Header,
        overwrite: bool,
        mode: u32,
    ) -> Result<Self, RecorderError> {
        header.validate()?;
        // Replacing removes the path itself first, so a symlink there is replaced rather than
        // written through; either way the file is then created exclusively (O_EXCL refuses
        // anything at the path, a dangling symlink included).
        if overwrite {
            match std::fs::symlink_metadata(path) {
                Ok(meta) if !meta.is_dir() => std::fs::remove_file(path)
                    .map_err(|e| RecorderError::io(Some(path.to_owned()), e))?,
                _ => {}
            }
        }
        let mut options = OpenOptions::new();
        options.write(true).create_new(true).mode(mode);
        let file = options.open(path).map_err(|e| match e.kind() {
            io::ErrorKind::AlreadyExists => RecorderError::Exists {
                path: path.to_owned(),
            },
            _ => RecorderError::io(Some(path.to_owned()), e),
        })?;
        Self::start(file, Some(path.to_owned()), header)
    }
}

impl<W: Write> CastWriter<W> {
    /// Writes the header to `sink`; for tests and in-memory casts.
    pub fn from_writer(sink: W, header: &Header) -> Result<Self, RecorderError> {
        header.validate()?;
        Self::start(sink, None, header)
    }

    fn start(sink: W, path: Option<PathBuf>, header: &Header) -> Result<Self, RecorderError> {
        let mut this = Self {
            sink,
            path,
            version: header.version,
            last_time: 0.0,
            written_ms: 0,
            events: 0,
            bytes: 0,
            pending: Vec::new(),
            batching: false,
        };
        let mut line = header.to_json_line();
        line.push('\n');
        this.pending.extend_from_slice(line.as_bytes());
        this.write_pending()?;
        Ok(this)
    }

    /// Appends one event. Input events are refused: phux never records typed input. So is
    /// anything the reader would refuse, so that whatever is written can be read back.
    pub fn write_event(&mut self, event: &Event) -> Result<(), RecorderError> {
        match &event.kind {
            EventKind::Input(_) => Err(RecorderError::InputRefused),
            EventKind::Resize { cols, rows } if *cols == 0 || *rows == 0 => {
                Err(RecorderError::InvalidResize {
                    cols: *cols,
                    rows: *rows,
                })
            }
            EventKind::Output(text) | EventKind::Marker(text) => {
                self.write_line(event.time, event.kind.code(), |line| {
                    json_string::write_json_string(line, text);
                })
            }
            other => {
                let data = other.data();
                self.write_line(event.time, other.code(), |line| {
                    json_string::write_json_string(line, &data);
                })
            }
        }
    }

    /// Appends an output event of `text` at `time`, as `write_event` does, without the event.
    pub fn write_output(&mut self, time: f64, text: &str) -> Result<(), RecorderError> {
        self.write_line(time, "o", |line| json_string::write_json_string(line, text))
    }

    /// Appends the line `[time, "code", data]`, `data` written by `write_data`.
    fn write_line(
        &mut self,
        time: f64,
        code: &str,
        write_data: impl FnOnce(&mut Vec<u8>),
    ) -> Result<(), RecorderError> {
        if !(time.is_finite() && time >= 0.0) {
            return Err(RecorderError::InvalidTime(time));
        }
        if time < self.last_time {
            let previous = self.last_time;
            return Err(RecorderError::OutOfOrder { time, previous });
        }
        let stamp = self.time_field(time);
        let line = &mut self.pending;
        line.push(b'[');
        line.extend_from_slice(stamp.as_bytes());
        line.extend_from_slice(b", \"");
        line.extend_from_slice(code.as_bytes());
        line.extend_from_slice(b"\", ");
        // Escaped straight from the text into the line: no copy of the data.
        write_data(line);
        self.pending.extend_from_slice(b"]\n");
        self.last_time = time;
        self.events += 1;
        if !self.batching {
            self.write_pending()?;
        }
        Ok(())
    }

    /// Holds the lines of the events that follow until [`CastWriter::end_batch`].
    pub fn begin_batch(&mut self) {
        self.batching = true;
    }

    /// Writes the batch's lines in one `write_all`, then flushes.
    pub fn end_batch(&mut self) -> Result<(), RecorderError> {
        self.batching = false;
        self.write_pending()
    }

    /// The time field for an event at absolute `time`; advances the v3 millisecond sum.
    fn time_field(&mut self, time: f64) -> String {
        match self.version {
            CastVersion::V2 => format!("{time:.6}"),
            CastVersion::V3 => {
                // Saturating float→int cast is the intent for absurdly long recordings.
                let target_ms = (time * 1000.0).round() as u64;
                let interval = target_ms.saturating_sub(self.written_ms);
                self.written_ms += interval;
                format!("{}.{:03}", interval / 1000, interval % 1000)
            }
        }
    }

    fn write_pending(&mut self) -> Result<(), RecorderError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let result = self
            .sink
            .write_all(&self.pending)
            .and_then(|()| self.sink.flush());
        result.map_err(|e| RecorderError::io(self.path.clone(), e))?;
        self.bytes += self.pending.len() as u64;
        self.pending.clear();
        Ok(())
    }

    /// Bytes of lines held by an open batch, not yet written.
    pub fn pending_bytes(&self) -> usize {
        self.pending.len()
    }

    /// Events written so far (the header is not an event).
    pub fn events_written(&self) -> u64 {
        self.events
    }

    /// Bytes written so far, header included.
    pub fn bytes_written(&self) -> u64 {
        self.bytes
    }

    /// Flushes and hands back the sink. Every line is already written; this only makes the end
    /// of the recording explicit.
    pub fn finish(mut self) -> Result<W, RecorderError> {
        self.write_pending()?;
        self.sink
            .flush()
            .map_err(|e| RecorderError::io(self.path.clone(), e))?;
        Ok(self.sink)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v3_lines(times: &[f64]) -> Vec<String> {
        let mut w =
            CastWriter::from_writer(Vec::new(), &Header::new(CastVersion::V3, 80, 24)).unwrap();
        for &t in times {
            w.write_event(&Event::output(t, "")).unwrap();
        }
        let text = String::from_utf8(w.finish().unwrap()).unwrap();
        text.lines().skip(1).map(str::to_owned).collect()
    }

    #[test]
    fn v3_carries_rounding_error_forward() {
        // 0.4 ms three times: naive per-interval rounding would write 0.000 three times.
        let lines = v3_lines(&[0.0004, 0.0008, 0.0012]);
        assert_eq!(
            lines,
            [
                r#"[0.000, "o", ""]"#,
                r#"[0.001, "o", ""]"#,
                r#"[0.000, "o", ""]"#
            ]
        );
    }

    /// Counts the `write` calls it gets and keeps the bytes.
    #[derive(Default)]
    struct Calls {
        writes: usize,
        bytes: Vec<u8>,
    }

    impl Write for Calls {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.writes += 1;
            self.bytes.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_batch_is_one_write_of_whole_lines_with_the_same_text() {
        let header = Header::new(CastVersion::V2, 80, 24);
        let mut one_by_one = CastWriter::from_writer(Calls::default(), &header).unwrap();
        let mut batched = CastWriter::from_writer(Calls::default(), &header).unwrap();
        batched.begin_batch();
        for (i, text) in ["a\"b", "\u{1b}[0m\n", "日本"].iter().enumerate() {
            let event = Event::output(i as f64, *text);
            one_by_one.write_event(&event).unwrap();
            batched.write_event(&event).unwrap();
        }
        batched.end_batch().unwrap();
        let (one_by_one, batched) = (one_by_one.finish().unwrap(), batched.finish().unwrap());
        assert_eq!(one_by_one.writes, 1 + 3);
        assert_eq!(batched.writes, 1 + 1);
        assert_eq!(one_by_one.bytes, batched.bytes);
        let text = String::from_utf8(batched.bytes).unwrap();
        assert!(text.ends_with("[2.000000, \"o\", \"日本\"]\n"), "{text}");
        assert!(text.contains(r#"[0.000000, "o", "a\"b"]"#), "{text}");
    }

    #[test]
    fn v2_writes_absolute_times_with_six_decimals() {
        let mut w =
            CastWriter::from_writer(Vec::new(), &Header::new(CastVersion::V2, 80, 24)).unwrap();
        w.write_event(&Event::output(1.25, "a\u{1b}[0m\n")).unwrap();
        w.write_event(&Event::new(
            2.0,
            EventKind::Resize {
                cols: 100,
                rows: 30,
            },
        ))
        .unwrap();
        let text = String::from_utf8(w.finish().unwrap()).unwrap();
        let lines: Vec<_> = text.lines().skip(1).collect();
        assert_eq!(
            lines,
            [
                r#"[1.250000, "o", "a\u001b[0m\n"]"#,
                r#"[2.000000, "r", "100x30"]"#
            ]
        );
    }

    #[test]
    fn writer_refuses_input_backwards_time_and_bad_headers() {
        let mut w =
            CastWriter::from_writer(Vec::new(), &Header::new(CastVersion::V2, 80, 24)).unwrap();
        let input = Event::new(0.0, EventKind::Input("ls\r".into()));
        assert!(matches!(
            w.write_event(&input),
            Err(RecorderError::InputRefused)
        ));
        w.write_event(&Event::output(2.0, "x")).unwrap();
        assert!(matches!(
            w.write_event(&Event::output(1.0, "y")),
            Err(RecorderError::OutOfOrder { .. })
        ));
        assert!(matches!(
            w.write_event(&Event::output(f64::NAN, "y")),
            Err(RecorderError::InvalidTime(_))
        ));
        let flat = Event::new(3.0, EventKind::Resize { cols: 80, rows: 0 });
        assert!(matches!(
            w.write_event(&flat),
            Err(RecorderError::InvalidResize { cols: 80, rows: 0 })
        ));
        let zero = Header::new(CastVersion::V3, 0, 24);
        assert!(matches!(
            CastWriter::from_writer(Vec::new(), &zero),
            Err(RecorderError::InvalidHeader(_))
        ));
    }
}
