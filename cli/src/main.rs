//! The `phux` binary: parses the command line and hands the verb to its file under `commands/`
//! (the hottest agent calls first through `quick`, which skips describing them to clap).
//!
//! The binary has its own C `main` instead of Rust's: agents start a `phux` per read or
//! keystroke, and Rust's start-up adds about 70 µs to each here (it reads `/proc/self/maps` to
//! find the main thread's stack and sets up a signal stack to report its overflow). Of what
//! that start-up does, phux keeps what it relies on: SIGPIPE ignored (a closed pipe is an
//! error to report, not a silent death), standard descriptors that are never left closed, a
//! panic that exits 101, and stdout flushed at exit (`std::process::exit` does that).

#![no_main]
#![warn(clippy::undocumented_unsafe_blocks)]

use phux_cli::cli::Cli;

/// The process's entry point, called by the C runtime (the arguments are read through
/// `std::env`, which has them from the runtime too).
#[unsafe(no_mangle)]
extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    prepare_process();
    let code = std::panic::catch_unwind(run).unwrap_or(PANIC_EXIT);
    std::process::exit(code)
}

/// Rust's own exit status for a panic in `main`.
const PANIC_EXIT: i32 = 101;

fn run() -> i32 {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(code) = phux_cli::quick::run(&args) {
        return code;
    }
    match Cli::try_from_args(args.clone()) {
        Ok(cli) => phux_cli::commands::run(cli.command, &cli.globals.context()),
        Err(error) => phux_cli::usage::report(&error, phux_cli::usage::wants_json(&args)),
    }
}

/// SIGPIPE ignored, and descriptors 0–2 open (on `/dev/null` when the caller closed them), so
/// a file phux opens never lands on one of them.
fn prepare_process() {
    // SAFETY: setting a signal's disposition to SIG_IGN installs no handler code.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let mut fds = [0, 1, 2].map(|fd| libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    });
    // SAFETY: `fds` is a valid array of three pollfd for the duration of the call.
    let polled = unsafe { libc::poll(fds.as_mut_ptr(), 3, 0) };
    if polled <= 0 {
        return;
    }
    for pollfd in fds.iter().filter(|p| p.revents & libc::POLLNVAL != 0) {
        // SAFETY: the path is a NUL-terminated C string; the lowest free descriptor is the
        // closed one being filled, as the three are checked in order.
        let opened = unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) };
        if opened != pollfd.fd && opened >= 0 {
            // SAFETY: `opened` is a descriptor this function just opened.
            unsafe { libc::close(opened) };
        }
    }
}
