//! `phux host ls [--role remote|satellite] [--json]`.

use phux_core::documents::host::HostListJson;
use phux_core::exit_code::SUCCESS;
use phux_core::hosts::{host_list, HostRole};

use super::{config_path, host_list_failure, prose_line, RoleArg};
use crate::failure::VerbResult;
use crate::output;

/// List the configured hosts
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only this registry
    #[arg(long, value_enum)]
    pub role: Option<RoleArg>,
    /// Print the host registry document
    #[arg(long)]
    pub json: bool,
}

pub fn execute(args: &Args) -> VerbResult {
    let role = args.role.map(HostRole::from);
    let hosts: Vec<_> = host_list::list(&config_path())
        .map_err(host_list_failure)?
        .into_iter()
        .filter(|h| role.is_none_or(|r| r == h.role))
        .collect();
    if args.json {
        output::print_json(&HostListJson::new(hosts));
    } else {
        for host in &hosts {
            output::print_line(&prose_line(host));
        }
    }
    Ok(SUCCESS)
}
