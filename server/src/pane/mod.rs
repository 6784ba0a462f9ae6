//! A pane: a program on a PTY whose screen lives in an engine `Terminal`, changed only by its
//! `PaneCore`, which two threads take turns with under one lock (see `command_loop`).
//! Everything else talks to the pane through its `PaneHandle`.

pub mod ask;
mod command_loop;
mod flood_yield;
mod handle;
pub mod input_queue;
pub(crate) mod io;
pub mod new_output;
pub mod osc_scan;
pub mod output_log;
mod pane_core;
pub mod shell_track;
mod typing_pace;

pub use handle::{PaneHandle, TerminalSnapshot};

use crate::bus::Subscriber;
use crate::pty::{self, SpawnSpec};
use crate::shared::Shared;
use crossbeam_channel::{bounded, unbounded, Sender};
use input_queue::input_queue;
use output_log::OutputLog;
use phux_core::engine::{Terminal, TerminalOptions};
use phux_core::ids::PaneId;
use phux_core::wire::SignalName;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// A pane's engine terminal. The pane core holds the lock while it feeds output to the engine;
/// a read holds it for the few microseconds a capture takes.
pub type SharedTerminal = Arc<Mutex<Terminal>>;

/// The terminal, locked. A thread that panicked while holding it left the engine between two
/// complete calls, so the terminal is still whole: use it.
pub fn lock(terminal: &SharedTerminal) -> MutexGuard<'_, Terminal> {
    terminal.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Why a pane could not do what was asked.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PaneError {
    #[error("the pane is gone")]
    Gone,
    #[error(
        "the input is {len} bytes, more than a pane queues ({max} bytes); nothing was written"
    )]
    InputTooLarge { len: usize, max: usize },
    #[error(
        "the pane's program is not reading its input ({queued} bytes wait); nothing was written"
    )]
    InputBusy { queued: usize },
    #[error(
        "the pane reads lines (canonical mode), and this input holds a {len}-byte line; the \
         terminal keeps at most {max} bytes of a line, so nothing was written"
    )]
    CanonicalLimit { len: usize, max: usize },
    #[error(
        "the text holds the control character {character}, and the pane's program has not \
         turned bracketed paste on, so it would act as a key; nothing was written"
    )]
    UnsafePaste { character: String },
    #[error("invalid key spec: {0}")]
    KeySpec(String),
    #[error("cannot signal the pane: {0}")]
    Signal(String),
}

/// The start of an observer stream: the screen as it is now, and the sequence number its
/// repaint stands at.
pub struct ObserveStart {
    pub cols: u16,
    pub rows: u16,
    pub repaint: Vec<u8>,
    pub seq: u64,
    pub t_ns: u64,
    /// How long ago the repaint was taken (0 unless the stream starts in the past).
    pub age_ns: u64,
    /// The pane's sequence number as the stream began: output up to it is history.
    pub live_seq: u64,
    /// Recorded output and resizes after the repaint, when the stream starts in the past.
    pub history: Vec<crate::bus::BusEvent>,
}

/// What the pane core is asked to do. Reads of the screen and typing do not go through it (see
/// `PaneHandle`).
pub enum PaneCommand {
    Resize {
        cols: u16,
        rows: u16,
        reply: Sender<(u16, u16)>,
    },
    Signal {
        signal: SignalName,
        reply: Sender<Result<(), PaneError>>,
    },
    Subscribe(Subscriber),
    Observe {
        subscriber: Subscriber,
        since_ms: Option<u64>,
        /// Rows of history the first repaint carries above the screen (0: none).
        history_rows: usize,
        reply: Sender<ObserveStart>,
    },
    /// The screen as it is now, as a repaint (with this many rows of history above it), and
    /// the sequence number it stands at: a viewer's stream skips a flood's output to it.
    Keyframe(Sender<ObserveStart>, usize),
    /// The flight recorder's window and the sequence number, for `phux upgrade`.
    HandOver(Sender<crate::flight::CarriedWindow>),
    /// Publish an event raised from outside the pane (an ask reported with `phux ask`).
    Announce(phux_core::documents::WatchEventKind),
    Close,
}

