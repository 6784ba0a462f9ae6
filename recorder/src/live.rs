//! The live recording sink: turns an observer stream (output chunks stamped with the time the
//! server read them, resizes, the pane's exit) into a `.cast`, one line per event, written in
//! whole lines by batch (the caller decides when: `phux rec` within 20 ms).
//! Timing is kept raw; the stream's first chunk (the screen's repaint) is time zero.

use crate::clamp::IdleClamp;
use crate::error::RecorderError;
use crate::event::{Event, EventKind};
use crate::header::Header;
use crate::utf8_carry::Utf8Carry;
use crate::writer::CastWriter;
use std::fs::File;
use std::path::Path;

/// What a finished recording holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RecordingSummary {
    pub events: u64,
    pub bytes: u64,
    /// Raw duration in seconds (last event time).
    pub duration: f64,
    /// Duration after the header's idle clamp, as every player and encoder will show it.
    pub clamped_duration: f64,
    pub cols: u16,
    pub rows: u16,
}

pub struct LiveSink {
    writer: CastWriter<File>,
    origin_ns: Option<u64>,
    utf8: Utf8Carry,
    last_time: f64,
    clamp: IdleClamp,
    clamped_end: f64,
    cols: u16,
    rows: u16,
}

impl LiveSink {
    pub fn create(path: &Path, header: &Header, overwrite: bool) -> Result<Self, RecorderError> {
        Ok(Self::over(
            CastWriter::create(path, header, overwrite)?,
            header,
        ))
    }

    /// As [`LiveSink::create`], with the file readable by its owner only (0600).
    pub fn create_private(
        path: &Path,
        header: &Header,
        overwrite: bool,
    ) -> Result<Self, RecorderError> {
        Ok(Self::over(
            CastWriter::create_private(path, header, overwrite)?,
            header,
        ))
    }

    fn over(writer: CastWriter<File>, header: &Header) -> Self {
        Self {
            writer,
            origin_ns: None,
            utf8: Utf8Carry::default(),
            last_time: 0.0,
            clamp: IdleClamp::new(header.idle_time_limit),
            clamped_end: 0.0,
            cols: header.cols,
            rows: header.rows,
        }
    }

    /// Seconds since the first event, never going backwards.
    fn time_of(&mut self, t_ns: u64) -> f64 {
        let origin = *self.origin_ns.get_or_insert(t_ns);
        let time = (t_ns.saturating_sub(origin) as f64 / 1e9).max(self.last_time);
        self.last_time = time;
        self.clamped_end = self.clamp.apply(time);
        time
    }

    pub fn output(&mut self, t_ns: u64, bytes: &[u8]) -> Result<(), RecorderError> {
        let time = self.time_of(t_ns);
        let text = self.utf8.decode_borrowed(bytes);
        if text.is_empty() {
            return Ok(());
        }
        self.writer.write_output(time, &text)
    }

    pub fn resize(&mut self, t_ns: u64, cols: u16, rows: u16) -> Result<(), RecorderError> {
        let time = self.time_of(t_ns);
        self.cols = cols;
        self.rows = rows;
        self.writer
            .write_event(&Event::new(time, EventKind::Resize { cols, rows }))
    }

    pub fn marker(&mut self, t_ns: u64, label: &str) -> Result<(), RecorderError> {
        let time = self.time_of(t_ns);
        self.writer
            .write_event(&Event::new(time, EventKind::Marker(label.to_string())))
    }

    /// The pane's program exited with `status`; written as an `x` event.
    pub fn exit(&mut self, t_ns: u64, status: i32) -> Result<(), RecorderError> {
        self.flush_text(t_ns)?;
        let time = self.time_of(t_ns);
        self.writer
            .write_event(&Event::new(time, EventKind::Exit(status)))
    }

    fn flush_text(&mut self, t_ns: u64) -> Result<(), RecorderError> {
        let rest = self.utf8.flush();
        if rest.is_empty() {
            return Ok(());
        }
        let time = self.time_of(t_ns);
        self.writer
            .write_event(&Event::new(time, EventKind::Output(rest)))
    }

    /// Holds the lines of the events that follow (ones that arrived together) until
    /// [`LiveSink::end_batch`] writes them in one go.
    pub fn begin_batch(&mut self) {
        self.writer.begin_batch();
    }

    pub fn end_batch(&mut self) -> Result<(), RecorderError> {
        self.writer.end_batch()
    }

    /// Bytes of lines held by an open batch, not yet written.
    pub fn pending_bytes(&self) -> usize {
        self.writer.pending_bytes()
    }

    pub fn events(&self) -> u64 {
        self.writer.events_written()
    }

    pub fn bytes(&self) -> u64 {
        self.writer.bytes_written()
    }

    pub fn finish(mut self) -> Result<RecordingSummary, RecorderError> {
        let end_ns = self.origin_ns.unwrap_or(0) + (self.last_time * 1e9) as u64;
        self.flush_text(end_ns)?;
        let summary = RecordingSummary {
            events: self.writer.events_written(),
            bytes: self.writer.bytes_written(),
            duration: self.last_time,
            clamped_duration: self.clamped_end,
            cols: self.cols,
            rows: self.rows,
        };
        self.writer.finish()?;
        Ok(summary)
    }
}
