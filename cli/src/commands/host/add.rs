//! `phux host add NAME ENDPOINT [--role remote|satellite] [--session S] [--disabled] [--json]`.
//! Never dials: a running hub picks a new satellite up from the file within a second.

use phux_core::hosts::{HostEntry, HostRole};

use super::{add_and_report, RoleArg};
use crate::failure::VerbResult;

/// Add a host to the registry (never dials it)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The host's name: letters, digits, '.', '_', '-' (satellite panes are NAME/@N)
    #[arg(value_name = "NAME")]
    pub name: String,
    /// ssh://[user@]host[:port], or wss://HOST:PORT (a host's remote listener; give
    /// --token-file and --cert-fingerprint)
    #[arg(value_name = "ENDPOINT")]
    pub endpoint: String,
    /// Which registry: remote (attach NAME) or satellite (dialed by the hub)
    #[arg(long, value_enum, default_value_t = RoleArg::Remote)]
    pub role: RoleArg,
    /// The session `attach NAME` opens there (remote hosts only)
    #[arg(long, value_name = "SESSION")]
    pub session: Option<String>,
    /// Keep the satellite configured but not dialed
    #[arg(long)]
    pub disabled: bool,
    /// A file holding the bearer token `phux pair` printed on the host (kept in the entry)
    #[arg(long, value_name = "PATH")]
    pub token_file: Option<String>,
    /// The host's listener certificate fingerprint, pinned (kept in the entry)
    #[arg(long, visible_alias = "fingerprint", value_name = "FP")]
    pub cert_fingerprint: Option<String>,
    /// Print the added entry as a document
    #[arg(long)]
    pub json: bool,
}

pub fn execute(args: Args) -> VerbResult {
    let role = HostRole::from(args.role);
    let entry = HostEntry {
        name: args.name,
        role,
        endpoint: args.endpoint,
        enabled: args.disabled.then_some(false),
        token_file: args.token_file,
        cert_fingerprint: args.cert_fingerprint,
        session: args.session,
    };
    add_and_report(entry, args.json)
}
