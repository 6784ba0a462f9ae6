//! Writing to stdout and stderr: the document on stdout, everything else on stderr. Every
//! write ignores errors, so a closed pipe (`phux ls --json | head -c1`) ends nothing badly:
//! the verb finishes and exits with its own status. (`println!` would panic on EPIPE, so
//! verbs print only through here.)

use std::io::Write;

/// Prints one JSON document and a newline on stdout.
pub fn print_json<T: serde::Serialize>(document: &T) {
    let _ = write_json(document);
}

/// Prints one document on stdout; an error means nobody reads it any more (a closed pipe).
pub fn write_json<T: serde::Serialize>(document: &T) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer(&mut stdout, document)?;
    writeln!(stdout)?;
    stdout.flush()
}

/// Prints one line on stdout.
pub fn print_line(line: &str) {
    let _ = write_line(line);
}

/// Prints one line on stdout; an error means nobody reads it any more (a closed pipe).
pub fn write_line(line: &str) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{line}")?;
    stdout.flush()
}

/// Prints lines on stdout, flushed once at the end.
pub fn print_lines(lines: &[String]) {
    let mut stdout = std::io::stdout().lock();
    for line in lines {
        if writeln!(stdout, "{line}").is_err() {
            return;
        }
    }
    let _ = stdout.flush();
}

/// Prints one line on stderr.
pub fn stderr_line(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// A prose warning on stderr; it may precede a document or an error line.
pub fn warn(message: &str) {
    stderr_line(&format!("phux: warning: {message}"));
}

/// Prints a failure in prose: the message, then an indented remedy.
pub fn print_error(message: &str, remedy: &str) {
    stderr_line(&format!("phux: {message}"));
    stderr_line(&format!("  {remedy}"));
}
