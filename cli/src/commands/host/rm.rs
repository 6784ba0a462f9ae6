//! `phux host rm NAME [--role remote|satellite] [--json]`. A running hub drops the satellite's
//! link within a second.

use phux_core::documents::host::HostRemovedJson;
use phux_core::exit_code::SUCCESS;
use phux_core::hosts::host_list;

use super::{config_path, host_list_failure, RoleArg};
use crate::failure::VerbResult;
use crate::output;

/// Remove a host from the registry
#[derive(Debug, clap::Args)]
pub struct Args {
    #[arg(value_name = "NAME")]
    pub name: String,
    /// Only look in this registry
    #[arg(long, value_enum)]
    pub role: Option<RoleArg>,
    /// Print what was removed as a document
    #[arg(long)]
    pub json: bool,
}

pub fn execute(args: &Args) -> VerbResult {
    let (name, role) = host_list::remove(&config_path(), &args.name, args.role.map(Into::into))
        .map_err(host_list_failure)?;
    if args.json {
        output::print_json(&HostRemovedJson::new(name, role));
    } else {
        output::print_line(&format!("removed {name} ({})", role.as_str()));
    }
    Ok(SUCCESS)
}
