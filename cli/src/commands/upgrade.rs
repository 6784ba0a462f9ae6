//! `phux upgrade [--json]`: the running server re-execs the binary on disk keeping every pane
//! (same PIDs, same screens and histories; see `phux_server::handoff`). The server checks the
//! binary first: one that does not run leaves it as it was, with `upgrade_failed`. On success
//! the connection closes as the process is replaced; this verb then waits for the new process
//! to answer on the same socket, in the same PID.

use std::time::{Duration, Instant};

use phux_core::error_code::ErrorCode;
use phux_core::exit_code::SUCCESS;
use phux_core::wire::{ClientMessage, Done, IdOnly};
use serde::Serialize;

use crate::client::listing::status;
use crate::client::ClientError;
use crate::commands::values::connect;
use crate::commands::Context;
use crate::failure::{conclude, Failure, VerbResult};
use crate::output;

/// How long the new server process may take to answer.
const TAKEOVER_LIMIT: Duration = Duration::from_secs(30);

/// How long the new binary gets to answer: `PHUX_UPGRADE_TIMEOUT` seconds, else
/// `TAKEOVER_LIMIT`.
fn takeover_limit() -> Duration {
    std::env::var("PHUX_UPGRADE_TIMEOUT")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|s| *s > 0)
        .map_or(TAKEOVER_LIMIT, Duration::from_secs)
}

/// Re-exec the server's binary on disk, keeping every pane and its program running
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print {schema_version, pid, panes, handoff_ms} as JSON
    #[arg(long)]
    pub json: bool,
}

/// `phux upgrade --json`.
#[derive(Debug, Serialize)]
pub struct UpgradeJson {
    pub schema_version: u32,
    /// The server's PID, the same before and after.
    pub pid: u32,
    /// Panes before the hand-off.
    pub panes: usize,
    /// From the request to the new process's first answer: an upper bound of the time panes'
    /// output was not read.
    pub handoff_ms: u64,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let doc = upgrade_server(context)?;
    if args.json {
        output::print_json(&doc);
    } else {
        output::print_line(&format!(
            "server {} upgraded in place: {} panes kept ({} ms)",
            doc.pid, doc.panes, doc.handoff_ms
        ));
    }
    Ok(SUCCESS)
}

/// Asks the server on the socket to hand over to the binary on disk and waits for the new
/// process (`phux update` calls this after installing).
pub fn upgrade_server(context: &Context) -> Result<UpgradeJson, Failure> {
    let mut client = connect(context)?;
    let before = status(&context.socket)?;
    let pid = before.pid.unwrap_or_default();
    let panes = client
        .fleet()?
        .sessions
        .iter()
        .map(|s| s.windows.iter().map(|w| w.panes.len()).sum::<usize>())
        .sum();
    let started = Instant::now();
    match client.request::<Done>(ClientMessage::Upgrade(IdOnly { id: 0 })) {
        // The process was replaced under the connection: what we hoped for.
        Err(ClientError::ServerDisconnected { .. }) => {}
        Err(other) => return Err(other.into()),
        Ok(Done {}) => {
            return Err(Failure::new(
                ErrorCode::UpgradeFailed,
                "the server answered the upgrade without handing over",
                "see `phux logs --server`",
            ))
        }
    }
    let after = wait_for_successor(context, pid)?;
    let handoff_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    if after.pid != Some(pid) {
        // The new binary ended in the hand-off: the panes waited with their keepers, and the
        // server that answers (started by this command's wait) took them over.
        let kept = connect(context)?
            .fleet()?
            .sessions
            .iter()
            .map(|s| s.windows.iter().map(|w| w.panes.len()).sum::<usize>())
            .sum::<usize>();
        return Err(Failure::new(
            ErrorCode::UpgradeFailed,
            format!(
                "the new binary did not take over: server {pid} ended in the hand-off, and server \
                 {} took over {kept} of its {panes} panes from their keepers",
                after.pid.unwrap_or_default()
            ),
            "the panes run on; see `phux logs --server` for why the binary failed, fix it \
             (`phux update --rollback` puts the previous one back), then retry",
        ));
    }
    Ok(UpgradeJson {
        schema_version: 1,
        pid,
        panes,
        handoff_ms,
    })
}

/// The status of the server that answers next on the socket. A new binary that hangs (it
/// holds the socket and answers nobody) is killed after `TAKEOVER_LIMIT`: its panes wait with
/// their keepers, and a server started to answer takes them over.
fn wait_for_successor(
    context: &Context,
    pid: u32,
) -> Result<phux_core::documents::StatusJson, Failure> {
    let start = Instant::now();
    let limit = takeover_limit();
    loop {
        let left = limit.saturating_sub(start.elapsed());
        if answers(&context.socket, left) {
            if let Ok(doc) = status(&context.socket) {
                if doc.running {
                    return Ok(doc);
                }
            }
        }
        if start.elapsed() > limit {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let hung = kill_hung(pid);
    let why = if hung {
        format!(
            "the new binary did not answer within {} s after the hand-off, and was killed",
            limit.as_secs()
        )
    } else {
        "no server answered after the hand-off".to_string()
    };
    match status(&context.socket) {
        Ok(doc) if doc.running => Err(Failure::new(
            ErrorCode::UpgradeFailed,
            format!(
                "{why}; server {} took its panes over from their keepers",
                doc.pid.unwrap_or_default()
            ),
            "the panes run on; see `phux logs --server` for why the binary failed, fix it \
             (`phux update --rollback` puts the previous one back), then retry",
        )),
        _ => Err(Failure::new(
            ErrorCode::UpgradeFailed,
            why,
            "see `phux logs --server`",
        )),
    }
}

/// Whether a server on `socket` says hello within `limit` (a hung one holds the socket and
/// answers nobody; a stale socket answers at once with no server).
fn answers(socket: &std::path::Path, limit: Duration) -> bool {
    let mut client = match crate::client::Client::connect_running(socket) {
        Ok(client) => client,
        // The new binary ended: a server started to answer takes the panes over.
        Err(crate::client::ClientError::NoServer { .. }) => {
            return phux_core::socket_path::panes_wait(socket)
        }
        Err(_) => return false,
    };
    client
        .set_read_timeout(Some(limit.max(Duration::from_millis(10))))
        .is_ok()
        && client.welcome().is_ok()
}

/// Kills process `pid` (the server's new binary, which answers nobody) and waits for it to
/// end; false when it was already gone.
fn kill_hung(pid: u32) -> bool {
    let Some(process) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    if rustix::process::kill_process(process, rustix::process::Signal::KILL).is_err() {
        return false;
    }
    let start = Instant::now();
    while std::path::Path::new(&format!("/proc/{pid}")).exists()
        && start.elapsed() < Duration::from_secs(5)
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}
