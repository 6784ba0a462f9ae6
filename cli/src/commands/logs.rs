//! `phux logs [--server|--client [--pid PID]] [-f] [-n N] [--json]`: where phux writes its logs
//! and what they hold. Bare, the inventory (the server's log beside its socket, the client logs
//! in the same directory, the state directory; sizes and ages, or "not created yet"); with
//! `--server` or `--client`, the last lines of that log, and with `-f` what is appended after.
//! Every read is bounded: a log is only ever read from its last few megabytes.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use phux_client::verbs::logs::{
    client_dir, client_logs, document, server_log, LogEntry, LogLinesJson, LogsJson,
    LOGS_SCHEMA_VERSION,
};
use phux_core::error_code::ErrorCode;
use phux_core::exit_code::SUCCESS;

use crate::commands::Context;
use crate::failure::Failure;
use crate::output;

/// The most of a log's end that a tail reads.
const MAX_TAIL_BYTES: u64 = 4 << 20;
/// How often `-f` looks for new lines.
const FOLLOW_POLL: Duration = Duration::from_millis(200);

/// Show where phux's logs are (bare), or print the server's or a client's log
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the server's log (the socket's name with `.log`: `phux.log` beside `phux.sock`)
    #[arg(long, conflicts_with = "client")]
    pub server: bool,
    /// Print a client's log (`client-PID.log` beside the socket; the newest without --pid)
    #[arg(long)]
    pub client: bool,
    /// With --client: the client whose log to print
    #[arg(long, requires = "client")]
    pub pid: Option<u32>,
    /// Keep printing what is appended, until interrupted
    #[arg(short = 'f', long, conflicts_with = "json")]
    pub follow: bool,
    /// How many of the last lines to print
    #[arg(short = 'n', long, default_value_t = 200)]
    pub lines: usize,
    /// Print the inventory (or the lines) as one JSON document
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    let result = if args.server || args.client {
        tail(&args, context)
    } else {
        inventory(&args, context)
    };
    match result {
        Ok(()) => SUCCESS,
        Err(failure) => failure.report(args.json),
    }
}

fn inventory(args: &Args, context: &Context) -> Result<(), Failure> {
    let doc = document(&context.socket);
    if args.json {
        output::print_json(&doc);
        return Ok(());
    }
    let server = match &doc.running {
        Some(running) if running.log.is_none() && !doc.server.exists => {
            format!("{:<12}{}", "server log", to_stderr(running.pid))
        }
        Some(running) if running.log.is_none() => format!(
            "{}, by an earlier server; {}",
            describe("server log", &doc.server),
            to_stderr(running.pid)
        ),
        _ => describe("server log", &doc.server),
    };
    let mut lines = vec![server, describe("rotated", &doc.server_rotated)];
    if doc.clients.is_empty() {
        lines.push(format!(
            "{:<12}{}/client-PID.log: not created yet",
            "client logs", doc.client_dir
        ));
    }
    for client in &doc.clients {
        lines.push(describe(&format!("client {}", client.pid), &client.entry));
    }
    lines.push(describe("state dir", &doc.state_dir));
    output::print_lines(&lines);
    Ok(())
}

/// Where the log of a server that writes none beside its socket is.
fn to_stderr(pid: u32) -> String {
    format!(
        "the running server (pid {pid}) writes its log to its own stderr: the terminal it was \
         started in (`phux server`), or its service's journal (`phux service logs`)"
    )
}

fn describe(name: &str, entry: &LogEntry) -> String {
    match (entry.exists, entry.bytes, entry.age_secs) {
        (false, _, _) => format!("{name:<12}{}: not created yet", entry.path),
        (true, bytes, age) => format!(
            "{name:<12}{}: {}, written {}",
            entry.path,
            size(bytes.unwrap_or(0)),
            age.map(ago).unwrap_or_else(|| "at an unknown time".into())
        ),
    }
}

