//! `phux mcp` with a client nobody here wrote: the official MCP Python SDK (PyPI `mcp`), in a
//! venv made under the build directory. Its stdio client starts `phux mcp`, initializes, lists
//! the tools, creates a session, runs a command, waits for text, snapshots, and gets an
//! `isError` result for a missing pane (tests/mcp/sdk_client.py). Skipped, saying why, where
//! the SDK cannot be installed.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::time::Duration;

use phux_tests::mcp::{sdk_client_script, sdk_python};
use phux_tests::{phux_bin, run_with_deadline, TestServer};

#[test]
fn the_official_python_sdk_drives_phux_mcp() {
    let python = match sdk_python() {
        Ok(python) => python,
        Err(why) => {
            phux_tests::missing(&format!("the MCP Python SDK ({why})"));
            return;
        }
    };
    let server = TestServer::start();
    let output = run_with_deadline(
        std::process::Command::new(python)
            .arg(sdk_client_script())
            .arg(phux_bin())
            .arg(&server.socket),
        Duration::from_secs(120),
    );
    let transcript = String::from_utf8_lossy(&output.stdout);
    println!("{transcript}");
    assert!(
        output.status.success(),
        "the SDK client failed:\n{transcript}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let steps: Vec<&str> = transcript.lines().collect();
    assert!(
        steps[0].starts_with("initialize: protocolVersion 2025-"),
        "{transcript}"
    );
    let listed = steps
        .iter()
        .find_map(|l| l.strip_prefix("tools/list: "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse::<usize>().ok());
    // The default set: the terminal loop, at most 15 tools (`--tools all` lists the rest).
    assert!(
        listed.is_some_and(|n| (10..=15).contains(&n)),
        "{transcript}"
    );
    assert!(
        steps
            .iter()
            .any(|l| l.contains("isError True, code no_such_target")),
        "{transcript}"
    );
    assert_eq!(steps.last(), Some(&"result: OK"), "{transcript}");
}
