//! One satellite's link: an actor thread that runs `ssh … HOST phux proxy`, checks the proxy's
//! and the satellite server's protocol versions, serves the link until it drops, and dials
//! again after a capped exponential backoff. Its state is what listings read.

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use phux_core::hosts::link_frame::{self, LinkFrame, ProxyHello, CONTROL_CHANNEL};
use phux_core::hosts::{Endpoint, Scheme, WssAuth};
use phux_core::wire::PROTOCOL;

use super::control::{ControlClient, ControlError};
use super::session::Session;

/// The first wait before dialing again, doubled after each failure up to [`MAX_BACKOFF`].
pub const FIRST_BACKOFF: Duration = Duration::from_millis(250);
pub const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// How long the far side has to start `phux proxy` and say hello.
pub const HELLO_LIMIT: Duration = Duration::from_secs(20);
/// The pipe size asked for on the link's stdin and stdout.
pub const LINK_PIPE_BYTES: usize = 1024 * 1024;
/// A link that stayed up this long starts its next backoff from the beginning.
const STABLE: Duration = Duration::from_secs(10);

#[derive(Debug, Clone)]
pub enum LinkState {
    Connecting {
        previous: Option<String>,
    },
    Up(Arc<Session>),
    BackingOff {
        diagnostic: String,
    },
    /// The satellite speaks another protocol: it is dialed again only slowly.
    Refused {
        diagnostic: String,
    },
}

#[derive(Debug)]
pub struct Link {
    pub name: String,
    pub endpoint: Endpoint,
    /// The config file, for its `[defaults] ssh`.
    config: Option<std::path::PathBuf>,
    /// A `wss://` satellite's token file and pinned fingerprint.
    wss: Option<WssAuth>,
    state: Mutex<LinkState>,
    stopped: AtomicBool,
}

impl Link {
    /// Starts the link's actor.
    pub fn start(
        name: String,
        endpoint: Endpoint,
        config: Option<std::path::PathBuf>,
        wss: Option<WssAuth>,
    ) -> Arc<Link> {
        let link = Arc::new(Link {
            name,
            endpoint,
            config,
            wss,
            state: Mutex::new(LinkState::Connecting { previous: None }),
            stopped: AtomicBool::new(false),
        });
        let actor = Arc::clone(&link);
        let spawned = std::thread::Builder::new()
            .name(format!("hub-link-{}", link.name))
            .spawn(move || actor.run());
        if let Err(e) = spawned {
            link.set(LinkState::BackingOff {
                diagnostic: format!("cannot start its thread: {e}"),
            });
        }
        link
    }

