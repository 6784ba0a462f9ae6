//! phux-server: the daemon: socket, sessions/windows/panes, PTYs, pane cores, event bus.
//!
//! Threads, not an async runtime: one per client connection (kept waiting for the next one
//! afterwards, see `acceptors`), and per pane a core (which feeds the engine terminal all the
//! pane's output), a PTY reader, a PTY writer and a waiter. Every call on a terminal holds its
//! lock, so calls are serialized as the engine requires; the pane core makes all but the reads,
//! which a connection thread makes itself (see `pane::PaneHandle`).

#![forbid(unsafe_code)]

mod acceptors;
mod admission;
pub mod agents;
mod attached;
pub mod bus;
pub mod clients;
pub mod config;
mod connection;
mod delivery;
mod event_ring;
pub mod exited;
pub mod flight;
mod frame_intake;
mod handlers;
mod handoff;
pub mod hooks;
pub mod hub;
pub mod input_tap;
pub mod keeper;
pub mod leases;
pub mod log;
mod packed;
pub mod pane;
pub use phux_core::plugin_exec;
mod program;
pub mod pty;
pub mod remote;
mod request_error;
mod run_slots;
pub mod session_tree;
pub mod shared;
pub mod shell;
pub mod shim;
pub mod socket;
pub mod split_tree;
mod stream_gather;
mod streams;
mod viewer_stream;

pub use config::ServerConfig;
pub use socket::SocketError;

use crossbeam_channel::{bounded, RecvTimeoutError};
use shared::Shared;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a stopping server keeps delivering what it already queued.
const SHUTDOWN_GRACE: Duration = Duration::from_millis(200);
/// How long a stopping server waits for plugin hooks already queued (a last `pane.exited`).
const HOOK_GRACE: Duration = Duration::from_secs(5);

