//! The testkit: the real `phux` binary run as a user would, with a private environment and a
//! deadline on every wait, so a hung test fails instead of hanging CI.

#![allow(clippy::expect_used, clippy::unwrap_used)] // the testkit fails loudly by design

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The `phux` binary of this build: `$PHUX_BIN`, else `target/<profile>/phux` beside the test
/// executable (`scripts/test` builds it first).
pub fn phux_bin() -> PathBuf {
    if let Some(path) = std::env::var_os("PHUX_BIN") {
        return PathBuf::from(path);
    }
    let exe = std::env::current_exe().expect("test executable path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>");
    let bin = profile_dir.join("phux");
    assert!(
        bin.exists(),
        "{} is missing: run `cargo build -p phux-cli` (scripts/test does)",
        bin.display()
    );
    bin
}

/// A `phux` invocation with the caller's environment plus overrides.
pub fn phux(args: &[&str]) -> Command {
    let mut command = Command::new(phux_bin());
    command.args(args).stdin(Stdio::null());
    command
}

/// Runs a command to completion, failing the test if it takes longer than `limit`.
pub fn run_with_deadline(command: &mut Command, limit: Duration) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn phux");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("{command:?} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Runs with the default 60 s deadline (an engine download can take a few seconds).
pub fn run(command: &mut Command) -> Output {
    run_with_deadline(command, Duration::from_secs(60))
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

pub fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}): {}", stdout(output)))
}
