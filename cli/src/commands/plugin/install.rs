//! `phux plugin install REF [--rev R] [--disabled] [--json]`: fetches a plugin (git URL,
//! directory or tarball) into the data directory, builds it, records its source in
//! `plugins.lock`, and links it. When any step fails nothing is installed or linked.

use phux_core::exit_code::SUCCESS;

use crate::failure::{conclude, VerbResult};
use crate::registry::install;

/// Install a plugin from a git URL, a directory or a .tar/.tar.gz/.tgz, and link it
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A git URL (https://, ssh://, git@, file://), a directory, or a tarball
    #[arg(value_name = "REF")]
    pub source: String,
    /// For a git source: the branch, tag or commit to check out
    #[arg(long, value_name = "R")]
    pub rev: Option<String>,
    /// Link it turned off
    #[arg(long)]
    pub disabled: bool,
    /// Print {"plugin": ...} as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> i32 {
    conclude(args.json, execute(&args))
}

fn execute(args: &Args) -> VerbResult {
    let plugin = install::install(&args.source, args.rev.as_deref(), args.disabled)?;
    super::print_wrapped(&plugin, args.json, "installed");
    Ok(SUCCESS)
}
