//! `phux service logs [-f] [-n N]`: the service's journal (`journalctl --user -u phux.service`)
//! where journald runs, else the server's own log beside its socket.

use std::process::{Command, Stdio};

use crate::commands::Context;

/// Print the service's log (its journal, else the server's log file)
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
