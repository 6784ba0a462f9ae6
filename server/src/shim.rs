//! The pane exec shim: `phux __pane-exec -- PROGRAM ARGS...` runs with the PTY slave as its
//! stdio, makes itself a session leader with that terminal as its controlling terminal, and
//! execs the program. Doing this in a freshly exec'd process keeps the server free of
//! `pre_exec` code (which must be async-signal-safe and is `unsafe`).

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::process::Command;

/// Never returns on success; the error says which step failed.
pub fn exec_in_pty(argv: &[OsString]) -> std::io::Error {
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
