//! `phux pair list`: the credentials in the token store, never a token.

use std::path::PathBuf;

use phux_core::exit_code::SUCCESS;
use phux_server::remote::tokens::{now_unix, Store};

use crate::failure::{conclude, VerbResult};
use crate::output;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The token store [default: $PHUX_WS_TOKENS, else ~/.local/state/phux/remote-tokens]
    #[arg(long, value_name = "PATH")]
    pub tokens: Option<PathBuf>,
    /// Print {schema_version, tokens_path, credentials[{credential_id, name, generation,
    /// read_only, status, expires_unix}]}
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> i32 {
    conclude(args.json, execute(&args))
}

fn execute(args: &Args) -> VerbResult {
    let path = super::store_path(args.tokens.clone());
    let store = Store::load(&path).map_err(super::store_failure)?;
    let now = now_unix();
    let rows: Vec<serde_json::Value> = store
        .credentials
        .iter()
        .map(|c| {
            let status = if c.revoked {
                "revoked"
            } else if c.expires_unix <= now {
                "expired"
            } else {
                "active"
            };
            serde_json::json!({
                "credential_id": c.id,
                "name": c.name,
                "generation": c.generations.iter().map(|g| g.generation).max().unwrap_or(0),
                "read_only": c.read_only,
                "status": status,
                "expires_unix": c.expires_unix,
            })
        })
        .collect();
    if args.json {
        output::print_json(&serde_json::json!({
            "schema_version": 1,
            "tokens_path": path.display().to_string(),
            "credentials": rows,
        }));
    } else if rows.is_empty() {
        output::print_line(&format!("no credentials in {}", path.display()));
    } else {
        let lines: Vec<String> = rows
            .iter()
            .map(|r| {
                format!(
                    "{}  gen {}  {}{}  {}",
                    r["credential_id"].as_str().unwrap_or_default(),
                    r["generation"],
                    r["status"].as_str().unwrap_or_default(),
                    if r["read_only"] == true {
                        " read-only"
                    } else {
                        ""
                    },
                    r["name"].as_str().unwrap_or("")
                )
            })
            .collect();
        output::print_lines(&lines);
    }
    Ok(SUCCESS)
}
