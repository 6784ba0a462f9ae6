//! A child process on a fresh pseudo-terminal: open the pair, size it, start the program through
//! the exec shim, and later resize it or signal its foreground process group.

use rustix::fd::OwnedFd;
use rustix::termios::Winsize;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// What to run in a new pane.
#[derive(Debug, Clone)]
pub struct SpawnSpec {
    pub argv: Vec<String>,
    pub cwd: Option<PathBuf>,
    pub env: Vec<(String, String)>,
    pub cols: u16,
    pub rows: u16,
    /// Rows of history the pane's terminal keeps.
    pub history_limit: usize,
}

/// The master side of a pane's PTY and its child.
pub struct PtyProcess {
    pub master: OwnedFd,
    pub child: Child,
}

fn winsize(cols: u16, rows: u16) -> Winsize {
    Winsize {
        ws_row: rows.max(1),
        ws_col: cols.max(1),
        ws_xpixel: cols.max(1) * 8,
        ws_ypixel: rows.max(1) * 16,
    }
}

/// Opens a PTY of the requested size and starts `spec.argv` on it via `shim_exe __pane-exec`.
pub fn spawn(spec: &SpawnSpec, shim_exe: &std::path::Path) -> std::io::Result<PtyProcess> {
    use rustix::fs::{Mode, OFlags};
    // The shim's exec happens after this returns; a program it could never run is refused now.
    let path = spec.env.iter().rev().find(|(k, _)| k == "PATH");
    crate::program::check(
        spec.argv.first().map_or("", String::as_str),
        spec.cwd.as_deref(),
        path.map(|(_, v)| v.as_str()),
    )
    .map_err(|e| std::io::Error::new(std::io::ErrorKind::NotFound, e.to_string()))?;
    use rustix::pty::{grantpt, openpt, ptsname, unlockpt, OpenptFlags};
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC)?;
    grantpt(&master)?;
    unlockpt(&master)?;
    let name = ptsname(&master, Vec::new())?;
    let slave = rustix::fs::open(
        name.as_c_str(),
        OFlags::RDWR | OFlags::NOCTTY | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    rustix::termios::tcsetwinsize(&slave, winsize(spec.cols, spec.rows))?;
    utf8_line_editing(&slave)?;
    let slave_file = std::fs::File::from(slave);
    let mut command = Command::new(shim_exe);
    command
        .arg("__pane-exec")
        .arg("--")
        .args(&spec.argv)
        .stdin(Stdio::from(slave_file.try_clone()?))
        .stdout(Stdio::from(slave_file.try_clone()?))
        .stderr(Stdio::from(slave_file));
    for (key, value) in &spec.env {
        command.env(key, value);
    }
    if let Some(cwd) = &spec.cwd {
        command.current_dir(cwd);
    }
    let child = command.spawn()?;
    // `command` (and with it every copy of the slave) is dropped here, so the master sees EOF
    // once the child and its descendants close the terminal.
    drop(command);
    Ok(PtyProcess { master, child })
}

/// Marks the terminal's input as UTF-8 (`IUTF8`), as every pane's is: the kernel's own line
/// editing (a program reading lines, like `cat` or `read`) then erases a whole character on
/// Backspace, not the last byte of one, which would leave half an `é` in the line.
fn utf8_line_editing(slave: &OwnedFd) -> std::io::Result<()> {
    use rustix::termios::{tcgetattr, tcsetattr, InputModes, OptionalActions};
    let mut modes = tcgetattr(slave)?;
    modes.input_modes |= InputModes::IUTF8;
    tcsetattr(slave, OptionalActions::Now, &modes)?;
    Ok(())
}

/// Tells the terminal (and so the foreground program, by SIGWINCH) its new size.
pub fn resize(master: &OwnedFd, cols: u16, rows: u16) -> std::io::Result<()> {
    rustix::termios::tcsetwinsize(master, winsize(cols, rows)).map_err(Into::into)
}

/// Sends `signal` to the terminal's foreground process group, falling back to the child's own
/// group (the shim made the child a session and group leader).
pub fn signal_foreground(
    master: &OwnedFd,
    child_pid: u32,
    signal: rustix::process::Signal,
) -> std::io::Result<()> {
    let group = rustix::termios::tcgetpgrp(master)
        .ok()
        .or_else(|| rustix::process::Pid::from_raw(child_pid as i32));
    match group {
        Some(pgid) => rustix::process::kill_process_group(pgid, signal).map_err(Into::into),
        None => Err(std::io::Error::other("the pane has no process to signal")),
    }
}

/// Sends `signal` to the child's own process group (used when closing a pane: the shell and
/// everything it started in that session).
pub fn signal_group(child_pid: u32, signal: rustix::process::Signal) {
    if let Some(pid) = rustix::process::Pid::from_raw(child_pid as i32) {
        let _ = rustix::process::kill_process_group(pid, signal);
    }
}
