//! Converting a cast between v2 and v3, keeping raw timing and the idle limit, dropping input.

use std::fs;
use std::path::Path;

use crate::clamp::IdleClamp;
use crate::error::RecorderError;
use crate::event::EventKind;
use crate::header::CastVersion;
use crate::reader::CastReader;
use crate::writer::CastWriter;

/// What `transcode` wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranscodeSummary {
    /// Events written (input events are never written).
    pub events: u64,
    /// The written cast's length after the idle clamp of its header, in milliseconds.
    pub duration_ms: u64,
    pub cols: u16,
    pub rows: u16,
    /// Size of the output file.
    pub bytes: u64,
}

/// Reads `input` and writes it to `output` as `version`.
///
/// Times stay raw (the idle limit is copied into the header, not applied); every event but
/// `Input` is kept. An existing `output` is refused unless `overwrite`, and never when it is the
/// input itself. If reading fails part-way, the partial output is removed and the error returned.
pub fn transcode(
    input: &Path,
    output: &Path,
    version: CastVersion,
    overwrite: bool,
) -> Result<TranscodeSummary, RecorderError> {
    refuse_same_file(input, output)?;
    let mut reader = CastReader::open(input)?;
    let mut header = reader.header().clone();
    header.version = version;
    let mut writer = CastWriter::create(output, &header, overwrite)?;
    let mut clamp = IdleClamp::new(header.idle_time_limit);
    let mut duration = 0.0;
    let copied = reader.by_ref().try_for_each(|event| {
        let event = event?;
        if matches!(event.kind, EventKind::Input(_)) {
            return Ok(());
        }
        duration = clamp.apply(event.time);
        writer.write_event(&event)
    });
    let summary = TranscodeSummary {
        events: writer.events_written(),
        // Saturating float→int cast is the intent; durations are non-negative.
        duration_ms: (duration * 1000.0).round() as u64,
        cols: header.cols,
        rows: header.rows,
        bytes: writer.bytes_written(),
    };
    let finished = copied.and_then(|()| writer.finish().map(drop));
    if let Err(error) = finished {
        // Best effort: the error being returned matters more than a failed cleanup.
        let _ = fs::remove_file(output);
        return Err(error);
    }
    Ok(summary)
}

fn refuse_same_file(input: &Path, output: &Path) -> Result<(), RecorderError> {
    let (Ok(a), Ok(b)) = (fs::canonicalize(input), fs::canonicalize(output)) else {
        return Ok(());
    };
    if a == b {
        return Err(RecorderError::SameFile {
            path: output.to_owned(),
        });
    }
    Ok(())
}
