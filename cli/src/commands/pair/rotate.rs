//! `phux pair rotate ID`: a new generation and its one-time token; the older generations stay
//! valid for the overlap, never past the credential's expiry. An expired or revoked credential
//! is refused before anything is minted.

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
    /// Seconds the older tokens stay valid
    #[arg(
        long,
        alias = "overlap-seconds",
        value_name = "SECS",
        default_value_t = 300
    )]
    pub overlap: u64,
    /// The token store [default: $PHUX_WS_TOKENS, else ~/.local/state/phux/remote-tokens]
    #[arg(long, value_name = "PATH")]
    pub tokens: Option<PathBuf>,
    /// Print {schema_version, operation, credential_id, generation, token, overlap_seconds,
    /// tokens_path}
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> i32 {
    conclude(args.json, execute(&args))
}

fn execute(args: &Args) -> VerbResult {
    let path = super::store_path(args.tokens.clone());
    let minted = Store::update(&path, |store| store.rotate(&path, &args.id, args.overlap))
        .map_err(super::store_failure)?;
    if args.json {
        output::print_json(&serde_json::json!({
            "schema_version": 1,
            "operation": "rotate",
            "credential_id": minted.credential_id,
            "generation": minted.generation,
            "token": minted.token,
            "overlap_seconds": args.overlap,
            "tokens_path": path.display().to_string(),
        }));
    } else {
        output::print_lines(&[
            format!(
                "rotated credential {} to generation {}",
                minted.credential_id, minted.generation
            ),
            format!("token (shown once): {}", minted.token),
            format!("older tokens stay valid for {} s", args.overlap),
        ]);
    }
    Ok(SUCCESS)
}
