//! The two threads that take turns with a pane's core. The reader feeds it each PTY read on
//! its own thread, the moment the read returns: an echo goes from the PTY to the engine and
//! out to the pane's observers without waking another thread on the way (a hand-over to a
//! thread of its own was one more wake-up, and one more wait for a core, in every keystroke's
//! echo). The command thread serves the server's requests, the program's end and the timers
//! (idle, the grace before SIGKILL).

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crossbeam_channel::{never, select, Receiver};

use super::pane_core::PaneCore;
use super::PaneCommand;

/// The pane core, shared by the reader and the command thread.
pub type SharedCore = Arc<Mutex<PaneCore>>;

/// The pane core, locked. A thread that panicked while holding it left it between two whole
/// steps: use it.
pub fn lock(pane: &SharedCore) -> MutexGuard<'_, PaneCore> {
    pane.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What the reader tells the command thread.
pub struct ReaderNews {
    /// Output came to an idle pane: the next deadline moved.
    pub woke: Receiver<()>,
    /// Disconnected when the reader read the PTY to its end.
    pub done: Receiver<()>,
}

/// Serves `pane` until the program ended and its output was read to the end, or nobody can
/// send it commands any more.
pub fn run(
    pane: &SharedCore,
    commands: &Receiver<PaneCommand>,
    reader: ReaderNews,
    mut exited: Receiver<Option<std::process::ExitStatus>>,
) {
    let ReaderNews { mut woke, mut done } = reader;
    let (mut reader_done, mut status) = (false, None);
    while !(reader_done && status.is_some()) {
        let timeout = lock(pane).timeout();
        select! {
            recv(woke) -> news => if news.is_err() { woke = never(); },
            recv(done) -> _ => { reader_done = true; done = never(); },
            recv(exited) -> code => { status = Some(code.ok().flatten()); exited = never(); },
            recv(commands) -> command => match command {
                Ok(command) => lock(pane).on_command(command),
                Err(_) => return,
            },
            default(timeout) => lock(pane).on_tick(),
        }
    }
    lock(pane).finish(status);
}
