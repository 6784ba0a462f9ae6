//! The TUI (`phux`, `phux attach`): a front end that keeps its own engine terminal for each
//! visible pane, fed by the observe stream the recorder uses, and draws the session's window as
//! model → cells → diff → bytes.
//!
//! `model` holds what is shown; `compose`, `status` and the `modes` draw it into a `grid`;
//! `render` writes what changed; `input` and `keymap` turn keys into named actions, which
//! `actions` carries out; `app` is the event loop, which only routes. A plain keystroke and
//! its echo go around the event loop, by the `key_path`.

#![forbid(unsafe_code)]

mod actions;
mod activity;
pub mod app;
pub mod bindings;
mod command;
mod compose;
mod cursor_shape;
mod event;
mod feed_pace;
pub mod grid;
pub mod input;
mod key_path;
pub mod keymap;
pub mod model;
pub mod modes;
mod mouse;
pub mod outer;
mod panes;
pub mod recording;
pub mod render;
mod status;
mod switching;

use std::os::unix::net::UnixStream;
use std::path::PathBuf;

use crossbeam_channel::{bounded, Sender};
use phux_core::wire::{AttachClient, AttachOk, ClientMessage, Frame, FrameReader, ServerMessage};

pub use app::Ended;
use event::Event;
use phux_client::{Client, ClientError};

/// What to attach to and how.
pub struct AttachRequest {
    /// The session; the most recently active one when None.
    pub session: Option<String>,
    pub rec: Option<PathBuf>,
}

/// How attaching ended.
pub struct Attached {
    pub ended: Ended,
    pub session: String,
    /// The recording's cast, when `--rec` was given.
    pub recording: Option<Result<recording::ScreenRecorder, String>>,
}

#[derive(Debug, thiserror::Error)]
pub enum AttachError {
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error("cannot set up the terminal: {0}")]
    Terminal(std::io::Error),
    #[error("cannot record to the file: {0}")]
    Recording(String),
}

/// Attaches `control`'s server's session until the person detaches, a signal arrives, the outer
/// terminal closes or the session ends.
pub fn attach(mut control: Client, request: AttachRequest) -> Result<Attached, AttachError> {
    // The client passes keystrokes and their echoes along: every thread it starts asks for a
    // short scheduler slice, so that none waits for a core behind a flood's threads.
    phux_core::sched_slice::ask_short();
    // A person types as themselves: a pane they take (C-a T) lets their keys through only.
    control.set_actor(Some(phux_client::lease::default_holder()));
    let outer_size = outer::size();
    let (tx, rx) = bounded::<Event>(1024);
    // One wake is enough: the frames themselves wait in each pane's own queue.
    let (frames_tx, frames_rx) = bounded::<Event>(1);
    let (ok, session_id) = attach_stream(&mut control, &request, outer_size, &tx)?;
    let state = control.state()?;
    let recorder = match &request.rec {
        Some(path) => Some(
            recording::ScreenRecorder::create(path, outer_size).map_err(AttachError::Recording)?,
        ),
        None => None,
    };
    // Warnings go out before the screen is taken, where the person can still read them.
    let bindings = configured_bindings();
    // Said once, on the terminal the person returns to: which key is the prefix.
    phux_client::output::stderr_line(&format!(
        "phux: the prefix is {name}: {name} ? lists the keys, {name} d detaches",
        name = bindings.prefix_name
    ));
    let terminal = outer::OuterTerminal::enter().map_err(AttachError::Terminal)?;
    activity::watch(&control, &tx)?;
    let key_path = std::sync::Arc::new(key_path::KeyPath::new(recorder));
    let stdin_done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    spawn_stdin_reader(
        tx.clone(),
        control.sibling()?,
        std::sync::Arc::clone(&key_path),
        std::sync::Arc::clone(&stdin_done),
    );
    spawn_signal_watchers(&tx).map_err(AttachError::Terminal)?;
    let model = model::Model::new(session_id, state, outer_size);
    let channels = panes::Channels {
        frames_ready: frames_tx,
        events: tx,
        key_path,
    };
    let mut app = app::App::new(
        model,
        control,
        (ok.client, ok.key),
        channels,
        terminal,
        bindings,
    );
    let ended = app.run(&rx, &frames_rx);
    // The reader leaves stdin alone from now on: keys typed next belong to whoever reads it
    // next (`attach` again, after a server upgrade).
    stdin_done.store(true, std::sync::atomic::Ordering::Release);
    let session = app.model.session_name();
    let recorder = app.key_path.screen().recorder.take();
    drop(app);
    let ended = ended?;
    Ok(Attached {
        ended,
        session: if session.is_empty() {
            ok.session
        } else {
            session
        },
        recording: recorder.map(Ok),
    })
}

