//! Recording a pane: an `observe` stream (the screen's repaint, then every output chunk with
//! the time the server read it, resizes, the pane's exit) written to a `.cast` line by line.
//! Ends on a stop flag (Ctrl-C), a duration, the pane exiting, or (for the past alone) once
//! the replayed history is written.

use crate::client::{Client, ClientError};
use crossbeam_channel::{bounded, RecvTimeoutError};
use phux_core::docs::WatchEventKind;
use phux_core::ids::PaneId;
use phux_core::wire::{ClientMessage, Frame, FrameReader, Observe, ObserveStart, ServerMessage};
use phux_recorder::{CastVersion, Header, LiveSink, RecorderError, RecordingSummary};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The most stream frames written in one batch (output frames carry up to a PTY read each).
const MAX_BATCH: usize = 256;

/// Why a recording ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// The stop flag was raised (Ctrl-C): a success.
    Stopped,
    /// `--duration` elapsed.
    Duration,
    /// The pane's program exited with this status.
    PaneExited(Option<i32>),
    /// The server closed the stream (it fell behind and was dropped, or the server stopped).
    StreamEnded,
    /// The past (`--since` without `--follow` or `--duration`) was written up to the moment
    /// the recording began: a success.
    CaughtUp,
    /// The server dropped the recorder for falling behind.
    Lagged,
}

/// What to record and how.
pub struct RecordRequest<'a> {
    pub pane: PaneId,
    pub output: &'a Path,
    pub version: CastVersion,
    pub overwrite: bool,
    pub idle_limit: Option<f64>,
    pub since_ms: Option<u64>,
    pub duration: Option<Duration>,
    /// Stop once the past the server replays has been written (`--since` alone).
    pub until_caught_up: bool,
    pub command: Option<String>,
    pub stop: Arc<AtomicBool>,
}

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error(transparent)]
    Cast(#[from] RecorderError),
}

/// Live counts for a progress line: (events written, bytes written).
pub type OnProgress<'a> = &'a mut dyn FnMut(u64, u64);

/// Records until a stop condition; returns the summary and why it stopped.
pub fn record(
    mut client: Client,
    request: &RecordRequest<'_>,
    on_progress: OnProgress<'_>,
) -> Result<(RecordingSummary, StopReason), RecordError> {
    let start: ObserveStart = client.request(ClientMessage::Observe(Observe {
        id: 0,
        pane: request.pane,
        since_ms: request.since_ms,
        viewer: false,
    }))?;
    record_stream(client, start, request, on_progress)
}

/// Records the observe stream `client` already carries (answered with `start`), as `record`
/// does after asking for it.
pub fn record_stream(
    mut client: Client,
    start: ObserveStart,
    request: &RecordRequest<'_>,
    on_progress: OnProgress<'_>,
) -> Result<(RecordingSummary, StopReason), RecordError> {
    let mut sink = LiveSink::create(request.output, &header(request, &start), request.overwrite)?;
    client.set_read_timeout(None)?;
    let (tx, frames) = bounded(1024);
    let mut reader = FrameReader::new(std::io::BufReader::with_capacity(
        256 * 1024,
        client.into_stream(),
    ));
    std::thread::spawn(move || {
        while let Ok(frame) = reader.read_frame() {
            if tx.send(frame).is_err() {
                break;
            }
        }
    });
    let began = Instant::now();
    // The chunk with this sequence number is the last of the past; `None`: record live.
    let caught_up_at = start.live_seq.filter(|_| request.until_caught_up);
    let reason = loop {
        if request.stop.load(Ordering::Relaxed) {
            break StopReason::Stopped;
        }
        if request
            .duration
            .is_some_and(|limit| began.elapsed() >= limit)
        {
            break StopReason::Duration;
        }
        match frames.recv_timeout(Duration::from_millis(50)) {
            Ok(frame) => {
                // What arrived together is written together: one write for the batch, whole
                // lines only, flushed before waiting again. The past ends the recording at the
                // chunk it was caught up at (`--since` without `--follow`).
                sink.begin_batch();
                let mut ended = None;
                let mut next = Some(frame);
                let mut taken = 0;
                while let Some(frame) = next.take() {
                    let seq = match &frame {
                        Frame::Output(chunk) => Some(chunk.seq),
                        _ => None,
                    };
                    ended = apply(&mut sink, frame)?;
                    taken += 1;
                    if ended.is_none()
                        && seq.is_some_and(|seq| caught_up_at.is_some_and(|last| seq >= last))
                    {
                        ended = Some(StopReason::CaughtUp);
                    }
                    if ended.is_some() || taken >= MAX_BATCH {
                        break;
                    }
                    next = frames.try_recv().ok();
                }
                sink.end_batch()?;
                if let Some(reason) = ended {
                    break reason;
                }
                on_progress(sink.events(), sink.bytes());
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break StopReason::StreamEnded,
        }
    };
    Ok((sink.finish()?, reason))
}

fn header(request: &RecordRequest<'_>, start: &ObserveStart) -> Header {
    let mut header = Header::new(request.version, start.cols, start.rows);
    header.idle_time_limit = request.idle_limit;
    // The start of the captured window: in the past with `--since`.
    header.timestamp = match start.start_unix_ns {
        Some(ns) => Some(ns / 1_000_000_000),
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .ok()
            .map(|d| d.as_secs()),
    };
    header.term_type = Some("xterm-256color".into());
    header.command.clone_from(&request.command);
    header
}

/// Writes one frame of the stream; `Some` when it ends the recording.
fn apply(sink: &mut LiveSink, frame: Frame) -> Result<Option<StopReason>, RecordError> {
    match frame {
        Frame::Output(chunk) => sink.output(chunk.t_ns, &chunk.bytes)?,
        Frame::Json(_) => match frame.decode::<ServerMessage>() {
            Ok(ServerMessage::Resized(r)) => sink.resize(r.t_ns, r.cols, r.rows)?,
            Ok(ServerMessage::Event(event)) => {
                if let WatchEventKind::PaneClosed { exit_status } = event.event {
                    if let Some(status) = exit_status {
                        sink.exit(event.t_ns, status)?;
                    }
                    return Ok(Some(StopReason::PaneExited(exit_status)));
                }
            }
            Ok(ServerMessage::ObserverLagged(_)) => return Ok(Some(StopReason::Lagged)),
            _ => {}
        },
        Frame::Unknown { .. } => {}
    }
    Ok(None)
}
