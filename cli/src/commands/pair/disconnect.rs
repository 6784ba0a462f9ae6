//! `phux pair disconnect ID`: ends every connection the running server admitted with the
//! credential, at once (its tokens stay valid: `pair revoke ID --disconnect` ends both).

use phux_core::error_code::ErrorCode;
use phux_core::exit_code::SUCCESS;
use phux_core::wire::{ClientMessage, RemoteDisconnect, RemoteDisconnectOk};

use crate::commands::values::connect;
use crate::commands::Context;
use crate::failure::{conclude, Failure, VerbResult};
use crate::output;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The credential (its id, from `pair list` or `pair connections`)
    #[arg(value_name = "CREDENTIAL_ID")]
    pub id: String,
    /// Print {schema_version, operation, credential_id, disconnected}
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let disconnected = end_connections(context, &args.id)?;
    if args.json {
        output::print_json(&serde_json::json!({
            "schema_version": 1,
            "operation": "disconnect",
            "credential_id": args.id,
            "disconnected": disconnected,
        }));
    } else {
        output::print_line(&format!(
            "ended {disconnected} connection(s) of credential {}",
            args.id
        ));
    }
    Ok(SUCCESS)
}

/// Asks the running server to end `id`'s connections; 0 when no server runs (then none is
/// open).
pub fn end_connections(context: &Context, id: &str) -> Result<u32, Failure> {
    let mut client = match connect(context) {
        Ok(client) => client,
        Err(failure) if failure.code == ErrorCode::NoServer => return Ok(0),
        Err(failure) => return Err(failure),
    };
    let ok: RemoteDisconnectOk =
        client.request(ClientMessage::RemoteDisconnect(RemoteDisconnect {
            id: 0,
            credential_id: id.to_owned(),
        }))?;
    Ok(ok.disconnected)
}
