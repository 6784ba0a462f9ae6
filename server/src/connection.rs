//! One client connection on its own thread: the version handshake, then requests answered in
//! order; a `subscribe` or `observe` turns the connection into a one-way stream until either
//! side goes away. A malformed or oversize frame ends this connection only, and so does a
//! hello that does not arrive within `HELLO_DEADLINE` or a frame that does not arrive whole in
//! time (see `frame_intake` for the deadlines and sizes, `admission` for how many connections
//! of each origin are kept).

use crate::admission::Origin;
use crate::bus::BusEvent;
use crate::frame_intake::{FrameIntake, HELLO_DEADLINE};
use crate::handlers;
use crate::request_error::RequestError;
use crate::shared::{wall_clock_ns, Shared};
use crate::streams::{self, Stream};
use crossbeam_channel::RecvTimeoutError;
use phux_core::wire::{
    self, negotiate, ClientMessage, Event, Frame, FrameWriter, ObserverLagged, OutputChunk,
    Resized, Response, ScreenChanged, ServerMessage, WireError,
};
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub(crate) type Writer<'a> = FrameWriter<&'a UnixStream>;

/// The most bytes of queued stream events gathered into one write.
const MAX_STREAM_WRITE: usize = 1 << 20;

/// Numbers connections, for what one holds while it lasts (a pane's `run` slot).
static CONNECTIONS: AtomicU64 = AtomicU64::new(1);

/// Serves one of the owner's local connections.
pub fn serve(stream: UnixStream, shared: Arc<Shared>) {
    serve_from(stream, shared, Grant::Full, Origin::Local);
}

/// What a connection may do whatever its hello says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    /// A local client: what its hello asks (`read_only` when `PHUX_READ_ONLY=1`).
    Full,
    /// A remote credential that may watch but not type or change anything: read-only, and
    /// no tunnel to a satellite (whose server would not know it is read-only).
    ReadOnly,
}

/// Serves one of the remote listener's connections with its credential's `grant`, from the
/// places kept for remote connections of that grant.
pub fn serve_remote(stream: UnixStream, shared: Arc<Shared>, grant: Grant) {
    let origin = match grant {
        Grant::Full => Origin::Remote,
        Grant::ReadOnly => Origin::RemoteReadOnly,
    };
    serve_from(stream, shared, grant, origin);
}

fn serve_from(stream: UnixStream, shared: Arc<Shared>, grant: Grant, origin: Origin) {
    let Some(ticket) = shared.admission.admit(&stream, origin) else {
        crate::log::line(&format!(
            "refused a {} connection: every place is taken by an active client",
            origin.name()
        ));
        refuse_at_limit(&stream, origin);
        return;
    };
    shared.clients.fetch_add(1, Ordering::Relaxed);
    let connection = CONNECTIONS.fetch_add(1, Ordering::Relaxed);
    if let Err(e) = converse(&stream, &shared, &ticket, connection, (grant, origin)) {
        if !matches!(e, WireError::Closed) {
            crate::log::line(&format!("client dropped: {e}"));
        }
    }
    shared.run_slots.release_all(connection);
    crate::handlers::lease::expire(&shared, Some(connection));
    shared.clients.fetch_sub(1, Ordering::Relaxed);
}

/// What a connection holding a place kept for control requests may ask: to see the state and
/// to end things, never a stream or a wait.
fn is_control(message: &ClientMessage) -> bool {
    matches!(
        message,
        ClientMessage::GetState(_)
            | ClientMessage::Status(_)
            | ClientMessage::GetFleet(_)
            | ClientMessage::KillServer(_)
            | ClientMessage::Kill(_)
            | ClientMessage::KillWindow(_)
            | ClientMessage::KillSession(_)
            | ClientMessage::DetachClients(_)
    )
}

/// How long a refused newcomer has to send its hello before it is closed without an answer.
const REFUSAL_HELLO_DEADLINE: Duration = Duration::from_secs(1);

