//! `phux pair revoke ID`: every token of the credential is refused from the next connection
//! on; a connection already admitted keeps its admission until it ends (§4.18), unless
//! `--disconnect` ends those too, at once.

use std::path::PathBuf;

use phux_core::exit_code::SUCCESS;
use phux_server::remote::tokens::Store;

use crate::failure::{conclude, VerbResult};
use crate::output;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The credential (its id, from `pair --json` or `pair list`)
    #[arg(value_name = "CREDENTIAL_ID")]
    pub id: String,
    /// The token store [default: $PHUX_WS_TOKENS, else ~/.local/state/phux/remote-tokens]
    #[arg(long, value_name = "PATH")]
    pub tokens: Option<PathBuf>,
    /// Also end, at once, every connection the running server admitted with it
    #[arg(long)]
    pub disconnect: bool,
    /// Print {schema_version, operation, credential_id, tokens_path} (and disconnected, with
    /// --disconnect)
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &crate::commands::Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &crate::commands::Context) -> VerbResult {
    let path = super::store_path(args.tokens.clone());
    Store::update(&path, |store| store.revoke(&path, &args.id)).map_err(super::store_failure)?;
    // Revoked first, so a connection ended here cannot come back with the same token.
    let disconnected = if args.disconnect {
        Some(super::disconnect::end_connections(context, &args.id)?)
    } else {
        None
    };
    if args.json {
        let mut document = serde_json::json!({
            "schema_version": 1,
            "operation": "revoke",
            "credential_id": args.id,
            "tokens_path": path.display().to_string(),
        });
        if let Some(n) = disconnected {
            document["disconnected"] = n.into();
        }
        output::print_json(&document);
    } else {
        output::print_line(&format!("revoked credential {}", args.id));
        if let Some(n) = disconnected {
            output::print_line(&format!("ended {n} of its connection(s)"));
        }
    }
    Ok(SUCCESS)
}
