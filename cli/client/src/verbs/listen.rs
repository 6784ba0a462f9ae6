//! `listen`: start the remote listener in the running server (`phux listen HOST:PORT`, and
//! `phux server --ws-addr` when a server already runs), with the document both print.

use phux_core::wire::{ClientMessage, Listen, ListenOk};
use serde::Serialize;

use crate::connection::Client;
use crate::failure::Failure;

/// What `listen --json` prints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListenJson {
    pub schema_version: u32,
    pub operation: &'static str,
    /// The bound address (its real port when port 0 was asked for).
    pub addr: String,
    /// The certificate's SHA-256 fingerprint a browser or hub pins.
    pub fingerprint: String,
    /// `false`: the server already listened there; nothing changed.
    pub started: bool,
    /// Admitted connections open now.
    pub admitted: u32,
}

/// Asks the server `client` speaks to for its listener on `addr`.
pub fn listen(client: &mut Client, addr: &str) -> Result<ListenJson, Failure> {
    let ok: ListenOk = client.request(ClientMessage::Listen(Listen {
        id: 0,
        addr: addr.to_owned(),
    }))?;
    Ok(ListenJson {
        schema_version: 1,
        operation: "listen",
        addr: ok.listener.addr,
        fingerprint: ok.listener.fingerprint,
        started: ok.started,
        admitted: ok.listener.admitted,
    })
}

/// The lines a person reads: where it listens and what to do next.
pub fn describe(document: &ListenJson) -> Vec<String> {
    let first = if document.started {
        format!("listening on {} (TLS)", document.addr)
    } else {
        format!("already listening on {} (TLS)", document.addr)
    };
    vec![
        first,
        format!("certificate {}", document.fingerprint),
        "pair a browser or a hub: `phux pair --name NAME` prints its link and token".into(),
    ]
}

/// Where the listener is, as a person asking `pair` or `doctor` means it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListenerWhere {
    /// The running server listens. `admitted` is `None` when the server was not asked (its
    /// listener file was read).
    Running {
        addr: String,
        fingerprint: String,
        admitted: Option<u32>,
    },
    /// A server runs without a listener; `configured` is what a new server would take.
    RunningWithout { configured: Option<String> },
    /// No server listens: a server started now listens at `configured` (`None`: nowhere).
    NotRunning { configured: Option<String> },
}

impl ListenerWhere {
    /// The address devices reach now, or will once a server starts.
    pub fn addr(&self) -> Option<String> {
        match self {
            ListenerWhere::Running { addr, .. } => Some(addr.clone()),
            ListenerWhere::RunningWithout { .. } => None,
            ListenerWhere::NotRunning { configured } => configured.clone(),
        }
    }

    /// What to do when nothing listens: the command that starts the listener.
    pub fn remedy(&self) -> Option<String> {
        match self {
            ListenerWhere::Running { .. }
            | ListenerWhere::NotRunning {
                configured: Some(_),
            } => None,
            ListenerWhere::RunningWithout { configured } => Some(format!(
                "the running server does not listen: `phux listen {}` starts its listener",
                configured.as_deref().unwrap_or("127.0.0.1:8787")
            )),
            ListenerWhere::NotRunning { configured: None } => Some(
                "the listener is off: `phux listen HOST:PORT` starts it (in the running server, \
                 or a new one), or set [listener] ws_addr in config.toml / PHUX_WS_ADDR for every \
                 server"
                    .to_owned(),
            ),
        }
    }
}

/// What the server at `socket` listens on, from the file it writes beside its socket, without
/// contacting it (`pair`, §4.18); else what a server started now would take.
pub fn listener_recorded(socket: &std::path::Path) -> ListenerWhere {
    match phux_core::config::listener::RunningListener::read(socket) {
        Some(file) => ListenerWhere::Running {
            addr: file.addr,
            fingerprint: file.fingerprint,
            admitted: None,
        },
        None => ListenerWhere::NotRunning {
            configured: crate::registry::configured_ws_addr(),
        },
    }
}

/// The listener as the server's `status` tells it (`None`: no server runs); the configured
/// address is read only when the server runs none.
pub fn listener_of(status: Option<&phux_core::documents::StatusJson>) -> ListenerWhere {
    match status.map(|s| s.listener.clone()) {
        Some(Some(view)) => ListenerWhere::Running {
            addr: view.addr,
            fingerprint: view.fingerprint,
            admitted: Some(view.admitted),
        },
        Some(None) => ListenerWhere::RunningWithout {
            configured: crate::registry::configured_ws_addr(),
        },
        None => ListenerWhere::NotRunning {
            configured: crate::registry::configured_ws_addr(),
        },
    }
}
