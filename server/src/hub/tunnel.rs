//! `tunnel`: a client connection becomes a byte pipe to a satellite's server over the link, so
//! every verb works on `NAME/@N` by speaking the ordinary protocol to the satellite.

use std::os::unix::net::UnixStream;
use std::sync::Arc;

use phux_core::error_code::ErrorCode;
use phux_core::hosts::link::Session;
use phux_core::wire::{Done, FrameWriter, Response, ServerMessage, Tunnel, WireError};

use crate::request_error::RequestError;
use crate::shared::Shared;

/// Answers the tunnel request, then pipes `stream` to the satellite until either side ends.
pub fn serve(
    writer: &mut FrameWriter<&UnixStream>,
    stream: &UnixStream,
    shared: &Arc<Shared>,
    id: u64,
    request: &Tunnel,
) -> Result<(), WireError> {
    let opened = open(shared, stream, &request.satellite);
    let (session, channel) = match opened {
        Ok(open) => open,
        Err(error) => {
            return writer.send(&ServerMessage::Response(Response::error(id, error.body())));
        }
    };
    writer.send(&ServerMessage::Response(Response::ok(id, &Done {})?))?;
    let _ = stream.set_read_timeout(None);
    session.forward(channel, stream);
    Ok(())
}

fn open(
    shared: &Shared,
    stream: &UnixStream,
    name: &str,
) -> Result<(Arc<Session>, u32), RequestError> {
    let Some(link) = shared.hub.link(name) else {
        return Err(RequestError::refused(
            ErrorCode::NoSuchTarget,
            format!("no satellite named {name} is configured on this hub"),
            "list the satellites with `phux host ls --role satellite`; add one with \
             `phux host add NAME ssh://HOST --role satellite`",
        ));
    };
    let Some(session) = link.session() else {
        let diagnostic = link
            .down_diagnostic()
            .unwrap_or_else(|| format!("satellite {name} is unreachable"));
        let code = if link.refused() {
            ErrorCode::ServerTooOld
        } else {
            ErrorCode::PartialView
        };
        return Err(RequestError::refused(
            code,
            diagnostic,
            "retry once the satellite is reachable; `phux ls --json` shows `unreachable`",
        ));
    };
    let channel = session.open_channel(stream).map_err(|e| {
        RequestError::refused(
            ErrorCode::PartialView,
            format!("satellite {name} is unreachable: {e}"),
            "retry once the satellite is reachable; `phux ls --json` shows `unreachable`",
        )
    })?;
    Ok((session, channel))
}
