//! `phux __remote-link wss://HOST:PORT --token-file F --fingerprint FP`: what a hub runs for a
//! satellite reached over the satellite's listener instead of ssh. It carries the link between
//! its stdin/stdout and the listener's `/link`, the certificate pinned (see
//! `phux_server::remote::dial`).

use std::path::PathBuf;

use phux_core::hosts::Endpoint;
use phux_server::remote::dial;

/// Carry a hub's link over wss (run by the hub)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// wss://HOST:PORT
    pub url: String,
    /// The file holding the bearer token
    #[arg(long, value_name = "FILE")]
    pub token_file: PathBuf,
    /// The listener's certificate fingerprint (SHA-256)
    #[arg(long, value_name = "FP")]
    pub fingerprint: String,
}

pub fn run(args: Args) -> i32 {
    let result = Endpoint::parse(&args.url)
        .map_err(|e| e.to_string())
        .and_then(|endpoint| {
            let token = read_token(&args.token_file)?;
            dial::link_stdio(&endpoint, &token, &args.fingerprint)
        });
    match result {
        Ok(()) => 0,
        Err(why) => {
            eprintln!("phux: {why}");
            1
        }
    }
}

fn read_token(path: &std::path::Path) -> Result<String, String> {
    let bytes = phux_server::remote::private_file::read(path, 4096)
        .map_err(|e| format!("cannot read the token file {}: {e}", path.display()))?
        .ok_or_else(|| format!("the token file {} does not exist", path.display()))?;
    let token = String::from_utf8_lossy(&bytes).trim().to_owned();
    if token.is_empty() {
        return Err(format!("the token file {} is empty", path.display()));
    }
    Ok(token)
}