/// Starts `spec` on a new PTY, held by a keeper (see `crate::keeper`), with its pane core,
/// reader, writer and waiter threads. An `observer` is attached before the program starts, and
/// its start (the blank screen) is returned with the handle. A keeper that cannot be started
/// leaves the pane running as the server's own child, logged: it would not outlive a crash.
pub fn spawn(
    id: PaneId,
    spec: &SpawnSpec,
    shared: &Arc<Shared>,
    observer: Option<Subscriber>,
) -> std::io::Result<(PaneHandle, Option<ObserveStart>)> {
    let options = TerminalOptions::new(spec.cols, spec.rows, spec.history_limit);
    let terminal =
        Terminal::with_options(options).map_err(|e| std::io::Error::other(e.to_string()))?;
    let config = &shared.config;
    let kept = if config.keepers {
        crate::keeper::start(id, spec, &config.socket, &config.shim_exe).map(Some)
    } else {
        Ok(None)
    };
    let program = match kept {
        Ok(Some(held)) => kept_program(held),
        Err(crate::keeper::KeeperError::Program(message)) => {
            return Err(std::io::Error::new(std::io::ErrorKind::NotFound, message))
        }
        Ok(None) => unkept_program(spec, &config.shim_exe)?,
        Err(e) => {
            crate::log::line(&format!("pane {id} runs without a keeper: {e}"));
            unkept_program(spec, &config.shim_exe)?
        }
    };
    start(
        id,
        terminal,
        OutputLog::default(),
        program,
        shared,
        StartAs::New(observer),
    )
}

/// A program started as this server's own child: it ends with the server.
fn unkept_program(spec: &SpawnSpec, shim_exe: &std::path::Path) -> std::io::Result<Program> {
    let process = pty::spawn(spec, shim_exe)?;
    let pid = process.child.id();
    let mut child = process.child;
    Ok(Program {
        master: process.master,
        pid,
        wait: Box::new(move || child.wait().ok()),
        keep: None,
        kept: false,
    })
}

/// What waits for a pane's program to end.
type Wait = Box<dyn FnOnce() -> Option<std::process::ExitStatus> + Send>;

/// A pane's program: its PTY master, its PID, what waits for its end, and its keep.
struct Program {
    master: rustix::fd::OwnedFd,
    pid: u32,
    wait: Wait,
    keep: Option<crate::keeper::KeepWriters>,
    /// Held by a keeper.
    kept: bool,
}

/// The program of a pane a keeper holds: its end is heard from the keeper.
fn kept_program(held: crate::keeper::Held) -> Program {
    let crate::keeper::Held {
        pane,
        pid,
        master,
        files,
        link,
        exited,
        ..
    } = held;
    let keep = crate::keeper::KeepWriters::resume(files)
        .map_err(|e| crate::log::line(&format!("pane {pane} keeps no recent output: {e}")))
        .ok();
    Program {
        master,
        pid,
        wait: Box::new(move || link.wait_exit(exited)),
        keep,
        kept: true,
    }
}

/// Takes over a pane a previous server process ran (`phux upgrade`): its PTY master, its
/// program (still this process's child: the exec kept the PID, or held by its keeper), and
/// its terminal rebuilt from the snapshot. Output the program wrote meanwhile waited in the
/// PTY and is read now.
pub fn adopt(
    id: PaneId,
    terminal: Terminal,
    output_mark: u64,
    holder: Holder,
    window: crate::flight::CarriedWindow,
    shared: &Arc<Shared>,
) -> std::io::Result<PaneHandle> {
    let program = match holder {
        Holder::Parent(master, pid) => Program {
            master,
            pid,
            wait: Box::new(move || wait_for_pid(pid)),
            keep: None,
            kept: false,
        },
        Holder::Keeper(held) => {
            let mut program = kept_program(*held);
            // The keep goes on from this terminal: what it held before is no longer needed.
            if let Some(keep) = &mut program.keep {
                if let Err(e) = keep.snapshot(&terminal, output_mark) {
                    crate::log::line(&format!("pane {id} keeps no recent output: {e}"));
                    program.keep = None;
                }
            }
            program
        }
    };
    let output = OutputLog::starting_at(output_mark);
    let start_as = StartAs::Adopted(window);
    start(id, terminal, output, program, shared, start_as).map(|(handle, _)| handle)
}

/// Who holds an adopted pane's program: this process (its child across the exec), or a keeper.
pub enum Holder {
    Parent(rustix::fd::OwnedFd, u32),
    Keeper(Box<crate::keeper::Held>),
}

/// How a pane's core starts: new (with an observer attached before its program runs, maybe),
/// or adopted with the flight window its previous process carried.
enum StartAs {
    New(Option<Subscriber>),
    Adopted(crate::flight::CarriedWindow),
}

