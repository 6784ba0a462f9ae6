//! `listen`: the remote listener started in the running server (`phux listen HOST:PORT`, or
//! `phux server --ws-addr` when a server already runs), and the listener as `status` shows it.

use std::sync::Arc;

use phux_core::error_code::ErrorCode;
use phux_core::wire::{Listen, ListenOk, ListenerView};

use crate::remote::listener::{self, Running, StartError};
use crate::request_error::RequestError;
use crate::shared::Shared;

pub fn listen(shared: &Arc<Shared>, request: &Listen) -> Result<ListenOk, RequestError> {
    // `None` only for an empty address: the one check of it.
    let settings = listener::Settings::configured(Some(request.addr.trim().to_owned()))
        .ok_or_else(|| {
            RequestError::refused(
                ErrorCode::InvalidArgument,
                "listen needs an address",
                "give HOST:PORT, e.g. `phux listen 127.0.0.1:8787`",
            )
        })?;
    match listener::start(shared, &settings) {
        Ok((running, started)) => Ok(ListenOk {
            listener: view(shared, &running),
            started,
        }),
        Err(StartError::AlreadyListening { running, asked }) => Err(RequestError::refused(
            ErrorCode::ListenerRunning,
            format!("the server already listens on {running}, not {asked}"),
            format!(
                "use the running listener ({running}); to move it, stop the server with `phux kill \
                 --server` (its panes end) and start it with `phux server --ws-addr {asked}`"
            ),
        )),
        Err(why) => {
            crate::log::line(&format!("remote: not listening: {why}"));
            Err(RequestError::refused(
                ErrorCode::ListenerFailed,
                why.to_string(),
                "pick a free port on an address of this machine (`127.0.0.1:8787`, an overlay \
                 address); `phux logs` has the server's side",
            ))
        }
    }
}

/// The running listener as `status` reports it; `None` when it is off.
pub fn current(shared: &Shared) -> Option<ListenerView> {
    listener::running().map(|running| view(shared, &running))
}

fn view(shared: &Shared, running: &Running) -> ListenerView {
    ListenerView {
        addr: running.addr.to_string(),
        fingerprint: running.fingerprint.clone(),
        admitted: u32::try_from(shared.remote.list().len()).unwrap_or(u32::MAX),
    }
}
