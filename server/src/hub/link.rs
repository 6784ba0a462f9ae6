//! One satellite's link: an actor thread that dials `ssh … HOST phux proxy` (the transport is
//! `phux_core::hosts::link`), checks the satellite server's protocol version over the hub's
//! control connection, serves the link until it drops, and dials again after a capped
//! exponential backoff. Its state is what listings read.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use phux_core::hosts::link::{dial, Dial, Session};
use phux_core::hosts::{Endpoint, WssAuth};

use super::control::{ControlClient, ControlError};

/// The first wait before dialing again, doubled after each failure up to [`MAX_BACKOFF`].
pub const FIRST_BACKOFF: Duration = Duration::from_millis(250);
pub const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// A link that stayed up this long starts its next backoff from the beginning.
const STABLE: Duration = Duration::from_secs(10);

#[derive(Debug, Clone)]
pub enum LinkState {
    Connecting {
        previous: Option<String>,
    },
    /// The link's session and the hub's own connection to the satellite's server over it, for
    /// listings.
    Up {
        session: Arc<Session>,
        control: Arc<Mutex<ControlClient>>,
    },
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
            LinkState::Up { session, .. } => Some(Arc::clone(session)),
            _ => None,
        }
    }

    /// The hub's control connection to the satellite's server, when the link is up.
    pub(crate) fn control(&self) -> Option<Arc<Mutex<ControlClient>>> {
        match &*self.state() {
            LinkState::Up { control, .. } => Some(Arc::clone(control)),
            _ => None,
        }
    }

    /// Why the link is not up (`None` when it is): one `unreachable` entry.
    pub fn down_diagnostic(&self) -> Option<String> {
        let why = match &*self.state() {
            LinkState::Up { .. } => return None,
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
        let control = match ControlClient::open(&session) {
            Ok(control) => control,
            Err(ControlError::Refused(why)) => {
                session.end();
                return Err(Dial::Refused(format!("its server refused this hub: {why}")));
            }
            Err(ControlError::Failed(why)) => {
                session.end();
                return Err(Dial::Failed(why));
            }
        };
        self.set(LinkState::Up {
            session: Arc::clone(&session),
            control: Arc::new(Mutex::new(control)),
        });
        crate::log::line(&format!("satellite {}: link up", self.name));
        Ok(rx
            .recv()
            .unwrap_or_else(|_| "the link's reader stopped".to_owned()))
    }

    fn dial(&self) -> Result<(Arc<Session>, std::process::ChildStdout), Dial> {
        dial(&self.endpoint, self.config.as_deref(), self.wss.as_ref())
    }
}
