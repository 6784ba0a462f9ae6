//! The panes' terminals rebuilt from their snapshots on a thread of their own (spread across
//! the cores), started as soon as the manifest is read: the new process receives its
//! descriptors and builds its state meanwhile, instead of before, while every pane's output
//! goes unread.

use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use phux_core::engine::{EngineError, Terminal, TerminalOptions};

use super::in_parallel;

/// One terminal to rebuild: its snapshot and the options it is rebuilt with.
pub type Job = (Vec<u8>, TerminalOptions);

/// Each job's terminal, in the jobs' order, and the time the restores took, summed.
pub struct Restored {
    pub terminals: Vec<Result<Terminal, EngineError>>,
    pub work: Duration,
}

/// Terminals being rebuilt.
pub enum Restoring {
    Started(JoinHandle<Restored>),
    /// No thread could be started: rebuilt by whoever waits.
    NotStarted(Vec<Job>),
}

/// Starts rebuilding `jobs`' terminals (each waits for the engine, which may still be loading).
pub fn start(jobs: Vec<Job>) -> Restoring {
    let (sender, receiver) = crossbeam_channel::bounded::<Vec<Job>>(1);
    let spawned = std::thread::Builder::new()
        .name("handoff-restore".into())
        .spawn(move || match receiver.recv() {
            Ok(jobs) => restore_all(jobs),
            Err(_) => Restored {
                terminals: Vec::new(),
                work: Duration::ZERO,
            },
        });
    // Handed over once the thread runs, so a thread that cannot start leaves them here.
    match spawned {
        Ok(handle) => match sender.send(jobs) {
            Ok(()) => Restoring::Started(handle),
            Err(unsent) => Restoring::NotStarted(unsent.into_inner()),
        },
        Err(_) => Restoring::NotStarted(jobs),
    }
}

impl Restoring {
    /// The terminals, once every one is rebuilt.
    pub fn wait(self) -> Restored {
        match self {
            Restoring::Started(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Restoring::NotStarted(jobs) => restore_all(jobs),
        }
    }
}

fn restore_all(jobs: Vec<Job>) -> Restored {
    let restored = in_parallel::map(jobs, |(snapshot, options)| {
        let began = Instant::now();
        let terminal = Terminal::restore(&snapshot, options);
        (terminal, began.elapsed())
    });
    let work = restored.iter().map(|(_, took)| *took).sum();
    Restored {
        terminals: restored.into_iter().map(|(terminal, _)| terminal).collect(),
        work,
    }
}
