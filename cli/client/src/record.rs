//! Recording a pane: its observe stream (read by `observe::ObserveReader`: the screen's repaint,
//! then every output chunk with the time the server read it, resizes, the pane's exit) written
//! to a `.cast` line by line.
//! Ends on a stop flag (Ctrl-C), a duration, the pane exiting, or (for the past alone) once
//! the replayed history is written.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, Receiver, RecvTimeoutError};
use phux_core::ids::PaneId;
use phux_core::wire::{ClientMessage, Observe, ObserveStart};
use phux_recorder::{CastVersion, Header, LiveSink, RecorderError, RecordingSummary};

use crate::observe::{ObserveReader, Observed, StreamEnd};
use crate::{Client, ClientError};

/// The most stream frames the reading thread hands over at once (output frames carry up to a
/// PTY read each).
const MAX_BATCH: usize = 256;
/// Cast lines wait at most this long before they are written, so a recorder killed with
/// SIGKILL loses at most the last few tens of milliseconds of output; every line written is
/// whole, so the cast always parses.
const FLUSH_INTERVAL: Duration = Duration::from_millis(20);
/// ... or until this many bytes of lines are waiting.
const FLUSH_BYTES: usize = 256 * 1024;
/// How often the stop flag and the duration are checked while nothing arrives.
const POLL: Duration = Duration::from_millis(50);

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
    /// The cast is staged for rendering: created readable by its owner only (0600).
    pub private: bool,
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
        history_rows: None,
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
    let header = header(request, &start);
    let mut sink = if request.private {
        LiveSink::create_private(request.output, &header, request.overwrite)?
    } else {
        LiveSink::create(request.output, &header, request.overwrite)?
    };
    client.set_read_timeout(None)?;
    // Before the reading thread starts, which inherits it.
    yield_to_the_recorded_terminal();
    // The server that streams, to follow it through an upgrade (see `Resumption`).
    let mut resumption = client.is_local().then(|| Resumption {
        socket: client.socket().to_path_buf(),
        pid: client.welcome().map(|w| w.pid).ok(),
        pane: request.pane,
        seen: None,
    });
    let mut batches = read_in_batches(client.into_stream());
    let began = Instant::now();
    // The chunk with this sequence number is the last of the past; `None`: record live.
    let caught_up_at = start.live_seq.filter(|_| request.until_caught_up);
    // Lines are gathered and written together (whole lines only) once FLUSH_INTERVAL has
    // passed since the oldest of them, or FLUSH_BYTES have gathered.
    let mut unwritten_since: Option<Instant> = None;
    sink.begin_batch();
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
        let wait = unwritten_since.map_or(POLL, |t| FLUSH_INTERVAL.saturating_sub(t.elapsed()));
        match batches.recv_timeout(wait.min(POLL)) {
            Ok(batch) => {
                // The past ends the recording at the chunk it was caught up at (`--since`
                // without `--follow`).
                let mut ended = None;
                for item in batch {
                    let seq = match &item {
                        Observed::Output { seq, .. } => Some(*seq),
                        _ => None,
                    };
                    if let Some(resumption) = &mut resumption {
                        if !resumption.take(&item) {
                            continue;
                        }
                    }
                    ended = apply(&mut sink, item)?;
                    if ended == Some(StopReason::StreamEnded) {
                        if let Some(again) = resumption.as_ref().and_then(Resumption::resume) {
                            batches = again;
                            ended = None;
                            break;
                        }
                    }
                    if ended.is_none()
                        && seq.is_some_and(|seq| caught_up_at.is_some_and(|last| seq >= last))
                    {
                        ended = Some(StopReason::CaughtUp);
                    }
                    if ended.is_some() {
                        break;
                    }
                }
                if let Some(reason) = ended {
                    break reason;
                }
                if sink.pending_bytes() > 0 {
                    unwritten_since.get_or_insert_with(Instant::now);
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                match resumption.as_ref().and_then(Resumption::resume) {
                    Some(again) => batches = again,
                    None => break StopReason::StreamEnded,
                }
            }
        }
        let due = unwritten_since.is_some_and(|t| t.elapsed() >= FLUSH_INTERVAL);
        if due || sink.pending_bytes() >= FLUSH_BYTES {
            sink.end_batch()?;
            sink.begin_batch();
            unwritten_since = None;
            on_progress(sink.events(), sink.bytes());
        }
    };
    sink.end_batch()?;
    Ok((sink.finish()?, reason))
}

