//! The listener: TLS on one TCP port, then one HTTP request per connection — the page and its
//! scripts, or a WebSocket upgrade that must show a token before anything of a session is
//! sent: `/wire` carries one client connection (the browser), `/link` a hub's link. Every
//! step has a deadline; connections without a token have a small pool of their own
//! (`unauthenticated`), admitted ones are capped in all and per credential, and what strangers
//! can cause at will is logged at most once per interval with a count (`log_throttle`).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::rustls;
use tokio_rustls::TlsAcceptor;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use super::cert::{self, CertPaths};
use super::http::{self, Request};
use super::log_throttle::LogThrottle;
use super::tokens::{Admitted, Refusal, Store};
use super::unauthenticated::{Unauthenticated, TLS_DEADLINE};
use super::{bridge, page};
use crate::shared::Shared;

/// After TLS (which must finish within [`TLS_DEADLINE`] of the accept), a client has this long
/// to send its request head, then its token.
pub const STEP_DEADLINE: Duration = Duration::from_secs(5);
/// Admitted connections open at once, in all (those without a token yet have a pool of their
/// own: `unauthenticated`).
pub const MAX_CONNECTIONS: usize = 256;
/// Connections open at once per credential.
pub const MAX_PER_CREDENTIAL: usize = 32;
/// The largest WebSocket message a client may send (a link frame is at most 256 KiB).
pub const MAX_MESSAGE: usize = 1 << 20;

/// What the listener needs to start.
#[derive(Debug, Clone)]
pub struct Settings {
    pub addr: String,
    pub tokens: PathBuf,
    pub cert: CertPaths,
}

impl Settings {
    /// For the address the server was given (`--ws-addr`, `PHUX_WS_ADDR`, `[listener]
    /// ws_addr`, in that order); `None` when there is none (the listener is off).
    pub fn configured(ws_addr: Option<String>) -> Option<Settings> {
        let addr = ws_addr.filter(|a| !a.trim().is_empty())?;
        let tokens = super::tokens::default_path();
        let dir = tokens
            .parent()
            .map(|p| p.to_path_buf())
            .unwrap_or_else(|| PathBuf::from("."));
        Some(Settings {
            addr,
            cert: CertPaths::resolve(&dir, None),
            tokens,
        })
    }
}

struct State {
    shared: Arc<Shared>,
    tokens: PathBuf,
    acceptor: TlsAcceptor,
    open: Mutex<Open>,
    unauthenticated: Arc<Unauthenticated>,
    throttle: LogThrottle,
}

#[derive(Default)]
struct Open {
    all: usize,
    per_credential: HashMap<String, usize>,
}

/// A place held in the caps while a connection lasts.
struct Place {
    state: Arc<State>,
    credential: Option<String>,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut open = self.state.open.lock().unwrap_or_else(|p| p.into_inner());
        open.all = open.all.saturating_sub(1);
        if let Some(id) = &self.credential {
            if let Some(n) = open.per_credential.get_mut(id) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    open.per_credential.remove(id);
                }
            }
        }
    }
}

/// Why the listener did not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// One listener per server: it already binds another address.
    #[error("the server already listens on {running} (asked for {asked})")]
    AlreadyListening { running: SocketAddr, asked: String },
    #[error("the certificate: {0}")]
    Certificate(String),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: String,
        source: std::io::Error,
    },
    #[error("cannot start the listener's thread: {0}")]
    Thread(std::io::Error),
}

/// The listener this server runs, once it does: an upgrade's new process binds the same
/// address (its real port when port 0 was asked for), so pages and hubs find it again.
#[derive(Debug, Clone)]
pub struct Running {
    pub addr: SocketAddr,
    pub fingerprint: String,
}

static RUNNING: Mutex<Option<Running>> = Mutex::new(None);

fn running_slot() -> std::sync::MutexGuard<'static, Option<Running>> {
    RUNNING.lock().unwrap_or_else(|p| p.into_inner())
}

/// The listener this server runs, if any.
pub fn running() -> Option<Running> {
    running_slot().clone()
}

/// Where the listener listens, once it does.
pub fn bound_addr() -> Option<std::net::SocketAddr> {
    running().map(|r| r.addr)
}

