//! `Client`: one connection to the server's socket, past the handshake, sending requests with
//! fresh ids and waiting for the response carrying the same id.

use std::io::{ErrorKind, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

use phux_core::state_view::StateView;
use phux_core::wire;
use phux_core::wire::{
    check_welcome, ClientMessage, Frame, FrameReader, Hello, IdOnly, Outcome, ServerMessage,
    Tunnel, Welcome, WireError, PROTOCOL,
};
use serde::de::DeserializeOwned;

use crate::error::ClientError;
use crate::trust;

/// How long a request waits for its answer before it is a `transport` failure, so a wedged
/// server fails a script instead of hanging it.
pub const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// A connected client. Its hello goes out with the first request (one write for both), and
/// the server's answer to it is read only before the first answer a caller waits for: the
/// hello and the first request share one round trip, which is most of what a one-shot verb
/// spends on the socket.
#[derive(Debug)]
pub struct Client {
    stream: UnixStream,
    socket: PathBuf,
    /// The encoded hello, until it is sent.
    unsent_hello: Option<Vec<u8>>,
    /// The server's welcome, once read.
    welcome: Option<Welcome>,
    next_id: u64,
    /// The satellite this connection was tunnelled to through the hub, if any.
    route: Option<String>,
    /// The `[[remote]]` host this connection reaches over its own ssh link, if any.
    remote: Option<(String, phux_core::hosts::Endpoint)>,
    /// Who this connection types as (`PHUX_AS`): a pane's input lease lets its holder's input
    /// through and refuses everyone else's.
    actor: Option<String>,
}

/// How long a read cut by its server going away waits for the next server to answer.
const RECONNECT_WAIT: Duration = Duration::from_secs(10);

/// Whether `message` only reads: asking it again cannot do anything twice.
fn is_a_read(message: &ClientMessage) -> bool {
    use ClientMessage as M;
    matches!(
        message,
        M::GetState(_)
            | M::GetFleet(_)
            | M::Status(_)
            | M::GetScreen(_)
            | M::TagsGet(_)
            | M::MetadataGet(_)
            | M::AgentInspect(_)
            | M::ShellState(_)
    )
}

/// What to ask the next server when the one asked went away before answering: a read as it
/// was (asking twice changes nothing), an acknowledged write under its operation id marked as
/// a retry (the server types it only if it knows the first never was: an upgrade carries the
/// ledger of what was typed; after a crash the answer is `delivery_unknown`), else nothing.
fn ask_again(message: &ClientMessage) -> Option<ClientMessage> {
    use ClientMessage as M;
    match message {
        _ if is_a_read(message) => Some(message.clone()),
        M::Input(input) if input.operation_id.is_some() => Some(M::Input(wire::Input {
            retry: true,
            ..input.clone()
        })),
        M::Paste(paste) if paste.operation_id.is_some() => Some(M::Paste(wire::Paste {
            retry: true,
            ..paste.clone()
        })),
        _ => None,
    }
}

/// The name a client types as, from `PHUX_AS` (none when unset or empty).
pub fn actor_from_env() -> Option<String> {
    std::env::var("PHUX_AS").ok().filter(|a| !a.is_empty())
}

impl Client {
    /// Connects to `socket` and says hello. Nothing listening there (no socket file, a stale
    /// one) is [`ClientError::NoServer`]; a server of another major version is
    /// [`ClientError::VersionMismatch`], reported with the first answer; a socket or server
    /// that is not ours is [`ClientError::UntrustedSocket`], before anything is sent.
    ///
    /// Where no server listens but panes wait with their keepers (the server crashed, or an
    /// upgrade's binary never took over), a server is started first: it takes them over, so
    /// any command brings the panes back.
    pub fn connect(socket: &Path) -> Result<Client, ClientError> {
        match Client::connect_running(socket) {
            Err(ClientError::NoServer { .. }) if phux_core::socket_path::panes_wait(socket) => {
                crate::autostart::ensure_server(socket)
            }
            other => other,
        }
    }

    /// Connects to the server listening at `socket`, never starting one.
    pub fn connect_running(socket: &Path) -> Result<Client, ClientError> {
        let stream = UnixStream::connect(socket).map_err(|e| connect_error(socket, e))?;
        // Before the first byte: what is typed may be a password. (Connecting sends nothing,
        // and a socket nobody listens on stays `no_server`.)
        trust::check_socket_path(socket)?;
        trust::check_peer(socket, &stream)?;
        let wire = |e| ClientError::from_wire(socket, e);
        stream
            .set_read_timeout(Some(DEFAULT_READ_TIMEOUT))
            .map_err(|e| wire(WireError::Io(e)))?;
        let hello = encoded_hello().map_err(wire)?;
        Ok(Client {
            stream,
            socket: socket.to_path_buf(),
            unsent_hello: Some(hello),
            welcome: None,
            next_id: 1,
            route: None,
            remote: None,
            actor: actor_from_env(),
        })
    }

    /// Types as `actor` from now on (an attached client types as its user).
    pub fn set_actor(&mut self, actor: Option<String>) {
        self.actor = actor;
    }

    /// Who this connection types as.
    pub fn actor(&self) -> Option<&str> {
        self.actor.as_deref()
    }

    /// The server's handshake answer (its version and pid), read now if it was not yet.
    pub fn welcome(&mut self) -> Result<&Welcome, ClientError> {
        let welcome = match self.welcome.take() {
            Some(welcome) => welcome,
            None => self.read_welcome()?,
        };
        Ok(self.welcome.insert(welcome))
    }

    fn read_welcome(&mut self) -> Result<Welcome, ClientError> {
        let wire = |e| ClientError::from_wire(&self.socket, e);
        if let Some(hello) = self.unsent_hello.take() {
            (&self.stream)
                .write_all(&hello)
                .map_err(|e| wire(WireError::Io(e)))?;
        }
        let answer: ServerMessage = FrameReader::new(&self.stream)
            .read_message()
            .map_err(wire)?;
        check_welcome(answer).map_err(|e| match e {
            WireError::Refused(reason) => ClientError::Transport {
                socket: self.socket.clone(),
                message: format!("the server refused the connection: {reason}"),
            },
            other => wire(other),
        })
    }

    pub fn socket(&self) -> &Path {
        &self.socket
    }

    pub(crate) fn stream(&self) -> &UnixStream {
        &self.stream
    }

    /// Reads one whole frame (blocking up to the read timeout); for streams, after `poll`.
    pub(crate) fn read_pushed_frame(&mut self) -> Result<Frame, WireError> {
        FrameReader::new(&self.stream).read_frame()
    }

    /// Changes how long a request waits for its answer (`None`: forever).
    pub fn set_read_timeout(&mut self, timeout: Option<Duration>) -> Result<(), ClientError> {
        self.stream
            .set_read_timeout(timeout)
            .map_err(|e| ClientError::from_wire(&self.socket, WireError::Io(e)))
    }

    /// Sends `message` with a fresh id (whatever id it carried is replaced) and returns the
    /// response's `ok` payload as `T`, or the server's error. Events and output chunks that
    /// arrive meanwhile are skipped.
    ///
    /// A read the server went away before answering (an upgrade's exec, or a crash whose
    /// panes a new server takes over) is asked again of the server that answers next: a read
    /// changes nothing, so asking twice is safe. An acknowledged write is asked again as a
    /// retry under its operation id, which no server types twice (see [`ask_again`]); any
    /// other write is never sent twice.
    pub fn request<T: DeserializeOwned>(
        &mut self,
        message: ClientMessage,
    ) -> Result<T, ClientError> {
        let again = (self.route.is_none() && self.remote.is_none())
            .then(|| ask_again(&message))
            .flatten();
        match (self.request_once(message), again) {
            (Err(cut @ ClientError::ServerDisconnected { .. }), Some(message)) => {
                // Asked of each next server until one answers (a dying server's listener may
                // still take a connection it never serves); no server to ask: the first
                // answer, that it went away, stands.
                let deadline = std::time::Instant::now() + RECONNECT_WAIT;
                loop {
                    if self.reconnect().is_err() {
                        return Err(cut);
                    }
                    match self.request_once(message.clone()) {
                        Err(ClientError::ServerDisconnected { .. })
                            if std::time::Instant::now() < deadline =>
                        {
                            std::thread::sleep(Duration::from_millis(20));
                        }
                        other => return other,
                    }
                }
            }
            (answer, _) => answer,
        }
    }

    /// A fresh connection to the server that answers on the socket now, in place of this one
    /// (typing as the same actor).
    fn reconnect(&mut self) -> Result<(), ClientError> {
        let deadline = std::time::Instant::now() + RECONNECT_WAIT;
        loop {
            let attempt = Client::connect(&self.socket).and_then(|mut client| {
                client.welcome()?;
                Ok(client)
            });
            match attempt {
                Ok(mut client) => {
                    client.actor = self.actor.take();
                    *self = client;
                    return Ok(());
                }
                Err(e @ ClientError::NoServer { .. }) => return Err(e),
                Err(e) if std::time::Instant::now() >= deadline => return Err(e),
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    }

    fn request_once<T: DeserializeOwned>(
        &mut self,
        message: ClientMessage,
    ) -> Result<T, ClientError> {
        let id = self.next_id;
        self.next_id += 1;
        let message = with_actor(message, self.actor.as_deref());
        let message = with_id(message, id).ok_or_else(|| ClientError::Transport {
            socket: self.socket.clone(),
            message: "only requests can be sent with `request`".to_owned(),
        })?;
        let sent = Frame::json(&message)
            .and_then(|frame| frame.encode())
            .and_then(|bytes| {
                let mut out = self.unsent_hello.take().unwrap_or_default();
                out.extend_from_slice(&bytes);
                (&self.stream).write_all(&out).map_err(WireError::Io)
            });
        // A server that refused the hello has hung up: its refusal says more than the failed
        // write does.
        self.welcome()?;
        let wire = |e| ClientError::from_wire(&self.socket, e);
        sent.map_err(wire)?;
        let mut reader = FrameReader::new(&self.stream);
        loop {
            let frame = reader.read_frame().map_err(wire)?;
            let Frame::Json(_) = frame else { continue };
            match frame.decode::<ServerMessage>().map_err(wire)? {
                // Id 0 is the server's answer to a request whose id it could not read: one it
                // does not know (a server older than this client: `server_too_old`), or a
                // frame it could not take. Requests here go one at a time, so it is ours.
                ServerMessage::Response(response)
                    if response.id == id
                        || (response.id == 0 && matches!(response.outcome, Outcome::Error(_))) =>
                {
                    let route = self.route.as_deref();
                    return response
                        .into_result::<T>()
                        .map_err(wire)?
                        .map_err(|body| ClientError::from_body(routed_miss(body, route)));
                }
                ServerMessage::Welcome(_) | ServerMessage::Refused(_) => {
                    return Err(wire(WireError::Unexpected(
                        "a handshake message in answer to a request",
                    )))
                }
                // Another request's answer, pushed events, lag notices, newer message types.
                _ => continue,
            }
        }
    }

    /// The server's state (`get_state`), which selectors are resolved against.
    /// Reads the next frame of a stream (after `subscribe` or `observe` was answered). Blocks
    /// up to the read timeout; call it from a thread of its own to wait on other things too.
    pub fn read_frame(&mut self) -> Result<Frame, ClientError> {
        self.welcome()?;
        FrameReader::new(&self.stream)
            .read_frame()
            .map_err(|e| ClientError::from_wire(&self.socket, e))
    }

    /// The connection itself, for a stream read with a buffer of its own (a recorder reads
    /// tens of thousands of frames).
    pub fn into_stream(self) -> UnixStream {
        self.stream
    }

    pub fn state(&mut self) -> Result<StateView, ClientError> {
        self.request(ClientMessage::GetState(IdOnly { id: 0 }))
    }

    /// A hub's state with every satellite's terminals merged in (`get_fleet`).
    pub fn fleet(&mut self) -> Result<StateView, ClientError> {
        self.request(ClientMessage::GetFleet(IdOnly { id: 0 }))
    }

    /// Turns this connection to a hub into one to the satellite `satellite`'s server: every
    /// request after this goes there (starting with a fresh hello, sent with the next request).
    pub fn tunnel(&mut self, satellite: &str) -> Result<(), ClientError> {
        let _: phux_core::wire::Done = self.request(ClientMessage::Tunnel(Tunnel {
            id: 0,
            satellite: satellite.to_owned(),
        }))?;
        let wire = |e| ClientError::from_wire(&self.socket, e);
        self.unsent_hello = Some(encoded_hello().map_err(wire)?);
        self.welcome = None;
        self.next_id = 1;
        self.route = Some(satellite.to_owned());
        Ok(())
    }

    /// Whether this connection reaches the local server itself (no satellite route, no remote
    /// host's link).
    pub fn is_local(&self) -> bool {
        self.route.is_none() && self.remote.is_none()
    }

    /// The satellite this connection reaches through the hub (`None`: the hub's own server).
    pub fn route(&self) -> Option<&str> {
        self.route.as_deref()
    }

    /// A second connection to the same server as this one: the same socket, tunnelled to the
    /// same satellite, or the same remote host's link (for a stream beside requests).
    pub fn sibling(&self) -> Result<Client, ClientError> {
        let mut sibling = match &self.remote {
            Some((name, endpoint)) => Client::connect_remote(name, endpoint)?,
            None => Client::connect_routed(&self.socket, self.route.as_deref())?,
        };
        sibling.actor = self.actor.clone();
        Ok(sibling)
    }

    /// A connection to the server of the `[[remote]]` host `name`, over an ssh link this
    /// process runs (`ssh … HOST phux proxy`), not through a local server.
    pub fn connect_remote(
        name: &str,
        endpoint: &phux_core::hosts::Endpoint,
    ) -> Result<Client, ClientError> {
        let stream = crate::remote_link::connect(name, endpoint)?;
        let socket = PathBuf::from(endpoint.to_string());
        let wire = |e| ClientError::from_wire(&socket, e);
        stream
            .set_read_timeout(Some(DEFAULT_READ_TIMEOUT))
            .map_err(|e| wire(WireError::Io(e)))?;
        let hello = encoded_hello().map_err(wire)?;
        Ok(Client {
            stream,
            socket,
            unsent_hello: Some(hello),
            welcome: None,
            next_id: 1,
            route: None,
            remote: Some((name.to_owned(), endpoint.clone())),
            actor: actor_from_env(),
        })
    }

    /// A connection to `socket`, tunnelled on to `route`'s server when given.
    pub fn connect_routed(socket: &Path, route: Option<&str>) -> Result<Client, ClientError> {
        let mut client = Client::connect(socket)?;
        if let Some(satellite) = route {
            client.tunnel(satellite)?;
        }
        Ok(client)
    }
}

/// A satellite's "no such target: @N" names the pane as the hub addresses it, `NAME/@N`.
fn routed_miss(
    mut body: phux_core::wire::WireErrorBody,
    route: Option<&str>,
) -> phux_core::wire::WireErrorBody {
    if let (Some(host), Some(rest)) = (route, body.message.strip_prefix("no such target: @")) {
        body.message = format!("no such target: {host}/@{rest}");
    }
    body
}

fn encoded_hello() -> Result<Vec<u8>, WireError> {
    let hello = ClientMessage::Hello(Hello {
        protocol: PROTOCOL,
        client: concat!("phux-cli ", env!("CARGO_PKG_VERSION")).to_owned(),
        read_only: std::env::var("PHUX_READ_ONLY").is_ok_and(|v| v == "1"),
    });
    Frame::json(&hello).and_then(|f| f.encode())
}

/// A raw connection to `socket` (no handshake), with the same checks as [`Client::connect`]:
/// the socket's directory is private and the server runs as this user. `phux proxy` carries
/// such connections for a hub.
pub fn checked_stream(socket: &Path) -> Result<UnixStream, ClientError> {
    let stream = UnixStream::connect(socket).map_err(|e| connect_error(socket, e))?;
    trust::check_socket_path(socket)?;
    trust::check_peer(socket, &stream)?;
    Ok(stream)
}

/// Nothing listening and no socket file are both "no server"; anything else (permissions, a
/// path too long) is a transport failure worth its own message.
fn connect_error(socket: &Path, error: std::io::Error) -> ClientError {
    const ENOTDIR: i32 = 20;
    let nothing_there = matches!(
        error.kind(),
        ErrorKind::NotFound | ErrorKind::ConnectionRefused
    ) || error.raw_os_error() == Some(ENOTDIR);
    if nothing_there {
        ClientError::NoServer {
            socket: socket.to_path_buf(),
            detail: None,
        }
    } else {
        ClientError::Transport {
            socket: socket.to_path_buf(),
            message: format!("cannot connect: {error}"),
        }
    }
}

/// `message` with its id set to `id`; `None` for messages that are not requests.
/// Input and pastes say who types, unless they already do.
fn with_actor(mut message: ClientMessage, actor: Option<&str>) -> ClientMessage {
    let slot = match &mut message {
        ClientMessage::Input(m) => &mut m.actor,
        ClientMessage::Paste(m) => &mut m.actor,
        _ => return message,
    };
    if slot.is_none() {
        *slot = actor.map(str::to_owned);
    }
    message
}

fn with_id(mut message: ClientMessage, id: u64) -> Option<ClientMessage> {
    use ClientMessage::*;
    let slot = match &mut message {
        Hello(_) | Unknown => return None,
        GetState(m) | Status(m) | KillServer(m) | GetFleet(m) | Upgrade(m) => &mut m.id,
        RemoteConnections(m) => &mut m.id,
        RemoteDisconnect(m) => &mut m.id,
        Listen(m) => &mut m.id,
        TapInput(m) => &mut m.id,
        Tunnel(m) => &mut m.id,
        ClaimRun(m) => &mut m.id,
        ReleaseRun(m) => &mut m.id,
        Lease(m) => &mut m.id,
        NewSession(m) => &mut m.id,
        Spawn(m) => &mut m.id,
        Kill(m) => &mut m.id,
        KillWindow(m) => &mut m.id,
        KillSession(m) => &mut m.id,
        RenameSession(m) => &mut m.id,
        Resize(m) => &mut m.id,
        Signal(m) => &mut m.id,
        TagsGet(m) | TagsAdd(m) | TagsRemove(m) => &mut m.id,
        Input(m) => &mut m.id,
        Paste(m) => &mut m.id,
        GetScreen(m) => &mut m.id,
        Subscribe(m) => &mut m.id,
        Observe(m) => &mut m.id,
        InsertPane(m) => &mut m.id,
        MovePane(m) => &mut m.id,
        SwapPane(m) => &mut m.id,
        ReportAsked(m) => &mut m.id,
        AskAnswered(m) => &mut m.id,
        ShellState(m) => &mut m.id,
        AttachClient(m) => &mut m.id,
        ClientResize(m) => &mut m.id,
        DetachClients(m) => &mut m.id,
        SelectPane(m) => &mut m.id,
        NewWindow(m) => &mut m.id,
        RenameWindow(m) => &mut m.id,
        SetSplitRatio(m) => &mut m.id,
        MetadataGet(m) => &mut m.id,
        MetadataSet(m) => &mut m.id,
        AgentSet(m) => &mut m.id,
        AgentClear(m) => &mut m.id,
        AgentReportState(m) => &mut m.id,
        AgentInspect(m) => &mut m.id,
    };
    *slot = id;
    Some(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_id_replaces_the_id_of_a_request() {
        let message = with_id(ClientMessage::GetState(IdOnly { id: 0 }), 9);
        assert_eq!(message.and_then(|m| m.id()), Some(9));
    }

    #[test]
    fn with_id_refuses_a_hello() {
        let hello = ClientMessage::Hello(Hello {
            protocol: PROTOCOL,
            client: "t".into(),
            read_only: false,
        });
        assert!(with_id(hello, 1).is_none());
    }

    #[test]
    fn missing_socket_file_is_no_server() {
        let dir = tempfile::tempdir().unwrap();
        let err = Client::connect(&dir.path().join("nope.sock")).unwrap_err();
        assert!(matches!(err, ClientError::NoServer { .. }), "{err:?}");
    }

    #[test]
    fn stale_socket_file_is_no_server() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stale.sock");
        drop(std::os::unix::net::UnixListener::bind(&path).unwrap());
        let err = Client::connect(&path).unwrap_err();
        assert!(matches!(err, ClientError::NoServer { .. }), "{err:?}");
    }

    /// A server older than this client answers a request it does not know with id 0 (it
    /// could not read the id): that answer is this request's, at once, not a wait until the
    /// read timeout. The server here speaks the protocol as such a server would.
    #[test]
    fn an_unknown_request_s_answer_without_an_id_is_server_too_old() {
        use phux_core::wire::{negotiate, FrameWriter, Response, WireErrorBody};
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(
            dir.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o700),
        )
        .unwrap();
        let path = dir.path().join("old.sock");
        let listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
        let server = std::thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            let mut reader = FrameReader::new(&stream);
            let mut writer = FrameWriter::new(&stream);
            let hello: ClientMessage = reader.read_frame().unwrap().decode().unwrap();
            let ClientMessage::Hello(hello) = hello else {
                panic!("not a hello")
            };
            writer.send(&negotiate(&hello, "0.0.1", 1)).unwrap();
            let _request = reader.read_frame().unwrap();
            let body = WireErrorBody::new(
                phux_core::error_code::ErrorCode::ServerTooOld,
                "the server does not understand this request",
                "upgrade the server",
            );
            writer
                .send(&ServerMessage::Response(Response::error(0, body)))
                .unwrap();
            // Held open: the client must not wait for more.
            std::thread::sleep(Duration::from_secs(3));
        });
        let mut client = Client::connect_running(&path).unwrap();
        client
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let started = std::time::Instant::now();
        let answer = client.request::<serde_json::Value>(ClientMessage::GetState(IdOnly { id: 0 }));
        let err = answer.unwrap_err();
        assert!(
            matches!(
                &err,
                ClientError::Server {
                    code: phux_core::error_code::ErrorCode::ServerTooOld,
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "answered, not timed out"
        );
        server.join().unwrap();
    }
}
