//! `phux pair revoke ID`: every token of the credential is refused from the next connection
//! on; a connection already admitted keeps its admission until it ends.

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
    /// Print {schema_version, operation, credential_id, tokens_path}
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> i32 {
    conclude(args.json, execute(&args))
}

fn execute(args: &Args) -> VerbResult {
    let path = super::store_path(args.tokens.clone());
    Store::update(&path, |store| store.revoke(&path, &args.id)).map_err(super::store_failure)?;
    if args.json {
        output::print_json(&serde_json::json!({
            "schema_version": 1,
            "operation": "revoke",
            "credential_id": args.id,
            "tokens_path": path.display().to_string(),
        }));
    } else {
        output::print_line(&format!("revoked credential {}", args.id));
    }
    Ok(SUCCESS)
}