    fn state(&self) -> MutexGuard<'_, LinkState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn set(&self, state: LinkState) {
        *self.state() = state;
    }

    /// The live session, when the link is up.
    pub fn session(&self) -> Option<Arc<Session>> {
        match &*self.state() {
            LinkState::Up(session) => Some(Arc::clone(session)),
            _ => None,
        }
    }

    /// Why the link is not up (`None` when it is): one `unreachable` entry.
    pub fn down_diagnostic(&self) -> Option<String> {
        let why = match &*self.state() {
            LinkState::Up(_) => return None,
            LinkState::Connecting { previous: None } => "the link is still connecting".to_owned(),
            LinkState::Connecting {
                previous: Some(why),
            } => format!("reconnecting after: {why}"),
            LinkState::BackingOff { diagnostic } | LinkState::Refused { diagnostic } => {
                diagnostic.clone()
            }
        };
        Some(format!("satellite {} is unreachable: {why}", self.name))
    }

    /// Whether the satellite was refused for its protocol version.
    pub fn refused(&self) -> bool {
        matches!(&*self.state(), LinkState::Refused { .. })
    }

    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
        if let Some(session) = self.session() {
            session.end();
        }
    }

    fn run(self: Arc<Self>) {
        let mut backoff = FIRST_BACKOFF;
        while !self.stopped.load(Ordering::Relaxed) {
            let started = Instant::now();
            let served = self
                .dial()
                .and_then(|(session, stdout)| self.serve(session, stdout));
            let (diagnostic, refused) = match served {
                Ok(reason) => (format!("the link dropped: {reason}"), false),
                Err(Dial::Failed(why)) => (why, false),
                Err(Dial::Refused(why)) => (why, true),
            };
            if self.stopped.load(Ordering::Relaxed) {
                return;
            }
            crate::log::line(&format!("satellite {}: {diagnostic}", self.name));
            if started.elapsed() >= STABLE {
                backoff = FIRST_BACKOFF;
            }
            let wait = if refused { MAX_BACKOFF } else { backoff };
            self.set(if refused {
                LinkState::Refused { diagnostic }
            } else {
                LinkState::BackingOff { diagnostic }
            });
            self.sleep(wait);
            backoff = (backoff * 2).min(MAX_BACKOFF);
            let previous = self.down_diagnostic();
            self.set(LinkState::Connecting { previous });
        }
    }

    fn sleep(&self, total: Duration) {
        let end = Instant::now() + total;
        while !self.stopped.load(Ordering::Relaxed) && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(50).min(end - Instant::now()));
        }
    }

    /// Pumps the link, says hello to the satellite's server (its protocol is checked there
    /// too), marks the link up and serves it until it drops; returns why it did.
    fn serve(
        &self,
        session: Arc<Session>,
        stdout: std::process::ChildStdout,
    ) -> Result<String, Dial> {
        let (tx, rx) = crossbeam_channel::bounded(1);
        let pumping = Arc::clone(&session);
        std::thread::Builder::new()
            .name(format!("hub-pump-{}", self.name))
            .spawn(move || {
                let _ = tx.send(pumping.pump(stdout));
            })
            .map_err(|e| {
                session.end();
                Dial::Failed(format!("cannot start a thread: {e}"))
            })?;
        match ControlClient::open(&session) {
            Ok(control) => {
                *session.control.lock().unwrap_or_else(|p| p.into_inner()) = Some(control);
            }
            Err(ControlError::Refused(why)) => {
                session.end();
                return Err(Dial::Refused(format!("its server refused this hub: {why}")));
            }
            Err(ControlError::Failed(why)) => {
                session.end();
                return Err(Dial::Failed(why));
            }
        }
        self.set(LinkState::Up(Arc::clone(&session)));
        crate::log::line(&format!("satellite {}: link up", self.name));
        Ok(rx
            .recv()
            .unwrap_or_else(|_| "the link's reader stopped".to_owned()))
    }

    fn dial(&self) -> Result<(Arc<Session>, std::process::ChildStdout), Dial> {
        dial(&self.endpoint, self.config.as_deref(), self.wss.as_ref())
    }
}

