//! Streaming requests: `subscribe` (watch events of a pane or of every pane, or coalesced
//! screen-changed notices) and `observe` (a recorder's stream: the screen's repaint, then
//! every output chunk with the time the server read it, and resizes). Also `report_asked`,
//! which raises an event on a pane's bus.

use crate::bus::{observer_channel, watch_channel, BusEvent, Interest, Subscriber};
use crate::handlers::{lifecycle, pane_ops};
use crate::pane::PaneCommand;
use crate::request_error::RequestError;
use crate::shared::Shared;
use crossbeam_channel::{bounded, Receiver};
use phux_core::documents::{WatchEventKind, WatchEventName};
use phux_core::error_code::ErrorCode;
use phux_core::error_doc::ContractError;
use phux_core::wire::{self, Done, ObserveStart};
use std::sync::Arc;

/// The pseudo event name that asks for screen-changed notices instead of watch events.
pub const SCREEN_CHANGED: &str = "screen_changed";

/// A stream the connection now serves, and what to send first.
pub struct Stream {
    pub rx: Receiver<BusEvent>,
    pub first_output: Option<(phux_core::ids::PaneId, u64, u64, Vec<u8>)>,
    /// Sent after `first_output`, before live events.
    pub history: Vec<BusEvent>,
    /// Watch events from before the stream began (`since_ms`), sent first, each stamped with
    /// the wall-clock time it happened.
    pub past: Vec<crate::event_ring::PastEvent>,
    /// Forward only this pane's events (a pane's `since_ms` subscription rides the
    /// server-wide stream, so the replay and the live events meet without a gap).
    pub only: Option<phux_core::ids::PaneId>,
    /// A viewer's stream (the TUI's): during a flood its output is coalesced into keyframes
    /// taken from this pane (see `viewer_stream`).
    pub keyframes: Option<crate::viewer_stream::Keyframes>,
    /// An input tap's token: the tap lasts as long as the stream holds it.
    pub _tap: Option<Arc<()>>,
}

pub fn subscribe(shared: &Shared, request: &wire::Subscribe) -> Result<Stream, RequestError> {
    let interest = interest_of(&request.events)?;
    let (tx, rx) = if matches!(interest, Interest::Changes) {
        bounded(1)
    } else {
        watch_channel()
    };
    let subscriber = Subscriber { interest, tx };
    let now = crate::bus::now_ns(shared.epoch);
    let from_ns = match (request.after_ns, request.since_ms) {
        (Some(after), _) => Some(after.saturating_add(1)),
        (None, Some(since_ms)) => Some(now.saturating_sub(since_ms.saturating_mul(1_000_000))),
        (None, None) => None,
    };
    if let Some(from_ns) = from_ns {
        if let Some(pane) = request.pane {
            // A pane that ended a moment ago is still worth replaying: its end is in the ring.
            let live = shared.tree().panes.contains_key(&pane);
            if !live && shared.exited().get(pane).is_none() {
                return Err(RequestError::NoSuchTarget(pane.to_string()));
            }
        }
        let past = shared.subscribe_global_since(subscriber, from_ns, request.pane);
        return Ok(Stream {
            rx,
            first_output: None,
            history: Vec::new(),
            past,
            only: request.pane,
            keyframes: None,
            _tap: None,
        });
    }
    match request.pane {
        // Following a pane is a read: it must not make the pane the most recently active one.
        Some(pane) => {
            pane_ops::handle_for_read(shared, pane)?.send(PaneCommand::Subscribe(subscriber))?
        }
        None => shared.global_bus().add(subscriber),
    }
    Ok(Stream {
        rx,
        first_output: None,
        history: Vec::new(),
        past: Vec::new(),
        only: None,
        keyframes: None,
        _tap: None,
    })
}

fn interest_of(events: &[String]) -> Result<Interest, RequestError> {
    if events.iter().any(|e| e == SCREEN_CHANGED) {
        return Ok(Interest::Changes);
    }
    let names = events
        .iter()
        .map(|e| WatchEventName::parse(e))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| {
            RequestError::refused(ErrorCode::UnknownEventName, e.to_string(), e.remedy())
        })?;
    Ok(Interest::Watch(names))
}

