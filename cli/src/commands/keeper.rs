//! `phux __keeper` (hidden): holds one pane's program and terminal for as long as the program
//! runs, whatever happens to the server. Started by the server, with a socket on stdin. See
//! `phux_server::keeper`.

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> i32 {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("phux: cannot find this executable: {e}");
            return 2;
        }
    };
    phux_server::keeper::process::run(&exe)
}
