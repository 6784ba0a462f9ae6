//! Writing to stdout and stderr: the document on stdout, everything else on stderr, and a
//! closed pipe (`phux ... --json | head -1`) is not an error.

use std::io::Write;

/// Restores the default SIGPIPE disposition so a closed stdout ends the process quietly
/// instead of panicking inside `println!`.
pub fn ignore_sigpipe() {
    // SAFETY: setting a signal disposition to SIG_DFL at startup, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Prints one JSON document and a newline on stdout.
pub fn print_json<T: serde::Serialize>(document: &T) {
    let mut stdout = std::io::stdout().lock();
    let _ = serde_json::to_writer(&mut stdout, document);
    let _ = writeln!(stdout);
}

/// Prints a failure in prose: the message, then an indented remedy.
pub fn print_error(message: &str, remedy: &str) {
    eprintln!("phux: {message}");
    eprintln!("  {remedy}");
}
