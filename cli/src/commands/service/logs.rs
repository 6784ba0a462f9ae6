//! `phux service logs [-f] [-n N]`: the service's journal (`journalctl --user -u phux.service`)
//! where journald runs, else the server's own log beside its socket; for a launchd agent, the
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
    let journal = Command::new("journalctl")
        .args(["--user", "-u", super::unit::UNIT, "--no-pager", "-n"])
        .arg(args.lines.to_string())
        .args(args.follow.then_some("-f"))
        .stdin(Stdio::null())
        .status();
    match journal {
        Ok(status) => status.code().unwrap_or(1),
        Err(_) => crate::commands::logs::run(
            crate::commands::logs::Args {
                server: true,
                client: false,
                pid: None,
                follow: args.follow,
                lines: args.lines,
                json: false,
            },
            context,
        ),
    }
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