#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error(transparent)]
    Socket(#[from] SocketError),
    #[error("cannot start the first session: {0}")]
    Seed(String),
    #[error("the terminal engine is unavailable: {0}")]
    Engine(#[from] phux_core::engine::EngineError),
    #[error("cannot take over from the previous server process: {0}")]
    Adopt(std::io::Error),
}

/// Runs a server until `kill --server`, its last pane exiting, or its idle limit.
pub fn run(config: ServerConfig) -> Result<(), ServerError> {
    // Every thread the server starts inherits a short scheduler slice; a flooding pane's
    // threads take a long one while the flood lasts (see `phux_core::sched_slice`).
    phux_core::sched_slice::ask_short();
    // Take the socket's lock first: a server that lost a start-up race exits before loading
    // anything. Then load (or install) the engine before binding, so a broken engine is
    // reported to whoever started us instead of surfacing as failed panes.
    // A server started by `phux upgrade` inherits its socket (and the lock) instead.
    let (bound, inheritance) = match config.adopt.clone() {
        Some(manifest) => {
            let phases = handoff::Phases::start("new");
            // Loaded while the manifest is read and the descriptors received; the terminals'
            // restores wait for it.
            let loading = std::thread::Builder::new()
                .name("engine-load".into())
                .spawn(|| drop(phux_core::engine::engine()));
            let (bound, mut inheritance) =
                handoff::receive(&manifest, config.socket.clone(), phases)
                    .map_err(ServerError::Adopt)?;
            drop(loading);
            phux_core::engine::engine()?;
            inheritance.lap("engine (waited for)");
            (bound, Some(inheritance))
        }
        None => {
            let claim = socket::claim(&config.socket)?;
            phux_core::engine::engine()?;
            (claim.bind()?, None)
        }
    };
    handoff::remember_socket(&bound);
    // SIGTERM (`systemctl stop`, `kill PID`) stops the server as `kill --server` does: the
    // socket unlinked, every pane hung up. Without it the process died with its socket file
    // left behind.
    let terminated = Arc::new(AtomicBool::new(false));
    if let Err(e) =
        signal_hook::flag::register(signal_hook::consts::SIGTERM, Arc::clone(&terminated))
    {
        log::line(&format!("cannot catch SIGTERM: {e}"));
    }
    let (shutdown_tx, shutdown_rx) = bounded(1);
    let mut shared = Shared::new(config, shutdown_tx);
    // An adopted server's clock goes on from the old one's: times it carries stay valid.
    let epoch = inheritance.as_ref().and_then(handoff::Inheritance::epoch);
    if let Some(epoch) = epoch {
        shared.epoch = epoch;
    }
    let shared = Arc::new(shared);
    let mut adopted = inheritance.is_some();
    let mut listen_at = shared.config.ws_addr.clone();
    if let Some(inheritance) = inheritance {
        handoff::adopt(&shared, inheritance, epoch.is_some());
    } else {
        // Panes a previous server left with their keepers (it crashed, or an upgrade's new
        // binary never took over) come back before anyone is served, and its listener with them.
        let recovered = keeper::recover(&shared);
        adopted = recovered.panes > 0;
        listen_at = listen_at.or(recovered.listener);
    }
    keeper::state_file::start_writer(&shared);
    log::line(&format!("listening on {}", bound.path().display()));
    let listener = bound.listener.try_clone().map_err(|e| SocketError::Io {
        path: bound.path().into(),
        source: e,
    })?;
    acceptors::start(listener, &shared).map_err(|e| SocketError::Io {
        path: shared.config.socket.clone(),
        source: e,
    })?;
    // A file a crashed server left names no listener of this one until it listens.
    phux_core::config::listener::RunningListener::remove(&shared.config.socket);
    if let Some(settings) = remote::Settings::configured(listen_at) {
        // A listener that cannot start is logged; the local socket serves on.
        if let Err(why) = remote::start(&shared, &settings) {
            log::line(&format!("remote: not listening: {why}"));
        }
    }
    if shared.config.seed_session && !adopted {
        seed(&shared)?;
    }
    wait_for_shutdown(&shared, &shutdown_rx, &terminated);
    shared.mark_stopping();
    shared.hub.stop();
    // Nothing of this server may look like panes waiting to be taken over: a client that sees
    // none does not start a server in the middle of this stop.
    keeper::withdraw(&shared.config.socket);
    keeper::state_file::remove(&shared.config.socket);
    phux_core::config::listener::RunningListener::remove(&shared.config.socket);
    // Unlink the socket and release the lock (and the copy kept for an upgrade) first, so a
    // `phux server` or `phux new` now starts a new server instead of talking to this one; then
    // let connection threads deliver what is already queued (the `kill --server` answer, a
    // recorder's last output and the exit).
    handoff::forget_socket();
    drop(bound);
    std::thread::sleep(SHUTDOWN_GRACE);
    close_everything(&shared);
    shared.hooks.drain(HOOK_GRACE);
    log::line("stopped");
    Ok(())
}

fn seed(shared: &Arc<Shared>) -> Result<(), ServerError> {
    let request = phux_core::wire::NewSession {
        id: 0,
        name: Some(shared.config.seed_session_name.clone()),
        cwd: None,
        env: Vec::new(),
        command: None,
        cols: None,
        rows: None,
        observe: false,
        history_limit: None,
    };
    handlers::dispatch(shared, phux_core::wire::ClientMessage::NewSession(request))
        .map(|_| ())
        .map_err(|e| ServerError::Seed(e.to_string()))
}

fn wait_for_shutdown(
    shared: &Shared,
    shutdown: &crossbeam_channel::Receiver<()>,
    terminated: &AtomicBool,
) {
    let mut idle_since: Option<Instant> = None;
    loop {
        match shutdown.recv_timeout(Duration::from_millis(250)) {
            Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
            Err(RecvTimeoutError::Timeout) => {}
        }
        if terminated.load(Ordering::Relaxed) {
            log::line("stopping on SIGTERM");
            return;
        }
        handlers::lease::expire(shared, None);
        let Some(limit) = shared.config.exit_after_idle else {
            continue;
        };
        // A server that listens for paired devices waits for them: not idle.
        let idle = shared.tree().panes.is_empty()
            && shared.client_count() == 0
            && remote::bound_addr().is_none();
        idle_since = if idle {
            idle_since.or(Some(Instant::now()))
        } else {
            None
        };
        if idle_since.is_some_and(|since| since.elapsed() >= limit) {
            log::line("idle limit reached");
            return;
        }
    }
}

fn close_everything(shared: &Shared) {
    let handles: Vec<pane::PaneHandle> = shared
        .tree()
        .panes
        .values()
        .map(|e| e.handle.clone())
        .collect();
    // Each pane core hangs up its pane's session and foreground job; the group signal covers an
    // pane core too busy to answer before the process ends.
    for handle in &handles {
        let _ = handle.send(pane::PaneCommand::Close);
    }
    std::thread::sleep(Duration::from_millis(50));
    for handle in handles {
        pty::signal_group(handle.pid, rustix::process::Signal::HUP);
    }
    // A stop on purpose ends the panes with their keepers: none waits for a next server.
    keeper::hang_up_all();
}