/// Answers a newcomer's hello with the reason it is not served, so its client says the server
/// is at its connection limit rather than that it went away.
fn refuse_at_limit(stream: &UnixStream, origin: Origin) {
    let mut intake = FrameIntake::new(stream, origin);
    if let Ok(ClientMessage::Hello(_)) = intake.hello(REFUSAL_HELLO_DEADLINE) {
        let (most, reserved) = origin.most();
        let reason = format!(
            "the server is at its connection limit for {} connections ({most}, each serving a \
             request or a stream, and {reserved} more for status and kill); retry when one \
             ends",
            origin.name()
        );
        let mut writer: Writer = FrameWriter::new(stream);
        let _ = send(
            &mut writer,
            &ServerMessage::Refused(phux_core::wire::Refused { reason }),
        );
    }
}

fn converse(
    stream: &UnixStream,
    shared: &Arc<Shared>,
    ticket: &crate::admission::Ticket<'_>,
    connection: u64,
    (grant, origin): (Grant, Origin),
) -> Result<(), WireError> {
    let mut intake = FrameIntake::new(stream, origin);
    let mut writer: Writer = FrameWriter::new(stream);
    let first = intake.hello(HELLO_DEADLINE)?;
    let ClientMessage::Hello(hello) = first else {
        return Err(WireError::Unexpected("the first message must be hello"));
    };
    ticket.idle();
    let granted_read_only = grant == Grant::ReadOnly;
    let read_only = hello.read_only || granted_read_only;
    let mut answer = negotiate(&hello, env!("CARGO_PKG_VERSION"), std::process::id());
    if let ServerMessage::Welcome(welcome) = &mut answer {
        welcome.instance = shared.tree().instance();
        welcome.read_only = read_only;
    }
    let refused = matches!(answer, ServerMessage::Refused(_));
    send(&mut writer, &answer)?;
    if refused {
        return Ok(());
    }
    loop {
        // Between requests a client may wait as long as it likes (though a long wait gives up
        // its place to a newcomer when every place is taken); a body may not.
        ticket.idle();
        let message = match intake.request() {
            Ok(message) => message,
            Err(WireError::Closed) => return Ok(()),
            Err(e) => {
                let body = phux_core::wire::WireErrorBody::new(
                    phux_core::error_code::ErrorCode::Transport,
                    e.to_string(),
                    "send each request whole within 3 s of its first byte, at most 64 KiB \
                     (input, paste and a few others up to 16 MiB)",
                );
                let _ = send(
                    &mut writer,
                    &ServerMessage::Response(Response::error(0, body)),
                );
                return Err(e);
            }
        };
        ticket.busy();
        let id = message.id().unwrap_or(0);
        if ticket.in_reserve() && !is_control(&message) {
            let body = phux_core::wire::WireErrorBody::new(
                phux_core::error_code::ErrorCode::Transport,
                "the server is at its connection limit: this connection may only ask for \
                 status, the state or a kill",
                "retry when a connection ends (`phux status` shows the server)",
            );
            return send(
                &mut writer,
                &ServerMessage::Response(Response::error(id, body)),
            );
        }
        if origin != Origin::Local && message.is_owner_only() {
            let body = if matches!(message, ClientMessage::TapInput(_)) {
                phux_core::wire::WireErrorBody::new(
                    phux_core::error_code::ErrorCode::PermissionDenied,
                    "only the owner's local connections may record what is typed into a pane",
                    "run `phux tape record` on the server's own machine",
                )
            } else {
                phux_core::wire::WireErrorBody::new(
                    phux_core::error_code::ErrorCode::PermissionDenied,
                    "only the owner's local connections see and end remote connections; \
                     nothing was changed",
                    "run it on the server's own machine (`phux pair connections`)",
                )
            };
            writer.write_frame(&answer_frame(id, Response::error(id, body))?)?;
            continue;
        }
        let tunnels = matches!(message, ClientMessage::Tunnel(_));
        if read_only && (message.is_write() || (granted_read_only && tunnels)) {
            let body = if granted_read_only {
                phux_core::wire::WireErrorBody::new(
                    phux_core::error_code::ErrorCode::PermissionDenied,
                    "this credential may watch but not type or change anything; nothing was \
                     changed",
                    "pair a credential without --read-only (`phux pair`) to type",
                )
            } else {
                phux_core::wire::WireErrorBody::new(
                    phux_core::error_code::ErrorCode::PermissionDenied,
                    "this connection may read but not write (PHUX_READ_ONLY=1); nothing was \
                     changed",
                    "run the write without PHUX_READ_ONLY=1, as someone allowed to write",
                )
            };
            writer.write_frame(&answer_frame(id, Response::error(id, body))?)?;
            continue;
        }
        match message {
            ClientMessage::Subscribe(request) => {
                let started = streams::subscribe(shared, &request);
                // Where a watcher that sees nothing resumes (`after_ns`).
                let now_ns = crate::bus::now_ns(shared.epoch);
                let started = started.map(|s| (serde_json::json!({ "now_ns": now_ns }), s));
                return stream_after(&mut writer, stream, shared, id, started);
            }
            ClientMessage::TapInput(request) => {
                let started = streams::tap_input(shared, &request);
                return stream_after(&mut writer, stream, shared, id, started);
            }
            ClientMessage::Observe(request) => {
                let _recording = (!request.viewer)
                    .then(|| crate::clients::RecordingMark::new(shared, request.pane));
                let started = streams::observe(shared, &request);
                return stream_after(&mut writer, stream, shared, id, started);
            }
            ClientMessage::AttachClient(request) => {
                return crate::attached::serve(
                    &mut writer,
                    stream,
                    shared,
                    id,
                    (&request, read_only),
                );
            }
            ClientMessage::Tunnel(request) => {
                return crate::hub::tunnel::serve(&mut writer, stream, shared, id, &request);
            }
            ClientMessage::NewSession(request) if request.observe => {
                let started = streams::observe_new_session(shared, request);
                return stream_after(&mut writer, stream, shared, id, started);
            }
            other => {
                // Sessions are this server's own: a miss of one is a confident answer, whatever
                // satellites are unreachable.
                let hub_local = matches!(other, ClientMessage::RenameSession(_));
                let response = match handlers::dispatch_on(shared, other, connection) {
                    Ok(value) => Response {
                        id,
                        outcome: wire::Outcome::Ok(value),
                    },
                    Err(error) if hub_local => Response::error(id, error.body()),
                    Err(error) => Response::error(id, shared.hub.fleet_aware(error.body())),
                };
                writer.write_frame(&answer_frame(id, response)?)?;
            }
        }
    }
}