pub fn observe(
    shared: &Shared,
    request: &wire::Observe,
) -> Result<(ObserveStart, Stream), RequestError> {
    let (subscriber, rx) = observer();
    // A front end showing a pane is not a person using it: only a recorder's observe makes
    // the pane the most recently active one.
    let pane = if request.viewer {
        pane_ops::handle_for_read(shared, request.pane)?
    } else {
        pane_ops::handle(shared, request.pane)?
    };
    let since_ms = request.since_ms;
    let history_rows = request.history_rows.map_or(0, |rows| {
        usize::try_from(rows).map_or(phux_core::engine::MAX_HISTORY_ROWS, |rows| {
            rows.min(phux_core::engine::MAX_HISTORY_ROWS)
        })
    });
    let start = pane.ask(|reply| PaneCommand::Observe {
        subscriber,
        since_ms,
        history_rows,
        reply,
    })?;
    let (first, mut stream) = started(request.pane, start, rx);
    if request.viewer {
        stream.keyframes = Some(crate::viewer_stream::Keyframes {
            pane: request.pane,
            commands: pane.commands(),
            history_rows: request.history_rows.map(|_| history_rows),
        });
    }
    Ok((first, stream))
}

/// A recorder's subscription and the queue it fills.
fn observer() -> (Subscriber, Receiver<BusEvent>) {
    let (tx, rx) = observer_channel();
    let subscriber = Subscriber {
        interest: Interest::Observe,
        tx,
    };
    (subscriber, rx)
}

/// The answer to an observe request and the stream that follows it.
fn started(
    pane: phux_core::ids::PaneId,
    start: crate::pane::ObserveStart,
    rx: Receiver<BusEvent>,
) -> (ObserveStart, Stream) {
    let first = ObserveStart {
        pane,
        cols: start.cols,
        rows: start.rows,
        repaint_seq: start.seq,
        live_seq: Some(start.live_seq),
        start_unix_ns: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .ok()
            .and_then(|now| u64::try_from(now.as_nanos()).ok())
            .map(|now| now.saturating_sub(start.age_ns)),
    };
    let stream = Stream {
        rx,
        first_output: Some((pane, start.seq, start.t_ns, start.repaint)),
        history: start.history,
        past: Vec::new(),
        only: None,
        keyframes: None,
        _tap: None,
    };
    (first, stream)
}

/// `new_session` with `observe`: the new pane's stream, attached before its program starts.
pub fn observe_new_session(
    shared: &Arc<Shared>,
    request: wire::NewSession,
) -> Result<(ObserveStart, Stream), RequestError> {
    let (subscriber, rx) = observer();
    let (ok, start) = lifecycle::new_session_observed(shared, request, Some(subscriber))?;
    let start = start.ok_or_else(|| RequestError::Spawn("the pane started unobserved".into()))?;
    Ok(started(ok.pane, start, rx))
}

/// `tap_input`: what clients type into the pane from now on, and the pane's end. The end
/// comes through the pane's own bus (a watch of `pane_closed` alone) into the same queue.
pub fn tap_input(
    shared: &Shared,
    request: &wire::TapInput,
) -> Result<(wire::TapInputStart, Stream), RequestError> {
    // Recording what a person types is a read: the pane stays as active as it was.
    let pane = pane_ops::handle_for_read(shared, request.pane)?;
    let (tx, rx) = watch_channel();
    let closed = Subscriber {
        interest: Interest::Watch(vec![WatchEventName::PaneClosed]),
        tx: tx.clone(),
    };
    pane.send(PaneCommand::Subscribe(closed))?;
    let tap = shared.input_taps.add(request.pane, tx);
    let (cols, rows) = pane.size();
    let start = wire::TapInputStart {
        pane: request.pane,
        cols,
        rows,
        now_ns: crate::bus::now_ns(shared.epoch),
    };
    let stream = Stream {
        rx,
        first_output: None,
        history: Vec::new(),
        past: Vec::new(),
        only: None,
        keyframes: None,
        _tap: Some(tap),
    };
    Ok((start, stream))
}

pub fn report_asked(shared: &Shared, request: wire::ReportAsked) -> Result<Done, RequestError> {
    let handle = pane_ops::handle(shared, request.pane)?;
    // In the store before anyone hears of it: a `status` right after `phux ask` lists it.
    let ask = phux_core::wire::ActiveAsk {
        id: request.ask_id.clone(),
        question: request.question.clone(),
        suggestions: request.suggestions.clone(),
        from_title: false,
        from_screen: false,
        selected: None,
    };
    let ((), events) = shared.agents.update(request.pane, |entry| {
        if entry.ask.as_ref().is_none_or(|a| !a.from_title) {
            entry.ask = Some(ask);
        }
    });
    crate::agents::handlers::announce(shared, request.pane, events);
    let kind = WatchEventKind::Asked {
        id: request.ask_id,
        question: request.question,
        suggestions: request.suggestions,
        elapsed_seconds: request.elapsed_seconds,
        source: Some("report".to_owned()),
    };
    handle.send(PaneCommand::Announce(kind))?;
    Ok(Done {})
}
