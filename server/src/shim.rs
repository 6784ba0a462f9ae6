//! The pane exec shim: `phux __pane-exec -- PROGRAM ARGS...` runs with the PTY slave as its
//! stdio, makes itself a session leader with that terminal as its controlling terminal, and
//! execs the program. Doing this in a freshly exec'd process keeps the server free of
//! `pre_exec` code (which must be async-signal-safe and is `unsafe`).

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::process::Command;

/// Signals whose disposition a pane's program must find at its default. A server started from
/// a script runs with SIGINT and SIGQUIT ignored (so does everything it starts, through exec),
/// and a program that ignores SIGINT cannot be interrupted with Ctrl-C or `phux signal`.
const RESET_TO_DEFAULT: [i32; 13] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGQUIT,
    signal_hook::consts::SIGHUP,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGTSTP,
    signal_hook::consts::SIGTTIN,
    signal_hook::consts::SIGTTOU,
    signal_hook::consts::SIGPIPE,
    signal_hook::consts::SIGUSR1,
    signal_hook::consts::SIGUSR2,
    signal_hook::consts::SIGALRM,
    signal_hook::consts::SIGCHLD,
    signal_hook::consts::SIGWINCH,
];

/// Catching a signal, even with a no-op handler, makes exec reset it to its default (only
/// ignored signals stay ignored across exec): the safe way to hand the program clean signals.
fn reset_signals_on_exec() {
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    for signal in RESET_TO_DEFAULT {
        let _ = signal_hook::flag::register(signal, std::sync::Arc::clone(&flag));
    }
}

/// Never returns on success; the error says which step failed.
pub fn exec_in_pty(argv: &[OsString]) -> std::io::Error {
    reset_signals_on_exec();
    // The program gets the kernel's default slice, not the short one the server's threads
    // ask for: it may flood.
    phux_core::sched_slice::give_back();
    let Some((program, args)) = argv.split_first() else {
        return std::io::Error::new(std::io::ErrorKind::InvalidInput, "no program to run");
    };
    if let Err(e) = rustix::process::setsid() {
        return std::io::Error::other(format!("setsid: {e}"));
    }
    if let Err(e) = rustix::process::ioctl_tiocsctty(std::io::stdin()) {
        return std::io::Error::other(format!("cannot take the terminal as controlling tty: {e}"));
    }
    let error = Command::new(program).args(args).exec();
    std::io::Error::new(
        error.kind(),
        format!("cannot run {}: {error}", program.to_string_lossy()),
    )
}