/// The response as one frame, or, when it is too large for one, an error that says so and how
/// to ask for less (rather than a dropped connection the client can only call "gone").
fn answer_frame(id: u64, response: Response) -> Result<Frame, WireError> {
    let frame = Frame::json(&ServerMessage::Response(response))?;
    let len = match &frame {
        Frame::Json(json) => json.len() as u64,
        _ => 0,
    };
    if len < u64::from(wire::MAX_FRAME_LEN) {
        return Ok(frame);
    }
    let body = wire::WireErrorBody::new(
        phux_core::error_code::ErrorCode::ReplyTooLarge,
        format!(
            "the answer is {} MiB, more than the {} MiB one reply may carry",
            len.div_ceil(1024 * 1024),
            wire::MAX_FRAME_LEN / (1024 * 1024)
        ),
        "ask for less: for snapshot, fewer rows of history (--scrollback N or --tail N) \
         or no --cells",
    );
    Frame::json(&ServerMessage::Response(Response::error(id, body)))
}

fn send(writer: &mut Writer, message: &ServerMessage) -> Result<(), WireError> {
    writer.send(message)
}

/// Answers the streaming request, then forwards its events until the stream or the client ends.
/// A stream refused for a pane this server does not know, while a satellite is unreachable,
/// is `partial_view` (the pane may be the satellite's), as every other request's refusal is.
fn stream_after<T: serde::Serialize>(
    writer: &mut Writer,
    socket: &UnixStream,
    shared: &Shared,
    id: u64,
    started: Result<(T, Stream), RequestError>,
) -> Result<(), WireError> {
    let (payload, stream) = match started {
        Ok(started) => started,
        Err(error) => {
            let body = shared.hub.fleet_aware(error.body());
            return send(writer, &ServerMessage::Response(Response::error(id, body)));
        }
    };
    send(
        writer,
        &ServerMessage::Response(Response::ok(id, &payload)?),
    )?;
    if let Some((pane, seq, t_ns, bytes)) = stream.first_output {
        write_output(
            writer,
            OutputChunk {
                pane: pane.0,
                seq,
                t_ns,
                bytes,
            },
        )?;
    }
    for event in stream.history {
        forward(writer, event)?;
    }
    for past in stream.past {
        send(
            writer,
            &ServerMessage::Event(Event {
                pane: Some(past.pane),
                event: past.kind,
                t_ns: past.t_ns,
                ts_ns: past.ts_ns,
            }),
        )?;
    }
    if let Some(keyframes) = &stream.keyframes {
        return crate::viewer_stream::serve(writer, socket, &stream.rx, keyframes);
    }
    let wanted = |event: &BusEvent| match (stream.only, event) {
        (Some(only), BusEvent::Watch { pane, .. }) => *pane == only,
        _ => true,
    };
    let mut out = Vec::new();
    let mut gather = crate::stream_gather::StreamGather::default();
    loop {
        match stream.rx.recv_timeout(Duration::from_millis(500)) {
            Ok(event) => {
                // Under a flood output keeps coming: let it gather a moment (see
                // `stream_gather`). Interactive output goes at once.
                if let Some(wait) = gather.wait() {
                    std::thread::sleep(wait);
                }
                // What is already queued behind it goes in the same write: one system call,
                // and one wake-up of the reader, for a burst of output.
                out.clear();
                let mut next = Some(event);
                while let Some(event) = next.take() {
                    if wanted(&event) {
                        encode_event(&mut out, event)?;
                    }
                    if out.len() < MAX_STREAM_WRITE {
                        next = stream.rx.try_recv().ok();
                    }
                }
                if !out.is_empty() {
                    writer.write_encoded(&out)?;
                }
                gather.wrote(out.len(), std::time::Instant::now());
            }
            Err(RecvTimeoutError::Timeout) => {
                if client_gone(socket) {
                    return Ok(());
                }
            }
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        }
    }
}