/// Binds the address and serves it on a thread of its own. `Ok(false)`: the listener already
/// ran on that address (nothing changed). One listener per server: asking for another
/// address while one runs is [`StartError::AlreadyListening`].
pub fn start(shared: &Arc<Shared>, settings: &Settings) -> Result<(Running, bool), StartError> {
    // Held to the end: two `listen`s at once start one listener.
    let mut slot = running_slot();
    if let Some(running) = slot.as_ref() {
        return if same_address(running.addr, &settings.addr) {
            Ok((running.clone(), false))
        } else {
            Err(StartError::AlreadyListening {
                running: running.addr,
                asked: settings.addr.clone(),
            })
        };
    }
    let identity =
        cert::load_or_make(&settings.cert).map_err(|e| StartError::Certificate(e.to_string()))?;
    let fingerprint = identity.fingerprint();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let tls = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| StartError::Certificate(e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(identity.chain, identity.key)
        .map_err(|e| StartError::Certificate(format!("{}: {e}", settings.cert.cert.display())))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
        .map_err(StartError::Thread)?;
    let bind = |source| StartError::Bind {
        addr: settings.addr.clone(),
        source,
    };
    let std_listener = std::net::TcpListener::bind(&settings.addr).map_err(bind)?;
    std_listener.set_nonblocking(true).map_err(bind)?;
    let bound = std_listener.local_addr().map_err(bind)?;
    let state = Arc::new(State {
        shared: Arc::clone(shared),
        tokens: settings.tokens.clone(),
        acceptor: TlsAcceptor::from(Arc::new(tls)),
        open: Mutex::new(Open::default()),
        unauthenticated: Arc::new(Unauthenticated::default()),
        throttle: LogThrottle::default(),
    });
    std::thread::Builder::new()
        .name("remote".into())
        .spawn(move || {
            runtime.block_on(async move {
                let listener = match TcpListener::from_std(std_listener) {
                    Ok(listener) => listener,
                    Err(e) => {
                        crate::log::line(&format!("remote: cannot listen: {e}"));
                        return;
                    }
                };
                accept_forever(listener, state).await;
            });
        })
        .map_err(StartError::Thread)?;
    crate::log::line(&format!(
        "remote: listening on {bound} (TLS, certificate {fingerprint})"
    ));
    let running = Running {
        addr: bound,
        fingerprint,
    };
    let file = phux_core::config::listener::RunningListener {
        addr: bound.to_string(),
        fingerprint: running.fingerprint.clone(),
    };
    if let Err(e) = file.write(&shared.config.socket) {
        crate::log::line(&format!(
            "remote: cannot write the listener file (`pair` will not know the address): {e}"
        ));
    }
    *slot = Some(running.clone());
    Ok((running, true))
}

/// Whether `asked` names the address `running` binds: the same text, or the same IP with
/// port 0 or the same port, or a host name that resolves to it.
fn same_address(running: SocketAddr, asked: &str) -> bool {
    use std::net::ToSocketAddrs;
    let Ok(candidates) = asked.to_socket_addrs() else {
        return false;
    };
    candidates
        .into_iter()
        .any(|a| a.ip() == running.ip() && (a.port() == running.port() || a.port() == 0))
}

async fn accept_forever(listener: TcpListener, state: Arc<State>) {
    let flusher = Arc::clone(&state);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(super::log_throttle::INTERVAL);
        loop {
            every.tick().await;
            flusher.throttle.flush();
        }
    });
    loop {
        let (tcp, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                state
                    .throttle
                    .note("accept failed", || format!("remote: accept failed: {e}"));
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let place = match state.unauthenticated.admit(&tcp, peer.ip()) {
            Ok(place) => place,
            Err(why) => {
                state
                    .throttle
                    .note(why.log(), || format!("remote: {peer}: {}", why.log()));
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        tokio::spawn(serve_connection(tcp, peer, Arc::clone(&state), place));
    }
}

/// Takes a place among the admitted connections for `credential`; `None` (and why) when all
/// of them, or the credential's, are held.
fn take_place(state: &Arc<State>, credential: &str) -> Result<Place, String> {
    let mut open = state.open.lock().unwrap_or_else(|p| p.into_inner());
    if open.all >= MAX_CONNECTIONS {
        return Err(format!("{MAX_CONNECTIONS} connections are open"));
    }
    let n = open
        .per_credential
        .entry(credential.to_owned())
        .or_insert(0);
    if *n >= MAX_PER_CREDENTIAL {
        return Err(format!(
            "credential {credential} has {MAX_PER_CREDENTIAL} connections open"
        ));
    }
    *n += 1;
    open.all += 1;
    Ok(Place {
        state: Arc::clone(state),
        credential: Some(credential.to_owned()),
    })
}

/// A connection from accept to its end: its token within the deadlines (in the pool of
/// connections without one, from which a newcomer may take it back while it is silent), then
/// its session.
async fn serve_connection(
    tcp: TcpStream,
    peer: SocketAddr,
    state: Arc<State>,
    unauthenticated: super::unauthenticated::Place,
) {
    let shown = tokio::select! {
        biased;
        () = unauthenticated.taken_back() => {
            state.throttle.note("taken back", || {
                format!("remote: {peer}: dropped: it sent nothing and a newcomer took its place")
            });
            return;
        }
        shown = authenticate(tcp, peer, &state, &unauthenticated) => shown,
    };
    drop(unauthenticated);
    let Some((mut ws, kind, admitted)) = shown else {
        return;
    };
    let place = match take_place(&state, &admitted.credential_id) {
        Ok(place) => place,
        Err(why) => {
            state.throttle.note("admitted over a cap", || {
                format!("remote: {peer}: refused: {why}")
            });
            close(&mut ws, "too many connections for this credential").await;
            return;
        }
    };
    let path = match kind {
        bridge::Kind::Wire => "/wire",
        bridge::Kind::Link => "/link",
    };
    let session = state.shared.remote.register(super::sessions::Admission {
        credential_id: &admitted.credential_id,
        read_only: admitted.read_only,
        path,
        peer: peer.to_string(),
    });
    crate::log::line(&format!(
        "remote: {peer}: credential {}{} connected ({path})",
        admitted.credential_id,
        if admitted.read_only {
            " (read-only)"
        } else {
            ""
        },
    ));
    let ended = bridge::serve(ws, kind, &state.shared, &admitted, &session).await;
    if let Some(why) = ended.log() {
        crate::log::line(&format!(
            "remote: {peer}: credential {} disconnected: {why}",
            admitted.credential_id
        ));
    }
    drop(session);
    drop(place);
}

type Ws = WebSocketStream<tokio_rustls::server::TlsStream<TcpStream>>;

/// TLS, the request, and the token, each within its deadline; `None` when the connection got
/// no session (refused, or served the page).
async fn authenticate(
    tcp: TcpStream,
    peer: SocketAddr,
    state: &State,
    place: &super::unauthenticated::Place,
) -> Option<(Ws, bridge::Kind, Admitted)> {
    let handshake = async {
        // Once its first bytes are here it is a client, not an idle hold: its place is kept
        // (the TLS reader empties the socket at once, so a later look would see nothing).
        let _ = tcp.peek(&mut [0u8; 1]).await;
        place.talking();
        state.acceptor.accept(tcp).await
    };
    let mut tls = match tokio::time::timeout(TLS_DEADLINE, handshake).await {
        Ok(Ok(tls)) => tls,
        Ok(Err(e)) => {
            state
                .throttle
                .note("TLS failed", || format!("remote: {peer}: TLS failed: {e}"));
            return None;
        }
        Err(_) => {
            state.throttle.note("TLS not finished in time", || {
                format!("remote: {peer}: dropped: TLS not finished in time")
            });
            return None;
        }
    };
    let request = match tokio::time::timeout(STEP_DEADLINE, http::read_head(&mut tls)).await {
        Ok(Ok(request)) => request,
        Ok(Err(e)) => {
            state
                .throttle
                .note("bad request", || format!("remote: {peer}: dropped: {e}"));
            let _ = http::respond(
                &mut tls,
                "400 Bad Request",
                "text/plain",
                b"bad request\n",
                &[],
            )
            .await;
            return None;
        }
        Err(_) => {
            state.throttle.note("no request in time", || {
                format!("remote: {peer}: dropped: no request in time")
            });
            return None;
        }
    };
    if request.method != "GET" {
        let _ = http::respond(
            &mut tls,
            "405 Method Not Allowed",
            "text/plain",
            b"only GET\n",
            &[],
        )
        .await;
        return None;
    }
    let kind = match request.path.as_str() {
        "/wire" => bridge::Kind::Wire,
        "/link" => bridge::Kind::Link,
        _ => {
            let _ = page::serve(&mut tls, &request).await;
            return None;
        }
    };
    if !request.is_upgrade() {
        let _ = http::respond(
            &mut tls,
            "426 Upgrade Required",
            "text/plain",
            b"this address takes a WebSocket\n",
            &[],
        )
        .await;
        return None;
    }
    // A token in a header is checked before the upgrade: a refusal is a plain 401.
    let early = match request.bearer() {
        Some(token) => match admit(state, Some(token)) {
            Ok(admitted) => Some(admitted),
            Err(refusal) => {
                state.throttle.note("refused token", || {
                    format!("remote: {peer}: refused: {}", refusal.log())
                });
                let _ = http::respond(
                    &mut tls,
                    refusal.status(),
                    "text/plain",
                    format!("{}\n", refusal.reason()).as_bytes(),
                    &[("WWW-Authenticate", "Bearer")],
                )
                .await;
                return None;
            }
        },
        None => None,
    };
    if let Err(e) = switch(&mut tls, &request).await {
        state.throttle.note("upgrade failed", || {
            format!("remote: {peer}: upgrade failed: {e}")
        });
        return None;
    }
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE));
    let mut ws = WebSocketStream::from_raw_socket(tls, Role::Server, Some(config)).await;
    // Otherwise the first message is the token: `{"token":"…"}` (a browser cannot set headers).
    let admitted = match early {
        Some(admitted) => admitted,
        None => match first_message_token(&mut ws).await {
            Ok(token) => match admit(state, Some(&token)) {
                Ok(admitted) => admitted,
                Err(refusal) => {
                    state.throttle.note("refused token", || {
                        format!("remote: {peer}: refused: {}", refusal.log())
                    });
                    close(&mut ws, refusal.reason()).await;
                    return None;
                }
            },
            Err(why) => {
                state
                    .throttle
                    .note("no token", || format!("remote: {peer}: refused: {why}"));
                close(&mut ws, why).await;
                return None;
            }
        },
    };
    Some((ws, kind, admitted))
}

