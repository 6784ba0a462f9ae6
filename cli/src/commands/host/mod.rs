//! `phux host ls|add|rm|enroll`: the host registry (`[[satellites]]`, `[[remote]]` in
//! `config.toml`). `ls`, `add` and `rm` only read and edit the file; `enroll` checks over ssh
//! that the host runs a phux this hub can talk to, then adds it.

mod add;
mod enroll;
mod enroll_link;
mod ls;
mod rm;

use phux_core::error_code::ErrorCode;
use phux_core::hosts::{HostListError, HostRole};

use crate::commands::Context;
use crate::failure::{conclude, Failure};

/// Manage the satellites this hub dials and the remote hosts attach reaches
#[derive(Debug, clap::Args)]
#[command(after_help = "\
The registry is the [[satellites]] and [[remote]] arrays of config.toml ($PHUX_CONFIG, else
$XDG_CONFIG_HOME/phux/config.toml, else ~/.config/phux/config.toml). ls, add and rm never dial;
a running server picks satellite edits up within a second. The server reaches a satellite with
`ssh -T -o BatchMode=yes [-p PORT] [USER@]HOST phux proxy` ($PHUX_SSH names another ssh, with
options), and lists its panes as NAME/@N.

Examples:
  phux host enroll me@build-box          check phux runs there, then add it as a satellite
  phux host enroll --link-file - --fingerprint FP < link.txt
                                         the same for a connect link from `phux pair` there
  phux host add gpu ssh://me@gpu:2222 --role satellite
  phux ls --json                         terminals include \"gpu/@3\"; unreachable lists links down
  phux snapshot gpu/@3
  phux host rm gpu")]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, clap::Subcommand)]
pub enum Action {
    #[command(visible_alias = "list")]
    Ls(ls::Args),
    Add(add::Args),
    Rm(rm::Args),
    Enroll(enroll::Args),
}

pub fn run(args: Args, _context: &Context) -> i32 {
    match args.action {
        Action::Ls(args) => conclude(args.json, ls::execute(&args)),
        Action::Add(args) => conclude(args.json, add::execute(args)),
        Action::Rm(args) => conclude(args.json, rm::execute(&args)),
        Action::Enroll(args) => conclude(args.json, enroll::execute(args)),
    }
}

/// `--role`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RoleArg {
    Remote,
    Satellite,
}

impl From<RoleArg> for HostRole {
    fn from(role: RoleArg) -> HostRole {
        match role {
            RoleArg::Remote => HostRole::Remote,
            RoleArg::Satellite => HostRole::Satellite,
        }
    }
}

/// A registry read, validation or write that failed: `registry`, exit 1.
pub fn host_list_failure(error: HostListError) -> Failure {
    let remedy = match &error {
        HostListError::File(_) | HostListError::BadEntry { .. } => {
            "fix the file at the line named (or run `phux host rm NAME` for a bad entry)"
        }
        HostListError::InvalidName(_) => "pick a name like build-box (it becomes NAME/@N)",
        HostListError::InvalidEndpoint(_) => {
            "write the endpoint as ssh://[user@]host[:port], e.g. ssh://me@build-box:2222"
        }
        HostListError::Duplicate { .. } => {
            "pick another name, or remove the old entry first with `phux host rm NAME`"
        }
        HostListError::Missing(_) => "list the configured hosts with `phux host ls`",
        HostListError::Refused(_) => "see `phux host add --help`",
    };
    Failure::new(ErrorCode::Registry, error.to_string(), remedy)
}

/// The config file the registry lives in.
pub fn config_path() -> std::path::PathBuf {
    phux_core::config::paths::config_path()
}

/// `devbox  satellite  ssh://devbox  enabled`, one line per host.
/// Adds `entry` to its registry and prints it as added (a §4.10 document with `json`).
pub fn add_and_report(
    entry: phux_core::hosts::HostEntry,
    json: bool,
) -> crate::failure::VerbResult {
    let added =
        phux_core::hosts::host_list::add(&config_path(), entry).map_err(host_list_failure)?;
    if json {
        crate::output::print_json(&phux_core::documents::host::HostJson::new(added));
    } else {
        crate::output::print_line(&prose_line(&added));
    }
    Ok(phux_core::exit_code::SUCCESS)
}

pub fn prose_line(host: &phux_core::hosts::HostEntry) -> String {
    let state = match (host.enabled, &host.session) {
        (Some(true), _) => "enabled".to_owned(),
        (Some(false), _) => "disabled".to_owned(),
        (None, Some(session)) => format!("session {session}"),
        (None, None) => String::new(),
    };
    format!(
        "{}\t{}\t{}\t{state}",
        host.name,
        host.role.as_str(),
        host.endpoint
    )
    .trim_end()
    .to_owned()
}