fn write_output(writer: &mut Writer, chunk: OutputChunk) -> Result<(), WireError> {
    writer.write_frame(&Frame::Output(chunk))
}

/// Appends `event`'s frame to `out`.
fn encode_event(out: &mut Vec<u8>, event: BusEvent) -> Result<(), WireError> {
    let message = match event {
        BusEvent::Output {
            pane,
            seq,
            t_ns,
            bytes,
        } => return OutputChunk::encode_parts(out, pane.0, seq, t_ns, &bytes),
        BusEvent::Watch { pane, kind, t_ns } => ServerMessage::Event(Event {
            pane: Some(pane),
            event: kind,
            t_ns,
            ts_ns: wall_clock_ns(),
        }),
        BusEvent::Resized {
            pane,
            cols,
            rows,
            t_ns,
        } => ServerMessage::Resized(Resized {
            pane,
            cols,
            rows,
            t_ns,
        }),
        BusEvent::Changed { pane } => ServerMessage::ScreenChanged(ScreenChanged { pane }),
        BusEvent::Lagged { pane, dropped } => ServerMessage::ObserverLagged(ObserverLagged {
            pane,
            dropped_bytes: dropped,
        }),
        BusEvent::Input {
            pane,
            t_ns,
            bytes,
            paste,
        } => ServerMessage::InputTapped(wire::InputTapped {
            pane,
            t_ns,
            bytes: bytes.to_vec(),
            paste: paste.map(|text| text.to_string()),
        }),
    };
    Frame::json(&message)?.encode_into(out)
}

pub(crate) fn forward(writer: &mut Writer, event: BusEvent) -> Result<(), WireError> {
    let mut out = Vec::new();
    encode_event(&mut out, event)?;
    writer.write_encoded(&out)
}

/// A quiet stream checks now and then whether its client hung up.
pub(crate) fn client_gone(socket: &UnixStream) -> bool {
    use rustix::net::RecvFlags;
    let mut probe = [0u8; 1];
    match rustix::net::recv(socket, &mut probe, RecvFlags::PEEK | RecvFlags::DONTWAIT) {
        Ok((0, _)) => true,
        Ok(_) => false,
        Err(e) => e != rustix::io::Errno::AGAIN && e != rustix::io::Errno::INTR,
    }
}