/// A size as a person reads it: `69 bytes`, `4.6 KiB`, `10.5 MiB`.
fn size(bytes: u64) -> String {
    const UNITS: [&str; 3] = ["KiB", "MiB", "GiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

fn ago(secs: u64) -> String {
    match secs {
        0..=59 => format!("{secs}s ago"),
        60..=3599 => format!("{}m ago", secs / 60),
        3600..=86_399 => format!("{}h ago", secs / 3600),
        _ => format!("{}d ago", secs / 86_400),
    }
}

/// The log `--server`/`--client [--pid]` names.
fn chosen_log(args: &Args, socket: &Path) -> Result<PathBuf, Failure> {
    if args.server {
        return Ok(server_log(socket));
    }
    let dir = client_dir(socket);
    if let Some(pid) = args.pid {
        return Ok(dir.join(format!("client-{pid}.log")));
    }
    client_logs(&dir)
        .into_iter()
        .next()
        .map(|c| PathBuf::from(c.entry.path))
        .ok_or_else(|| {
            Failure::new(
                ErrorCode::NoSuchTarget,
                format!("no client log in {}: not created yet", dir.display()),
                "run `phux logs` to see which logs exist",
            )
        })
}

fn tail(args: &Args, context: &Context) -> Result<(), Failure> {
    let path = chosen_log(args, &context.socket)?;
    // A server that writes its log to its own stderr: this file is not where its lines are.
    let elsewhere = args
        .server
        .then(|| phux_client::verbs::logs::running_server(&context.socket))
        .flatten()
        .filter(|running| running.log.is_none());
    let not_yet = || match &elsewhere {
        Some(running) => Failure::new(
            ErrorCode::NoSuchTarget,
            format!("{}: none: {}", path.display(), to_stderr(running.pid)),
            "read it where the server was started; a server started in the background \
                 (by `phux new`) writes its log to this file",
        ),
        None => Failure::new(
            ErrorCode::NoSuchTarget,
            format!("{}: not created yet", path.display()),
            "a server started in the background writes its log beside its socket; \
                 run `phux logs` for the inventory",
        ),
    };
    if let Some(running) = elsewhere.as_ref().filter(|_| path.exists()) {
        output::warn(&format!(
            "{} is an earlier server's; {}",
            path.display(),
            to_stderr(running.pid)
        ));
    }
    let mut file = match File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(not_yet()),
        Err(e) => return Err(io_failure(&path, &e)),
    };
    let meta = file.metadata().map_err(|e| io_failure(&path, &e))?;
    if !meta.is_file() {
        return Err(Failure::new(
            ErrorCode::InvalidSelector,
            format!("{} is not a regular file", path.display()),
            "remove it; phux writes its logs as regular files",
        ));
    }
    let lines = last_lines(&mut file, meta.len(), args.lines).map_err(|e| io_failure(&path, &e))?;
    if args.json {
        output::print_json(&LogLinesJson {
            schema_version: LOGS_SCHEMA_VERSION,
            path: path.display().to_string(),
            lines,
        });
        return Ok(());
    }
    output::print_lines(&lines);
    if args.follow {
        follow(&path, meta.len());
    }
    Ok(())
}

fn io_failure(path: &Path, e: &std::io::Error) -> Failure {
    Failure::new(
        ErrorCode::Transport,
        format!("cannot read {}: {e}", path.display()),
        "check the file's permissions",
    )
}

/// The last `n` lines of the file, reading at most [`MAX_TAIL_BYTES`] of its end.
fn last_lines(file: &mut File, len: u64, n: usize) -> std::io::Result<Vec<String>> {
    let start = len.saturating_sub(MAX_TAIL_BYTES);
    file.seek(SeekFrom::Start(start))?;
    let mut bytes = Vec::new();
    file.take(MAX_TAIL_BYTES).read_to_end(&mut bytes)?;
    let text = String::from_utf8_lossy(&bytes);
    let mut lines: Vec<&str> = text.lines().collect();
    // A window that starts mid-file starts mid-line: that first piece is not a line.
    if start > 0 && !lines.is_empty() {
        lines.remove(0);
    }
    let skip = lines.len().saturating_sub(n);
    Ok(lines[skip..].iter().map(|l| (*l).to_owned()).collect())
}

/// Prints what is appended to `path` from `offset` on, forever; a log that was rotated (it
/// shrank) is read again from its start.
fn follow(path: &Path, mut offset: u64) {
    let mut stdout = std::io::stdout();
    loop {
        std::thread::sleep(FOLLOW_POLL);
        let Ok(mut file) = File::open(path) else {
            continue;
        };
        let len = file.metadata().map(|m| m.len()).unwrap_or(offset);
        if len < offset {
            offset = 0;
        }
        if len == offset || file.seek(SeekFrom::Start(offset)).is_err() {
            continue;
        }
        let mut bytes = Vec::new();
        if file.take(MAX_TAIL_BYTES).read_to_end(&mut bytes).is_err() {
            continue;
        }
        offset += bytes.len() as u64;
        if stdout
            .write_all(&bytes)
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return; // nobody reads any more
        }
    }
}
