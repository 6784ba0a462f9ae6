//! `phux config path`: where phux reads its config (`PHUX_CONFIG`, else the XDG path), whether
//! or not the file exists.

use phux_core::config::paths::config_path;
use phux_core::exit_code::SUCCESS;

use crate::output;

/// Print the config file's path
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> i32 {
    output::print_line(&config_path().display().to_string());
    SUCCESS
}
