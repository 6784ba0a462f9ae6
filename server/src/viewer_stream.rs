//! A viewer's stream (the TUI showing a pane): every output chunk as it comes while the pane
//! is calm, and during a flood a keyframe per frame interval instead of the output. A person
//! sees a flood at the rate a screen can show it; the client does not parse megabytes it will
//! never show, and its keystrokes' echoes do not wait behind them.

use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, Receiver, RecvTimeoutError, Sender};
use phux_core::ids::PaneId;
use phux_core::wire::{OutputChunk, Resized, ServerMessage, WireError};

use crate::bus::BusEvent;
use crate::pane::PaneCommand;

/// The interval the budget is counted over, and the longest a skipped flood waits for the
/// keyframe that replaces it.
const VIEW_FRAME: Duration = Duration::from_millis(16);

/// The interval while a flood lasts: a flood is shown at 30 frames a second, which halves what
/// the client spends on it (and takes from the core its keystrokes need) against 60.
const FLOOD_FRAME: Duration = Duration::from_millis(33);

/// Output a viewer gets as it is in one `VIEW_FRAME` (a few screens); beyond it, the rest of
/// the interval's output is replaced by one keyframe.
const VIEW_BUDGET: usize = 16 * 1024;

/// The budget while a flood lasts (the last interval ended in a keyframe): a line or two still
/// passes at once, but the flood's next interval is not passed on as is only to be replaced
/// by its keyframe, so the viewer parses one repaint per frame, not a repaint and a few
/// screens. An interval that ends within it ends the flood.
const FLOOD_BUDGET: usize = 1024;

/// How long a quiet stream waits before it checks whether its client hung up.
const QUIET_WAIT: Duration = Duration::from_millis(500);

/// How long a flood must have stopped before the keyframe with history it owes is sent.
const OWED_WAIT: Duration = Duration::from_millis(100);

/// RIS: the keyframe's repaint starts from a reset terminal, as a new stream's does.
const RESET: &[u8] = b"\x1bc";

/// Where a viewer's keyframes come from: the pane's core.
pub struct Keyframes {
    pub pane: PaneId,
    pub commands: Sender<PaneCommand>,
    /// A viewer that keeps its own history (the browser page): its keyframes carry this many
    /// rows of history, and every resize of the pane is followed by one in place of the
    /// output after it, so the viewer's rows are the server's whatever its reflow does.
    pub history_rows: Option<usize>,
}

/// What the last keyframe covered: output up to `seq`, resizes up to `t_ns`.
#[derive(Default)]
struct Covered {
    seq: u64,
    t_ns: u64,
}

/// Forwards `rx` to the viewer until the pane or the client ends.
pub fn serve(
    writer: &mut super::connection::Writer,
    socket: &UnixStream,
    rx: &Receiver<BusEvent>,
    keyframes: &Keyframes,
) -> Result<(), WireError> {
    let mut window = Instant::now();
    let mut sent = 0usize;
    let mut flooding = false;
    let mut covered = Covered::default();
    // A flood's keyframes carry no history (a repaint of thousands of rows 30 times a
    // second); a viewer that keeps history is owed one that does once the flood is over.
    let mut owed_history = false;
    let history = keyframes.history_rows.unwrap_or(0);
    loop {
        let wait = if owed_history { OWED_WAIT } else { QUIET_WAIT };
        let event = match rx.recv_timeout(wait) {
            Ok(event) => event,
            Err(RecvTimeoutError::Timeout) if owed_history => {
                owed_history = false;
                match send_keyframe(writer, keyframes, history)? {
                    Some(now) => covered = now,
                    None => return Ok(()),
                }
                continue;
            }
            Err(RecvTimeoutError::Timeout) if super::connection::client_gone(socket) => {
                return Ok(())
            }
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        };
        let len = match &event {
            BusEvent::Output { seq, .. } if *seq <= covered.seq => continue,
            BusEvent::Resized { t_ns, .. } if *t_ns <= covered.t_ns => continue,
            BusEvent::Resized { .. } if keyframes.history_rows.is_some() => {
                owed_history = false;
                match send_keyframe(writer, keyframes, history)? {
                    Some(now) => covered = now,
                    None => return Ok(()),
                }
                continue;
            }
            BusEvent::Output { bytes, .. } => bytes.len(),
            _ => 0,
        };
        if window.elapsed() >= interval(flooding).0 {
            // The last interval stayed within its budget: whatever flood there was is over.
            (window, sent, flooding) = (Instant::now(), 0, false);
            if owed_history {
                owed_history = false;
                match send_keyframe(writer, keyframes, history)? {
                    Some(now) => covered = now,
                    None => return Ok(()),
                }
                if matches!(&event, BusEvent::Output { seq, .. } if *seq <= covered.seq) {
                    continue;
                }
            }
        }
        let (frame, budget) = interval(flooding);
        if sent + len <= budget {
            sent += len;
            super::connection::forward(writer, event)?;
            continue;
        }
        // A flood: the rest of this interval's output is skipped (not even woken for: it
        // waits in the queue), then replaced by the screen as it is.
        std::thread::sleep((window + frame).saturating_duration_since(Instant::now()));
        while let Ok(event) = rx.try_recv() {
            if !matches!(event, BusEvent::Output { .. } | BusEvent::Resized { .. }) {
                super::connection::forward(writer, event)?;
            }
        }
        match send_keyframe(writer, keyframes, 0)? {
            Some(now) => covered = now,
            // The pane is gone: its stream ends with the bus.
            None => return Ok(()),
        }
        owed_history = keyframes.history_rows.is_some();
        (window, sent, flooding) = (Instant::now(), 0, true);
    }
}

/// The frame interval and the output passed on as is within it, calm or while a flood lasts.
fn interval(flooding: bool) -> (Duration, usize) {
    if flooding {
        (FLOOD_FRAME, FLOOD_BUDGET)
    } else {
        (VIEW_FRAME, VIEW_BUDGET)
    }
}

/// Asks the pane for its screen now and sends it as a resize and a repaint from a reset;
/// None when the pane is gone.
fn send_keyframe(
    writer: &mut super::connection::Writer,
    keyframes: &Keyframes,
    history_rows: usize,
) -> Result<Option<Covered>, WireError> {
    let (reply, answer) = bounded(1);
    if keyframes
        .commands
        .send(PaneCommand::Keyframe(reply, history_rows))
        .is_err()
    {
        return Ok(None);
    }
    let Ok(start) = answer.recv() else {
        return Ok(None);
    };
    let pane = keyframes.pane;
    writer.send(&ServerMessage::Resized(Resized {
        pane,
        cols: start.cols,
        rows: start.rows,
        t_ns: start.t_ns,
    }))?;
    let mut bytes = RESET.to_vec();
    bytes.extend_from_slice(&start.repaint);
    writer.write_frame(&phux_core::wire::Frame::Output(OutputChunk {
        pane: pane.0,
        seq: start.seq,
        t_ns: start.t_ns,
        bytes,
    }))?;
    Ok(Some(Covered {
        seq: start.seq,
        t_ns: start.t_ns,
    }))
}