async fn switch<S: tokio::io::AsyncWrite + Unpin>(
    stream: &mut S,
    request: &Request,
) -> std::io::Result<()> {
    let key = request.header("sec-websocket-key").unwrap_or_default();
    http::switch(stream, key).await
}

/// The store is read at every admission, so pairing, rotation and revocation apply to the
/// next connection without a restart.
fn admit(state: &State, token: Option<&str>) -> Result<Admitted, Refusal> {
    match Store::load(&state.tokens) {
        Ok(store) => store.admit(token),
        Err(e) => {
            crate::log::line(&format!("remote: {e}"));
            Err(Refusal::StoreUnreadable)
        }
    }
}

async fn first_message_token<S>(ws: &mut WebSocketStream<S>) -> Result<String, &'static str>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let first = tokio::time::timeout(STEP_DEADLINE, ws.next())
        .await
        .map_err(|_| "no token in time")?;
    let Some(Ok(Message::Text(text))) = first else {
        return Err("the first message must be the token");
    };
    #[derive(serde::Deserialize)]
    struct Hello {
        token: String,
    }
    serde_json::from_str::<Hello>(text.as_str())
        .map(|h| h.token)
        .map_err(|_| "the first message must be {\"token\":\"…\"}")
}

/// Closes with a policy-violation code and `reason` (cut to what a close frame holds).
async fn close<S>(ws: &mut WebSocketStream<S>, reason: &str)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let mut reason = reason.to_owned();
    while reason.len() > 120 {
        reason.pop();
    }
    let _ = ws
        .close(Some(CloseFrame {
            code: CloseCode::Policy,
            reason: reason.into(),
        }))
        .await;
}
