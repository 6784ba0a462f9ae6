//! `phux __keeper` (hidden): holds one pane's program and terminal for as long as the program
//! runs, whatever happens to the server. Started by the server, with a socket on stdin. See
//! `phux_server::keeper`.

#[derive(clap::Args)]
pub struct Args {
    /// The pane it holds and the server's socket: read by nobody, shown by `ps` so a person
    /// sees what each keeper is (the keeper learns both from its start message).
    #[arg(num_args = 0..)]
    label: Vec<std::ffi::OsString>,
}

pub fn run(_args: Args) -> i32 {
    let exe = match std::env::current_exe() {
        // A binary replaced since it started still runs as `/proc/self/exe`.
        Ok(exe) if !exe.exists() => std::path::PathBuf::from("/proc/self/exe"),
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("phux: cannot find this executable: {e}");
            return 2;
        }
    };
    phux_server::keeper::process::run(&exe)
}
