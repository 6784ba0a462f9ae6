//! One client connection on its own thread: the version handshake, then requests answered in
//! order; a `subscribe` or `observe` turns the connection into a one-way stream until either
//! side goes away. A malformed or oversize frame ends this connection only.

use crate::bus::BusEvent;
use crate::handlers;
use crate::request_error::RequestError;
use crate::shared::Shared;
use crate::streams::{self, Stream};
use crossbeam_channel::RecvTimeoutError;
use phux_core::wire::{
    self, negotiate, ClientMessage, Event, Frame, FrameReader, FrameWriter, ObserverLagged,
    OutputChunk, Resized, Response, ScreenChanged, ServerMessage, WireError,
};
use std::os::unix::net::UnixStream;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

type Writer = FrameWriter<UnixStream>;

pub fn serve(stream: UnixStream, shared: Arc<Shared>) {
    shared.clients.fetch_add(1, Ordering::Relaxed);
    if let Err(e) = converse(stream, &shared) {
        if !matches!(e, WireError::Closed) {
            crate::log::line(&format!("client dropped: {e}"));
        }
    }
    shared.clients.fetch_sub(1, Ordering::Relaxed);
}

fn converse(stream: UnixStream, shared: &Arc<Shared>) -> Result<(), WireError> {
    let mut reader = FrameReader::new(stream.try_clone()?);
    let mut writer: Writer = FrameWriter::new(stream.try_clone()?);
    let ClientMessage::Hello(hello) = reader.read_message::<ClientMessage>()? else {
        return Err(WireError::Unexpected("the first message must be hello"));
    };
    let answer = negotiate(&hello, env!("CARGO_PKG_VERSION"), std::process::id());
    let refused = matches!(answer, ServerMessage::Refused(_));
    send(&mut writer, &answer)?;
    if refused {
        return Ok(());
    }
    loop {
        let message = match reader.read_message::<ClientMessage>() {
            Ok(message) => message,
            Err(WireError::Closed) => return Ok(()),
            Err(e) => {
                let body = phux_core::wire::WireErrorBody::new(
                    phux_core::error_code::ErrorCode::Transport,
                    e.to_string(),
                    "send frames of at most 16 MiB holding one JSON message",
                );
                let _ = send(
                    &mut writer,
                    &ServerMessage::Response(Response::error(0, body)),
                );
                return Err(e);
            }
        };
        let id = message.id().unwrap_or(0);
        match message {
            ClientMessage::Subscribe(request) => {
                let started = streams::subscribe(shared, &request);
                return stream_after(
                    &mut writer,
                    &stream,
                    id,
                    started.map(|s| (wire::Done {}, s)),
                );
            }
            ClientMessage::Observe(request) => {
                let _recording = (!request.viewer)
                    .then(|| crate::clients::RecordingMark::new(shared, request.pane));
                let started = streams::observe(shared, &request);
                return stream_after(&mut writer, &stream, id, started);
            }
            ClientMessage::AttachClient(request) => {
                return crate::attached::serve(&mut writer, &stream, shared, id, &request);
            }
            ClientMessage::NewSession(request) if request.observe => {
                let started = streams::observe_new_session(shared, request);
                return stream_after(&mut writer, &stream, id, started);
            }
            other => {
                let response = match handlers::dispatch(shared, other) {
                    Ok(value) => Response {
                        id,
                        outcome: wire::Outcome::Ok(value),
                    },
                    Err(error) => Response::error(id, error.body()),
                };
                send(&mut writer, &ServerMessage::Response(response))?;
            }
        }
    }
}

fn send(writer: &mut Writer, message: &ServerMessage) -> Result<(), WireError> {
    writer.send(message)
}

/// Answers the streaming request, then forwards its events until the stream or the client ends.
fn stream_after<T: serde::Serialize>(
    writer: &mut Writer,
    socket: &UnixStream,
    id: u64,
    started: Result<(T, Stream), RequestError>,
) -> Result<(), WireError> {
    let (payload, stream) = match started {
        Ok(started) => started,
        Err(error) => {
            return send(
                writer,
                &ServerMessage::Response(Response::error(id, error.body())),
            )
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
    loop {
        match stream.rx.recv_timeout(Duration::from_millis(500)) {
            Ok(event) => forward(writer, event)?,
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

/// Now on the server's wall clock, for watchers that line events up with other logs.
fn wall_clock_ns() -> Option<u64> {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()
        .and_then(|d| u64::try_from(d.as_nanos()).ok())
}

fn forward(writer: &mut Writer, event: BusEvent) -> Result<(), WireError> {
    match event {
        BusEvent::Watch { pane, kind, t_ns } => send(
            writer,
            &ServerMessage::Event(Event {
                pane: Some(pane),
                event: kind,
                t_ns,
                ts_ns: wall_clock_ns(),
            }),
        ),
        BusEvent::Output {
            pane,
            seq,
            t_ns,
            bytes,
        } => write_output(
            writer,
            OutputChunk {
                pane: pane.0,
                seq,
                t_ns,
                bytes: bytes.to_vec(),
            },
        ),
        BusEvent::Resized {
            pane,
            cols,
            rows,
            t_ns,
        } => send(
            writer,
            &ServerMessage::Resized(Resized {
                pane,
                cols,
                rows,
                t_ns,
            }),
        ),
        BusEvent::Changed { pane } => send(
            writer,
            &ServerMessage::ScreenChanged(ScreenChanged { pane }),
        ),
        BusEvent::Lagged { pane, dropped } => send(
            writer,
            &ServerMessage::ObserverLagged(ObserverLagged {
                pane,
                dropped_bytes: dropped,
            }),
        ),
    }
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
