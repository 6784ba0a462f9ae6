//! `phux service logs [-f] [-n N]`: the service's journal (`journalctl --user -u phux.service`)
//! where journald has lines of it, else (no journalctl, no journal, nothing in it) the server's
//! own log beside its socket, said so on stderr; for a launchd agent, the
//! log its plist appends to (`~/Library/Logs/phux/server.log`).

use std::process::{Command, Stdio};

use crate::commands::Context;

/// Print the service's log (its journal or launchd log, else the server's log file)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Keep printing what is appended, until interrupted
    #[arg(short = 'f', long)]
    pub follow: bool,
    /// How many of the last lines to print
    #[arg(short = 'n', long, default_value_t = 200)]
    pub lines: usize,
}

pub fn run(args: Args, context: &Context) -> i32 {
    if super::manager::Manager::here().is_ok_and(|m| m == super::manager::Manager::Launchd) {
        let log = super::launchd::log_path();
        if log.is_file() {
            return tail(&args, &log);
        }
    }
    if journal_has_entries() {
        let journal = Command::new("journalctl")
            .args(["--user", "-u", super::unit::UNIT, "--no-pager", "-n"])
            .arg(args.lines.to_string())
            .args(args.follow.then_some("-f"))
            .stdin(Stdio::null())
            .status();
        if let Ok(status) = journal {
            return status.code().unwrap_or(1);
        }
    }
    crate::output::warn(&format!(
        "journald has no lines of {} here (or no journalctl); the server's log file instead:",
        super::unit::UNIT
    ));
    log_file(&args, context)
}

/// Whether journald has at least one line of the unit (`journalctl` runs, can read a journal
/// and finds an entry): in a container or without a user journal it says "No journal files
/// were found" and has nothing to show.
fn journal_has_entries() -> bool {
    let probe = Command::new("journalctl")
        .args([
            "--user",
            "-u",
            super::unit::UNIT,
            "--no-pager",
            "-q",
            "-n",
            "1",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut probe) = probe else {
        return false;
    };
    // One line is asked for: a few KiB is all that is read of it.
    let mut first = Vec::new();
    if let Some(out) = probe.stdout.take() {
        // Closed after the read: a journalctl with more to say gets EPIPE, never a full pipe.
        let _ = std::io::Read::read_to_end(&mut std::io::Read::take(out, 64 * 1024), &mut first);
    }
    let ended = probe.wait();
    ended.is_ok_and(|s| s.success()) && first.iter().any(|b| !b.is_ascii_whitespace())
}

/// `phux logs --server` with these options.
fn log_file(args: &Args, context: &Context) -> i32 {
    crate::commands::logs::run(
        crate::commands::logs::Args {
            server: true,
            client: false,
            pid: None,
            follow: args.follow,
            lines: args.lines,
            json: false,
        },
        context,
    )
}

/// `tail -n N [-f] LOG`.
fn tail(args: &Args, log: &std::path::Path) -> i32 {
    Command::new("tail")
        .args(["-n", &args.lines.to_string()])
        .args(args.follow.then_some("-f"))
        .arg(log)
        .stdin(Stdio::null())
        .status()
        .map_or(1, |s| s.code().unwrap_or(1))
}
