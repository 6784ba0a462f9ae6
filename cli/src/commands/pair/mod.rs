//! `phux pair` (§4.18): mint a bearer token for a browser or a hub that reaches this machine's
//! remote listener, and `pair rotate`, `pair revoke`, `pair list`. None of them talks to a
//! server (but `pair connections`, `pair disconnect` and `pair revoke --disconnect`, which see
//! and end the running server's admitted connections): they edit the token store (`--tokens`, `PHUX_WS_TOKENS`, else
//! `~/.local/state/phux/remote-tokens`), which the listener reads at every new connection.

mod connections;
mod disconnect;
mod list;
mod mint;
mod revoke;
mod rotate;

use std::path::PathBuf;

use phux_core::error_code::ErrorCode;
use phux_server::remote::tokens::StoreError;

use crate::failure::Failure;

/// Mint a token for a browser or hub to reach this machine's listener (rotate, revoke, list)
#[derive(Debug, clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = "\
The listener is off until it is started: `phux listen HOST:PORT` (on the running server),
`phux server --ws-addr HOST:PORT`, PHUX_WS_ADDR, or `[listener] ws_addr` in config.toml. The token is printed once; only its
hash is kept. Open `connect_link` in a browser to see this machine's sessions, or give the
token to a hub: `phux host add NAME wss://HOST:PORT --token-file F --cert-fingerprint FP`."
)]
pub struct Args {
    #[command(subcommand)]
    pub action: Option<Action>,
    #[command(flatten)]
    pub mint: mint::Flags,
}

#[derive(Debug, clap::Subcommand)]
pub enum Action {
    Rotate(rotate::Args),
    Revoke(revoke::Args),
    #[command(visible_alias = "ls")]
    List(list::Args),
    /// The remote connections the running server admitted
    Connections(connections::Args),
    /// End every connection the running server admitted with a credential
    Disconnect(disconnect::Args),
}

pub fn run(args: Args, context: &super::Context) -> i32 {
    match args.action {
        Some(Action::Rotate(args)) => rotate::run(args),
        Some(Action::Revoke(args)) => revoke::run(args, context),
        Some(Action::Connections(args)) => connections::run(args, context),
        Some(Action::Disconnect(args)) => disconnect::run(args, context),
        Some(Action::List(args)) => list::run(args),
        None => mint::run(args.mint, context),
    }
}

/// `--tokens PATH`, else `PHUX_WS_TOKENS`, else the state directory's store.
fn store_path(flag: Option<PathBuf>) -> PathBuf {
    flag.unwrap_or_else(phux_server::remote::tokens::default_path)
}

fn store_failure(error: StoreError) -> Failure {
    let remedy = match &error {
        StoreError::Read { path, .. } | StoreError::Invalid { path, .. } => {
            format!(
                "fix or move {} (it is the listener's token store)",
                path.display()
            )
        }
        StoreError::Write { path, .. } | StoreError::Lock { path, .. } => {
            format!("make {} writable by you", path.display())
        }
        StoreError::NoSuchCredential { .. } => "`phux pair list` shows the credentials".into(),
        StoreError::Expired { .. } | StoreError::Revoked { .. } => {
            "mint a new credential with `phux pair`".into()
        }
        StoreError::Full { .. } => "revoke credentials no device uses (`phux pair list`)".into(),
        StoreError::Random(_) => "check /dev/urandom".into(),
    };
    let code = match &error {
        StoreError::NoSuchCredential { .. }
        | StoreError::Expired { .. }
        | StoreError::Revoked { .. } => ErrorCode::InvalidArgument,
        _ => ErrorCode::Registry,
    };
    Failure::new(code, error.to_string(), remedy)
}