/// Reads an observe stream on a thread of its own, handing over what is already read from the
/// socket as one batch: one wake-up of the writing side per burst, not one per frame.
fn read_in_batches(stream: std::os::unix::net::UnixStream) -> Receiver<Vec<Observed>> {
    let (tx, batches) = bounded::<Vec<Observed>>(64);
    let mut stream = ObserveReader::new(stream, 256 * 1024);
    std::thread::spawn(move || {
        while let Some(first) = stream.next_item() {
            let mut ended = matches!(first, Observed::Ended(_));
            let mut batch = vec![first];
            while !ended && batch.len() < MAX_BATCH && stream.has_buffered() {
                let Some(item) = stream.next_item() else {
                    break;
                };
                ended = matches!(item, Observed::Ended(_));
                batch.push(item);
            }
            if tx.send(batch).is_err() || ended {
                break;
            }
        }
    });
    batches
}

/// How far back a resumed stream reaches, beyond the time since the last chunk was seen: the
/// hand-off of an upgrade takes a fraction of a second.
const RESUME_MARGIN_MS: u64 = 5_000;
/// How long a recorder waits for its server to answer again.
const RESUME_WAIT: Duration = Duration::from_secs(10);

/// Following the recorded pane through `phux upgrade`: the same server process (same PID)
/// answers again, its flight recorder carried, so the recorder observes the pane again from a
/// moment before the last chunk it wrote and skips what it already has (sequence numbers go
/// on across the upgrade). A different server (one that took the panes over after a crash)
/// has no past to replay: the recording ends there, as before.
struct Resumption {
    socket: std::path::PathBuf,
    pid: Option<u32>,
    pane: PaneId,
    /// The last chunk written (its sequence number and time) and when it came.
    seen: Option<(u64, u64, Instant)>,
}

impl Resumption {
    /// Notes `item`; false when a resumed stream repeats what was already written.
    fn take(&mut self, item: &Observed) -> bool {
        match item {
            Observed::Output { seq, t_ns, .. } => match self.seen {
                Some((last, _, _)) if *seq <= last => false,
                _ => {
                    self.seen = Some((*seq, *t_ns, Instant::now()));
                    true
                }
            },
            Observed::Resized { t_ns, .. } => self.seen.is_none_or(|(_, last, _)| *t_ns > last),
            Observed::Ended(_) => true,
        }
    }

    /// The pane's stream again, from the same server, reaching back past the last chunk.
    fn resume(&self) -> Option<Receiver<Vec<Observed>>> {
        let pid = self.pid?;
        let reach = self
            .seen
            .map_or(0, |(_, _, at)| at.elapsed().as_millis() as u64);
        let deadline = Instant::now() + RESUME_WAIT;
        while Instant::now() < deadline {
            match Client::connect_running(&self.socket) {
                Ok(mut client) => {
                    if client.welcome().ok()?.pid != pid {
                        return None;
                    }
                    let _: ObserveStart = client
                        .request(ClientMessage::Observe(Observe {
                            id: 0,
                            pane: self.pane,
                            since_ms: Some(reach + RESUME_MARGIN_MS),
                            viewer: false,
                            history_rows: None,
                        }))
                        .ok()?;
                    client.set_read_timeout(None).ok()?;
                    return Some(read_in_batches(client.into_stream()));
                }
                Err(ClientError::NoServer { .. }) => return None,
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
        None
    }
}

/// How much lower than the terminal's own work a recording runs. The server stamps each chunk
/// with the time it read it, so reading and writing the stream a moment later changes nothing
/// in the cast; at a lower priority the recorder's wake-ups stop taking the core from the
/// recorded program and the server, and a recorded flood keeps the speed of an unrecorded one
/// (`server_bench`'s recording row: 0.85-0.91x at the same priority, 0.90-0.96x at +5 or +10).
/// +5 still gives the recorder a third of a busy core's share, well above what keeping up with
/// a flood takes, so the server never drops it for falling behind.
const RECORDING_NICENESS: i32 = 5;

/// Lowers the calling thread's priority by [`RECORDING_NICENESS`] (on Linux a nice value is a
/// thread's, inherited by the threads it starts). The thread stays there: raising a priority
/// again takes a privilege, and what follows a recording (encoding its GIF) is as well done
/// at the lower one. Nothing happens where it is refused.
fn yield_to_the_recorded_terminal() {
    let _ = rustix::process::nice(RECORDING_NICENESS);
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

/// Writes one item of the stream; `Some` when it ends the recording.
fn apply(sink: &mut LiveSink, item: Observed) -> Result<Option<StopReason>, RecordError> {
    match item {
        Observed::Output { t_ns, bytes, .. } => sink.output(t_ns, &bytes)?,
        Observed::Resized { t_ns, cols, rows } => sink.resize(t_ns, cols, rows)?,
        Observed::Ended(StreamEnd::PaneClosed { t_ns, exit_status }) => {
            if let Some(status) = exit_status {
                sink.exit(t_ns, status)?;
            }
            return Ok(Some(StopReason::PaneExited(exit_status)));
        }
        Observed::Ended(StreamEnd::Lagged { .. }) => return Ok(Some(StopReason::Lagged)),
        Observed::Ended(StreamEnd::Disconnected) => return Ok(Some(StopReason::StreamEnded)),
    }
    Ok(None)
}