/// Opens the attach connection (the server registers this client and sizes its session) and
/// reads its notices on a thread.
fn attach_stream(
    control: &mut Client,
    request: &AttachRequest,
    (cols, rows): (u16, u16),
    tx: &Sender<Event>,
) -> Result<(AttachOk, phux_core::ids::SessionId), ClientError> {
    let mut notices = control.sibling()?;
    let ok: AttachOk = notices.request(ClientMessage::AttachClient(AttachClient {
        id: 0,
        session: request.session.clone(),
        cols,
        rows: rows.saturating_sub(1).max(1),
    }))?;
    let state = control.state()?;
    let session_id =
        state
            .session(&ok.session)
            .map(|s| s.id)
            .ok_or_else(|| ClientError::Transport {
                socket: control.socket().to_path_buf(),
                message: format!("session {} vanished while attaching", ok.session),
            })?;
    notices.set_read_timeout(None)?;
    let stream = notices.into_stream();
    let tx = tx.clone();
    std::thread::spawn(move || {
        let mut reader = FrameReader::new(stream);
        while let Ok(frame) = reader.read_frame() {
            let Frame::Json(_) = frame else { continue };
            if let Ok(ServerMessage::ClientNotice(notice)) = frame.decode::<ServerMessage>() {
                if tx.send(Event::Notice(notice.notice)).is_err() {
                    return;
                }
            }
        }
        let _ = tx.send(Event::ServerGone);
    });
    Ok((ok, session_id))
}

/// How often a stdin reader with nothing to read checks whether its attach has ended.
const STDIN_DONE_CHECK: rustix::event::Timespec = rustix::event::Timespec {
    tv_sec: 0,
    tv_nsec: 100_000_000,
};

fn spawn_stdin_reader(
    tx: Sender<Event>,
    mut client: Client,
    key_path: std::sync::Arc<key_path::KeyPath>,
    done: std::sync::Arc<std::sync::atomic::AtomicBool>,
) {
    std::thread::spawn(move || {
        let stdin = rustix::stdio::stdin();
        let mut buffer = [0u8; 4096];
        loop {
            // Waits for input without taking it, so a reader whose attach ended reads nothing
            // more.
            let mut fds = [rustix::event::PollFd::new(
                &stdin,
                rustix::event::PollFlags::IN,
            )];
            let ready = rustix::event::poll(&mut fds, Some(&STDIN_DONE_CHECK));
            if done.load(std::sync::atomic::Ordering::Acquire) {
                return;
            }
            if matches!(ready, Ok(0)) {
                continue;
            }
            match rustix::io::read(stdin, &mut buffer) {
                Ok(0) => break,
                Ok(n) => {
                    if key_path.try_send(&buffer[..n], &mut client) {
                        continue;
                    }
                    if tx.send(Event::Input(buffer[..n].to_vec())).is_err() {
                        return;
                    }
                }
                Err(rustix::io::Errno::INTR | rustix::io::Errno::AGAIN) => continue,
                Err(_) => break,
            }
        }
        let _ = tx.send(Event::InputClosed);
    });
}

/// SIGWINCH becomes `Resized`; SIGINT, SIGTERM and SIGHUP become `Stop`.
fn spawn_signal_watchers(tx: &Sender<Event>) -> std::io::Result<()> {
    let watch = |signals: &[i32], event: fn() -> Event| -> std::io::Result<()> {
        let (read_end, write_end) = UnixStream::pair()?;
        write_end.set_nonblocking(true)?;
        for &signal in signals {
            signal_hook::low_level::pipe::register(signal, write_end.try_clone()?)?;
        }
        let tx = tx.clone();
        std::thread::spawn(move || {
            let mut byte = [0u8; 64];
            while let Ok(n) = std::io::Read::read(&mut &read_end, &mut byte) {
                if n == 0 || tx.send(event()).is_err() {
                    return;
                }
            }
        });
        Ok(())
    };
    watch(&[signal_hook::consts::SIGWINCH], || Event::Resized)?;
    watch(&phux_client::values::STOP_SIGNALS, || Event::Stop)
}

/// The config file's `[keybindings]` over the defaults; a config that cannot be read leaves
/// the defaults, with a warning.
fn configured_bindings() -> bindings::Bindings {
    let keybindings = match phux_client::registry::load_config() {
        Ok(loaded) => loaded.file.keybindings,
        Err(error) => {
            phux_client::output::warn(&format!("{error}; using the default keybindings"));
            return bindings::Bindings::default();
        }
    };
    let (bindings, warnings) = bindings::Bindings::from_config(&keybindings);
    for warning in warnings {
        phux_client::output::warn(&warning);
    }
    bindings
}
