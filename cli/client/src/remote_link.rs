//! Direct links to `[[remote]]` hosts: this process runs `ssh … HOST phux proxy` (or, for a
//! `wss://` host, `phux __remote-link`) itself (once per host) and each connection to the
//! host's server is a channel of that link, carried to this side over a socket pair, so a
//! `Client` works on it unchanged. The dial and the channel multiplexer are the ones the
//! hub's satellite links use (`phux_core::hosts::link`).

use std::collections::HashMap;
use std::os::unix::net::UnixStream;
use std::sync::{Arc, Mutex, OnceLock};

use phux_core::hosts::link::{dial, Session};
use phux_core::hosts::Endpoint;

use crate::error::ClientError;

fn links() -> &'static Mutex<HashMap<String, Arc<Session>>> {
    static LINKS: OnceLock<Mutex<HashMap<String, Arc<Session>>>> = OnceLock::new();
    LINKS.get_or_init(|| Mutex::new(HashMap::new()))
}

/// A new connection to the server of the remote host `name` at `endpoint`, dialing it first
/// when this process has no link there yet.
pub fn connect(name: &str, endpoint: &Endpoint) -> Result<UnixStream, ClientError> {
    let failed = |message: String| ClientError::Transport {
        socket: std::path::PathBuf::from(endpoint.to_string()),
        message,
    };
    let session = {
        let mut links = links().lock().unwrap_or_else(|p| p.into_inner());
        match links.get(name) {
            Some(session) => Arc::clone(session),
            None => {
                let config = phux_core::config::paths::config_path();
                // A `wss://` host is dialed with its entry's token file and fingerprint.
                let wss = phux_core::hosts::host_list::list(&config)
                    .ok()
                    .and_then(|hosts| hosts.into_iter().find(|h| h.name == name))
                    .and_then(|entry| entry.wss_auth());
                let (session, stdout) = dial(endpoint, Some(&config), wss.as_ref())
                    .map_err(|e| failed(format!("cannot reach {name}: {e}")))?;
                let pumping = Arc::clone(&session);
                std::thread::Builder::new()
                    .name(format!("remote-{name}"))
                    .spawn(move || pumping.pump(stdout))
                    .map_err(|e| failed(e.to_string()))?;
                links.insert(name.to_owned(), Arc::clone(&session));
                session
            }
        }
    };
    let (ours, theirs) = UnixStream::pair().map_err(|e| failed(e.to_string()))?;
    let channel = session
        .open_channel(&theirs)
        .map_err(|e| failed(e.to_string()))?;
    std::thread::Builder::new()
        .name(format!("remote-{name}-up"))
        .spawn(move || session.forward(channel, &theirs))
        .map_err(|e| failed(e.to_string()))?;
    Ok(ours)
}
