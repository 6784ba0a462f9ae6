//! `phux pair connections`: the connections the running server's remote listener admitted,
//! with their credential, path, address and open channels (`pair disconnect ID` ends them).

use std::path::PathBuf;

use phux_core::error_code::ErrorCode;
use phux_core::exit_code::SUCCESS;
use phux_core::wire::{ClientMessage, IdOnly, RemoteConnectionsOk};
use phux_server::remote::tokens::Store;

use crate::commands::values::connect;
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The token store, for the credentials' names [default: $PHUX_WS_TOKENS, else
    /// ~/.local/state/phux/remote-tokens]
    #[arg(long, value_name = "PATH")]
    pub tokens: Option<PathBuf>,
    /// Print {schema_version, connections[{connection, credential_id, name, read_only, path,
    /// peer, since_unix, channels}]}
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let connections = match connect(context) {
        Ok(mut client) => {
            let ok: RemoteConnectionsOk =
                client.request(ClientMessage::RemoteConnections(IdOnly { id: 0 }))?;
            ok.connections
        }
        Err(failure) if failure.code == ErrorCode::NoServer => Vec::new(),
        Err(failure) => return Err(failure),
    };
    // Names are the store's; a store that cannot be read only costs the names.
    let store = Store::load(&super::store_path(args.tokens.clone())).ok();
    let name = |id: &str| {
        store
            .as_ref()
            .and_then(|s| s.credentials.iter().find(|c| c.id == id))
            .and_then(|c| c.name.clone())
    };
    let rows: Vec<serde_json::Value> = connections
        .iter()
        .map(|c| {
            serde_json::json!({
                "connection": c.connection,
                "credential_id": c.credential_id,
                "name": name(&c.credential_id),
                "read_only": c.read_only,
                "path": c.path,
                "peer": c.peer,
                "since_unix": c.since_unix,
                "channels": c.channels,
            })
        })
        .collect();
    if args.json {
        output::print_json(&serde_json::json!({
            "schema_version": 1,
            "connections": rows,
        }));
    } else if connections.is_empty() {
        output::print_line("no remote connections");
    } else {
        let lines: Vec<String> = connections
            .iter()
            .map(|c| {
                format!(
                    "{}  {}{}  {}  {}  {} channel(s)  {}",
                    c.connection,
                    c.credential_id,
                    if c.read_only { " read-only" } else { "" },
                    c.path,
                    c.peer,
                    c.channels,
                    name(&c.credential_id).unwrap_or_default()
                )
            })
            .collect();
        output::print_lines(&lines);
    }
    Ok(SUCCESS)
}
