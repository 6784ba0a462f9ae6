//! The hub's end of a link over `wss://`: TLS to the satellite's listener with its
//! certificate pinned by fingerprint (no certificate authority is asked), a WebSocket to
//! `/link` with the bearer token in a header, then the link's bytes carried between this
//! process's stdin and stdout and the WebSocket — what `ssh HOST phux proxy` carries for an
//! ssh link. The hub runs it as `phux remote-link` (see `hub::link`).

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_rustls::rustls;
use tokio_rustls::rustls::client::danger::{
    HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier,
};
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use tokio_rustls::rustls::{DigitallySignedStruct, SignatureScheme};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

use phux_core::hosts::{Endpoint, Scheme};

use super::cert::{fingerprint_of, normalized_fingerprint};

/// How long TLS and the upgrade may take.
pub const CONNECT_DEADLINE: Duration = Duration::from_secs(15);

/// Accepts exactly one certificate: the one whose SHA-256 is the pinned fingerprint.
#[derive(Debug)]
struct Pinned {
    fingerprint: String,
    provider: Arc<rustls::crypto::CryptoProvider>,
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let seen = normalized_fingerprint(&fingerprint_of(end_entity.as_ref()));
        if seen == self.fingerprint {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::General(format!(
                "the certificate's fingerprint is {}, not the pinned one",
                fingerprint_of(end_entity.as_ref())
            )))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

/// The port a `wss://` endpoint without one is dialed on.
pub const DEFAULT_PORT: u16 = 443;

/// Where a `wss://` endpoint (`Endpoint::parse` checked it) is dialed: host and port.
struct Addr {
    host: String,
    port: u16,
}

/// Dials `endpoint`'s `/link` and carries stdin/stdout over it until either side ends.
pub fn link_stdio(endpoint: &Endpoint, token: &str, fingerprint: &str) -> Result<(), String> {
    let (addr, pinned) = target(endpoint, fingerprint)?;
    block_on(async move {
        let ws = connect_in_time(&addr, token, pinned).await?;
        carry(ws).await
    })
}

/// Dials `endpoint`'s `/link` once and returns the far side's first message (its proxy
/// hello, as link frames), then hangs up: `host enroll` checks a link this way before it keeps
/// anything.
pub fn first_link_bytes(
    endpoint: &Endpoint,
    token: &str,
    fingerprint: &str,
) -> Result<Vec<u8>, String> {
    let (addr, pinned) = target(endpoint, fingerprint)?;
    block_on(async move {
        let mut ws = connect_in_time(&addr, token, pinned).await?;
        let first = tokio::time::timeout(CONNECT_DEADLINE, ws.next())
            .await
            .map_err(|_| format!("wss://{}:{} said nothing in time", addr.host, addr.port))?;
        let _ = ws.close(None).await;
        match first {
            Some(Ok(Message::Binary(bytes))) => Ok(bytes.to_vec()),
            Some(Ok(Message::Close(frame))) => Err(format!(
                "the listener closed the link {}",
                frame.map(|f| f.reason.to_string()).unwrap_or_default()
            )),
            Some(Ok(_)) => Err("the listener's first message is not a link frame".into()),
            Some(Err(e)) => Err(e.to_string()),
            None => Err("the listener closed the link".into()),
        }
    })
}

/// Where `endpoint` is dialed, and the pinned fingerprint, checked.
fn target(endpoint: &Endpoint, fingerprint: &str) -> Result<(Addr, String), String> {
    if endpoint.scheme != Scheme::Wss {
        return Err(format!("{endpoint} is not a wss:// address"));
    }
    let addr = Addr {
        host: endpoint
            .host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned(),
        port: endpoint.port.unwrap_or(DEFAULT_PORT),
    };
    let pinned = normalized_fingerprint(fingerprint);
    if pinned.len() != 64 {
        return Err(format!(
            "{fingerprint:?} is not a SHA-256 fingerprint (64 hex digits, colons allowed)"
        ));
    }
    Ok((addr, pinned))
}

fn block_on<T>(work: impl std::future::Future<Output = Result<T, String>>) -> Result<T, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| e.to_string())?
        .block_on(work)
}

async fn connect_in_time(addr: &Addr, token: &str, pinned: String) -> Result<Wss, String> {
    tokio::time::timeout(CONNECT_DEADLINE, connect(addr, token, pinned, "/link"))
        .await
        .map_err(|_| format!("no answer from wss://{}:{} in time", addr.host, addr.port))?
}

type Wss =
    tokio_tungstenite::WebSocketStream<tokio_rustls::client::TlsStream<tokio::net::TcpStream>>;

async fn connect(addr: &Addr, token: &str, pinned: String, path: &str) -> Result<Wss, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(Pinned {
            fingerprint: pinned,
            provider,
        }))
        .with_no_client_auth();
    let tcp = tokio::net::TcpStream::connect((addr.host.as_str(), addr.port))
        .await
        .map_err(|e| format!("cannot reach {}:{}: {e}", addr.host, addr.port))?;
    let _ = tcp.set_nodelay(true);
    let name = ServerName::try_from(addr.host.clone()).map_err(|e| e.to_string())?;
    let tls = tokio_rustls::TlsConnector::from(Arc::new(config))
        .connect(name, tcp)
        .await
        .map_err(|e| format!("TLS with {}:{} failed: {e}", addr.host, addr.port))?;
    let url = format!("wss://{}:{}{path}", addr.host, addr.port);
    let mut request = url.into_client_request().map_err(|e| e.to_string())?;
    request.headers_mut().insert(
        "Authorization",
        format!("Bearer {token}")
            .parse()
            .map_err(|_| "the token is not a header value".to_owned())?,
    );
    let config = WebSocketConfig::default()
        .max_message_size(Some(super::listener::MAX_MESSAGE * 2))
        .max_frame_size(Some(super::listener::MAX_MESSAGE * 2));
    let (ws, _) = tokio_tungstenite::client_async_with_config(request, tls, Some(config))
        .await
        .map_err(|e| match e {
            tokio_tungstenite::tungstenite::Error::Http(response) => {
                let body = response
                    .body()
                    .as_ref()
                    .map(|b| String::from_utf8_lossy(b).trim().to_owned())
                    .unwrap_or_default();
                format!("the listener refused: {} {body}", response.status())
            }
            other => format!("the WebSocket upgrade failed: {other}"),
        })?;
    Ok(ws)
}

async fn carry(ws: Wss) -> Result<(), String> {
    let (mut sink, mut source) = ws.split();
    let upstream = async move {
        let mut stdin = tokio::io::stdin();
        let mut buf = vec![0u8; 256 * 1024];
        loop {
            let n = stdin.read(&mut buf).await.map_err(|e| e.to_string())?;
            if n == 0 {
                let _ = sink.close().await;
                return Ok::<(), String>(());
            }
            sink.send(Message::binary(buf[..n].to_vec()))
                .await
                .map_err(|e| e.to_string())?;
        }
    };
    let downstream = async move {
        let mut stdout = tokio::io::stdout();
        while let Some(message) = source.next().await {
            match message.map_err(|e| e.to_string())? {
                Message::Binary(bytes) => {
                    stdout.write_all(&bytes).await.map_err(|e| e.to_string())?;
                    stdout.flush().await.map_err(|e| e.to_string())?;
                }
                Message::Close(frame) => {
                    let why = frame.map(|f| f.reason.to_string()).unwrap_or_default();
                    return Err(format!("the listener closed the link {why}"));
                }
                _ => {}
            }
        }
        Ok(())
    };
    tokio::select! {
        result = upstream => result,
        result = downstream => result,
    }
}