/// The exit status of child `pid`, waited for by its number (an adopted pane has no `Child`).
/// A process that is not this one's child (its keeper went away) is watched until it is gone,
/// without a status.
fn wait_for_pid(pid: u32) -> Option<std::process::ExitStatus> {
    use std::os::unix::process::ExitStatusExt;
    let raw = rustix::process::Pid::from_raw(i32::try_from(pid).ok()?)?;
    loop {
        match rustix::process::waitpid(Some(raw), rustix::process::WaitOptions::empty()) {
            Ok(Some((_, status))) => {
                return Some(std::process::ExitStatus::from_raw(status.as_raw()))
            }
            Ok(None) | Err(rustix::io::Errno::INTR) => continue,
            Err(rustix::io::Errno::CHILD) => {
                while std::path::Path::new(&format!("/proc/{pid}")).exists() {
                    std::thread::sleep(std::time::Duration::from_millis(200));
                }
                return None;
            }
            Err(_) => return None,
        }
    }
}

/// The pane's threads around a terminal, its output log and its program.
fn start(
    id: PaneId,
    terminal: Terminal,
    output: OutputLog,
    program: Program,
    shared: &Arc<Shared>,
    start_as: StartAs,
) -> std::io::Result<(PaneHandle, Option<ObserveStart>)> {
    let Program {
        master,
        pid,
        wait,
        keep,
        kept,
    } = program;
    let read_side = std::fs::File::from(master.try_clone()?);
    let write_side = std::fs::File::from(master.try_clone()?);
    io::make_nonblocking(&read_side)?;
    let (input, input_source) = input_queue();
    let (cmd_tx, cmd_rx) = unbounded();
    let (exit_tx, exit_rx) = bounded(1);
    let closed = Arc::new(AtomicBool::new(false));
    io::spawn_writer(
        write_side,
        input_source,
        Arc::clone(&closed),
        format!("pane-{}-writer", id.0),
    );
    std::thread::Builder::new()
        .name(format!("pane-{}-waiter", id.0))
        .spawn(move || {
            let _ = exit_tx.send(wait());
        })?;
    let terminal = Arc::new(Mutex::new(terminal));
    let shell = Arc::new(shell_track::ShellTrack::default());
    let output = Arc::new(output);
    let process_view = handle::PaneProcess {
        master: Arc::new(master.try_clone()?),
        shell,
        output,
        kept,
    };
    let mut pane_core = pane_core::PaneCore::new(
        id,
        Arc::clone(&terminal),
        master,
        pid,
        input.clone(),
        &process_view,
        Arc::clone(shared),
    );
    pane_core.keep_in(keep);
    // Before the reader starts: the observer sees the blank screen before anything the
    // program prints.
    let observed = match start_as {
        StartAs::New(observer) => observer.map(|observer| pane_core.observe_from_birth(observer)),
        StartAs::Adopted(window) => {
            pane_core.carry_on(window);
            None
        }
    };
    let pane_core = Arc::new(Mutex::new(pane_core));
    let (woke_tx, woke) = bounded(1);
    let (done_tx, done) = bounded(0);
    let fed = Arc::clone(&pane_core);
    let epoch = shared.epoch;
    std::thread::Builder::new()
        .name(format!("pane-{}", id.0))
        .spawn(move || {
            // On this thread, not the spawning request's (which may hold the session tree that
            // watchers of the birth need), and before the reader starts: watchers hear of the
            // birth before anything the program prints.
            command_loop::lock(&pane_core).born();
            io::spawn_reader(
                read_side,
                move |chunk| {
                    if command_loop::lock(&fed).on_output(chunk) {
                        let _ = woke_tx.try_send(());
                    }
                },
                done_tx,
                epoch,
                format!("pane-{}-reader", id.0),
            );
            let news = command_loop::ReaderNews { woke, done };
            command_loop::run(&pane_core, &cmd_rx, news, exit_rx);
            // The writer ends with the pane, with its descriptor and any input still queued.
            closed.store(true, Ordering::Release);
        })?;
    let handle = PaneHandle::new(id, pid, cmd_tx, terminal, input, process_view);
    Ok((handle, observed))
}

/// A shell-style status: the exit code, or 128 + the signal that killed the process.
pub(super) fn exit_code_of(status: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    status
        .code()
        .unwrap_or_else(|| 128 + status.signal().unwrap_or(0))
}
