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
    let after = wait_for_successor(context)?;
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

/// The status of the server that answers next on the socket.
fn wait_for_successor(context: &Context) -> Result<phux_core::documents::StatusJson, Failure> {
    let start = Instant::now();
    loop {
        if let Ok(doc) = status(&context.socket) {
            if doc.running {
                return Ok(doc);
            }
        }
        if start.elapsed() > TAKEOVER_LIMIT {
            return Err(Failure::new(
                ErrorCode::UpgradeFailed,
                "no server answered after the hand-off",
                "see `phux logs --server`",
            ));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
