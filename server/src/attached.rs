//! An attached client's connection after `attach_client`: it carries notices (detach, the
//! session's state changed) until the client hangs up, which detaches it.

use std::os::unix::net::UnixStream;
use std::time::Duration;

use crossbeam_channel::RecvTimeoutError;
use phux_core::wire::{
    AttachClient, ClientNotice, ClientNoticeKind, FrameWriter, Response, ServerMessage, WireError,
};

use crate::handlers::tui;
use crate::shared::Shared;

/// How often the session's state is compared with what the client last drew from. Changes
/// made through the client itself are seen at once (it reads the state after each); this is
/// for changes other verbs make.
const STATE_CHECK: Duration = Duration::from_millis(200);

pub fn serve(
    writer: &mut FrameWriter<&UnixStream>,
    socket: &UnixStream,
    shared: &Shared,
    id: u64,
    (request, read_only): (&AttachClient, bool),
) -> Result<(), WireError> {
    let attached = match tui::attach(shared, request, read_only) {
        Ok(attached) => attached,
        Err(error) => {
            return writer.send(&ServerMessage::Response(Response::error(id, error.body())))
        }
    };
    let client = attached.ok.client;
    let result = notify_until_gone(writer, socket, shared, id, attached);
    tui::detached(shared, client);
    result
}

fn notify_until_gone(
    writer: &mut FrameWriter<&UnixStream>,
    socket: &UnixStream,
    shared: &Shared,
    id: u64,
    attached: tui::Attached,
) -> Result<(), WireError> {
    writer.send(&ServerMessage::Response(Response::ok(id, &attached.ok)?))?;
    let client = attached.ok.client;
    let mut session = attached.session;
    let mut digest = tui::session_digest(shared, session);
    loop {
        let notice = match attached.notices.recv_timeout(STATE_CHECK) {
            Ok(notice) => Some(notice),
            Err(RecvTimeoutError::Timeout) => {
                if crate::connection::client_gone(socket) {
                    return Ok(());
                }
                // The client may have switched sessions (`C-a s`): follow the one it shows.
                session = shared.attached().session_of(client).unwrap_or(session);
                let now = tui::session_digest(shared, session);
                if now.is_none() {
                    // The session is gone: nothing is left to show.
                    Some(ClientNoticeKind::Detach)
                } else if now != digest {
                    digest = now;
                    tui::apply_sizes(shared, session);
                    Some(ClientNoticeKind::StateChanged)
                } else {
                    None
                }
            }
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        };
        if let Some(notice) = notice {
            writer.send(&ServerMessage::ClientNotice(ClientNotice { notice }))?;
        }
    }
}
