//! `phux __pane-exec -- PROGRAM...` (hidden): the first step of every pane's process. See
//! `phux_server::shim`.

use std::ffi::OsString;

#[derive(clap::Args)]
pub struct Args {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true)]
    argv: Vec<OsString>,
}

pub fn run(args: Args) -> i32 {
    let error = phux_server::shim::exec_in_pty(&args.argv);
    eprintln!("phux: {error}");
    127
}