/// Runs `ssh … HOST phux proxy` (or, for `wss://`, `phux __remote-link`, which carries the
/// same link over the host's listener) and checks the proxy's hello: the session, not yet
/// pumped.
pub fn dial(
    endpoint: &Endpoint,
    config: Option<&std::path::Path>,
    wss: Option<&WssAuth>,
) -> Result<(Arc<Session>, std::process::ChildStdout), Dial> {
    let via = match endpoint.scheme {
        Scheme::Ssh => "ssh",
        Scheme::Wss => "the wss link",
    };
    let (program, args) = match endpoint.scheme {
        Scheme::Ssh => {
            let (program, mut args) = phux_core::hosts::ssh::ssh_program(config);
            args.extend(endpoint.ssh_args(&["phux", "proxy"]));
            (program, args)
        }
        Scheme::Wss => {
            let auth = wss.ok_or_else(|| {
                Dial::Failed(format!(
                    "{endpoint} needs token_file and cert_fingerprint in its entry"
                ))
            })?;
            let program = std::env::current_exe()
                .map_err(|e| Dial::Failed(format!("cannot find this phux binary: {e}")))?
                .display()
                .to_string();
            let args = vec![
                "__remote-link".to_owned(),
                endpoint.to_string(),
                "--token-file".to_owned(),
                auth.token_file.clone(),
                "--fingerprint".to_owned(),
                auth.fingerprint.clone(),
            ];
            (program, args)
        }
    };
    let mut child = Command::new(&program)
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Dial::Failed(format!("cannot run {program}: {e}")))?;
    let (Some(stdin), Some(mut stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(Dial::Failed("ssh's pipes are missing".into()));
    };
    // A wider pipe lets a whole 256 KiB frame through per wake-up (best effort).
    let _ = rustix::pipe::fcntl_setpipe_size(&stdout, LINK_PIPE_BYTES);
    let _ = rustix::pipe::fcntl_setpipe_size(&stdin, LINK_PIPE_BYTES);
    let stderr_tail = collect_stderr(stderr);
    let session = Session::new(child, stdin);
    // The proxy's hello, read on a helper so a far side that never answers is cut off.
    let (tx, rx) = crossbeam_channel::bounded(1);
    let reader = std::thread::Builder::new()
        .name("hub-hello".into())
        .spawn(move || {
            let hello = link_frame::read_frame(&mut stdout);
            let _ = tx.send((hello, stdout));
        });
    if reader.is_err() {
        session.end();
        return Err(Dial::Failed("cannot start a thread".into()));
    }
    let failed = |session: &Session, why: String| {
        session.end();
        let said = stderr_tail
            .lock()
            .map(|s| s.trim().to_owned())
            .unwrap_or_default();
        if said.is_empty() {
            Dial::Failed(why)
        } else {
            Dial::Failed(format!("{why}; {via} said: {said}"))
        }
    };
    let (hello, stdout) = match rx.recv_timeout(HELLO_LIMIT) {
        Ok(got) => got,
        Err(_) => {
            return Err(failed(
                &session,
                format!(
                    "no answer from `phux proxy` within {}s",
                    HELLO_LIMIT.as_secs()
                ),
            ))
        }
    };
    let hello: ProxyHello = match hello {
        Ok(LinkFrame::Data { channel, bytes }) if channel == CONTROL_CHANNEL => {
            match serde_json::from_slice(&bytes) {
                Ok(hello) => hello,
                Err(_) => {
                    return Err(failed(
                        &session,
                        "the far side did not speak the phux proxy protocol".into(),
                    ))
                }
            }
        }
        Ok(_) => {
            return Err(failed(
                &session,
                "the far side did not speak the phux proxy protocol".into(),
            ))
        }
        Err(e) => {
            return Err(failed(
                &session,
                match endpoint.scheme {
                    Scheme::Ssh => format!(
                        "ssh ended before `phux proxy` answered ({e}): check that the host is \
                         reachable and that phux is on its PATH"
                    ),
                    Scheme::Wss => format!(
                        "the wss link ended before the listener answered ({e}): check the \
                         address, the token file and the fingerprint"
                    ),
                },
            ))
        }
    };
    if hello.protocol.major != PROTOCOL.major {
        session.end();
        return Err(Dial::Refused(format!(
            "it runs phux {} (protocol {}), this hub speaks protocol {PROTOCOL}: install a \
             phux of protocol {}.x there",
            hello.version, hello.protocol, PROTOCOL.major
        )));
    }
    Ok((session, stdout))
}

/// Why a dial failed: the far side could not be reached, or speaks another protocol.
#[derive(Debug)]
pub enum Dial {
    Failed(String),
    Refused(String),
}

impl std::fmt::Display for Dial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Dial::Failed(why) | Dial::Refused(why) => f.write_str(why),
        }
    }
}

/// The last KiB ssh wrote on stderr, for diagnostics.
fn collect_stderr(mut stderr: std::process::ChildStderr) -> Arc<Mutex<String>> {
    let tail = Arc::new(Mutex::new(String::new()));
    let sink = Arc::clone(&tail);
    let _ = std::thread::Builder::new()
        .name("hub-ssh-stderr".into())
        .spawn(move || {
            let mut buf = [0u8; 1024];
            while let Ok(n) = stderr.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Ok(mut tail) = sink.lock() {
                    tail.push_str(&String::from_utf8_lossy(&buf[..n]));
                    if tail.len() > 1024 {
                        let cut = tail.len() - 1024;
                        let cut = (cut..tail.len())
                            .find(|&i| tail.is_char_boundary(i))
                            .unwrap_or(0);
                        tail.drain(..cut);
                    }
                }
            }
        });
    tail
}
