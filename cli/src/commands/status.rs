//! `phux status [--json]`: whether a server runs at the socket and what it holds. With no
//! server the not-running document still goes to stdout (exit 1); never starts a server.

use phux_core::documents::StatusJson;
use phux_core::exit_code::{FAILURE, SUCCESS};

use crate::client::listing::status;
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Say whether a server runs, and what it holds
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print a StatusJson document (also when no server runs)
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let document = status(&context.socket)?;
    if args.json {
        output::print_json(&document);
    } else {
        for line in prose_lines(&document) {
            output::print_line(&line);
        }
    }
    Ok(if document.running { SUCCESS } else { FAILURE })
}

/// `1 window`, `2 windows`.
fn counted(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The human summary of the document.
pub fn prose_lines(doc: &StatusJson) -> Vec<String> {
    if !doc.running {
        return vec![format!("no server running at {}", doc.socket)];
    }
    let mut lines = vec![format!(
        "server running at {} (pid {})",
        doc.socket,
        doc.pid.map(|p| p.to_string()).unwrap_or_else(|| "?".into())
    )];
    if let Some(p) = doc.protocol {
        lines.push(format!("protocol: {}.{}.{}", p.major, p.minor, p.patch));
    }
    // `clients` counts every connection (verbs, streams, each attached client's several);
    // what a person means by a client is one attached to a session.
    let attached: u32 = doc.sessions.iter().map(|s| s.attached_clients).sum();
    lines.push(format!(
        "{}, {}, {}",
        counted(u64::from(attached), "attached client"),
        counted(doc.sessions.len() as u64, "session"),
        counted(u64::from(doc.clients), "open connection"),
    ));
    for s in &doc.sessions {
        lines.push(format!(
            "  {}: {}, {}",
            s.name,
            counted(u64::from(s.windows), "window"),
            counted(u64::from(s.attached_clients), "attached client")
        ));
    }
    if let Some(log) = &doc.logs.server {
        lines.push(format!("log: {log}"));
    }
    if let Some(listener) = &doc.listener {
        lines.push(format!(
            "listening on {} (TLS, certificate {}), {}",
            listener.addr,
            listener.fingerprint,
            counted(u64::from(listener.admitted), "admitted connection")
        ));
    }
    if !doc.satellite_terminals.is_empty() {
        let names: Vec<String> = doc
            .satellite_terminals
            .iter()
            .map(ToString::to_string)
            .collect();
        lines.push(format!("satellite terminals: {}", names.join(" ")));
    }
    if !doc.unreachable.is_empty() {
        lines.push(format!("unreachable: {}", doc.unreachable.join("; ")));
    }
    for ask in &doc.asks {
        let suggestions = if ask.suggestions.is_empty() {
            String::new()
        } else {
            format!(" [{}]", ask.suggestions.join("/"))
        };
        let line = format!("{} asks: {}{suggestions}", ask.pane, ask.question);
        lines.push(phux_core::limits::for_display(&line).into_owned());
    }
    if !doc.unplaced.is_empty() {
        let names: Vec<String> = doc.unplaced.iter().map(ToString::to_string).collect();
        lines.push(format!(
            "unplaced: {} (place with `phux insert-pane`)",
            names.join(" ")
        ));
    }
    for lease in &doc.leases {
        let line = format!("{} taken by {}", lease.terminal, lease.lease.holder);
        lines.push(phux_core::limits::for_display(&line).into_owned());
    }
    lines
}
