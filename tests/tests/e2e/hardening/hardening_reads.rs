//! Issue 37, item 6, through the real CLI: every file phux reads for a person is bounded, and a
//! device, a FIFO or a directory is refused where a file is expected. Fed `/dev/zero`, `play`,
//! `rec --from`, `agent explain --file`, `tape`, `workspace restore` and `config show` each
//! passed 4 GB; `phux mcp` buffered an endless input line whole.
//!
//! Each command runs under a 2 GB address-space limit (`ulimit -v`): were a read unbounded
//! again, it would fail on that limit, never take the machine down.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use phux_tests::{error_line, phux_bin, run_with_deadline, stderr, TestServer};

/// `phux ARGS` with at most 2 GB of address space, stdin from `stdin`.
fn capped(server: &TestServer, args: &[&str], stdin: &Path) -> Output {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("ulimit -v 2097152 && exec \"$0\" \"$@\"")
        .arg(phux_bin())
        .args(args)
        .env("PHUX_SOCKET", &server.socket)
        .stdin(std::fs::File::open(stdin).unwrap());
    run_with_deadline(&mut command, Duration::from_secs(60))
}

fn refused(output: &Output, code: &str, says: &str) {
    assert!(!output.status.success(), "accepted: {}", stderr(output));
    assert!(
        output.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let line = error_line(output);
    assert_eq!(line["error"]["code"], code, "{line}");
    let message = line["error"]["message"].as_str().unwrap();
    assert!(message.contains(says), "{message}");
}

/// Each verb that reads a file a person names refuses `/dev/zero` as not a file, and a
/// regular file past its limit by naming the limit; stdin is cut at the limit while read.
#[test]
fn files_given_to_phux_are_refused_when_they_are_devices_or_too_large() {
    let server = TestServer::start();
    let target = server.new_session("s", &["sleep", "600"]);
    let zero = Path::new("/dev/zero");
    let null = Path::new("/dev/null");
    let out = server.dir.path().join("out.gif");
    let out = out.to_str().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (&["play", "/dev/zero", &target, "--json"], "cast_invalid"),
        (
            &["rec", "--from", "/dev/zero", "-o", out, "--json"],
            "cast_invalid",
        ),
        (
            &[
                "agent",
                "explain",
                "--file",
                "/dev/zero",
                "--kind",
                "claude",
                "--json",
            ],
            "capture_unreadable",
        ),
        (&["tape", "/dev/zero", "--json"], "tape_invalid"),
    ];
    for (args, code) in cases {
        refused(
            &capped(&server, args, null),
            code,
            "a device, not a regular file",
        );
    }
    // From stdin the read is cut at the limit (64 MiB for a capture and an archive).
    refused(
        &capped(
            &server,
            &[
                "agent", "explain", "--file", "-", "--kind", "claude", "--json",
            ],
            zero,
        ),
        "capture_unreadable",
        "larger than 64 MiB",
    );
    // `workspace restore` has no --json: its refusal is prose.
    let said = |output: &Output, says: &str| {
        assert!(!output.status.success(), "accepted: {}", stderr(output));
        assert!(stderr(output).contains(says), "{}", stderr(output));
    };
    said(
        &capped(&server, &["workspace", "restore", "/dev/zero"], null),
        "a device, not a regular file",
    );
    said(
        &capped(&server, &["workspace", "restore", "-"], zero),
        "larger than 64 MiB",
    );
    // A regular file past the limit is refused before it is read.
    let big = server.dir.path().join("big.tape");
    let file = std::fs::File::create(&big).unwrap();
    file.set_len(5 << 20).unwrap();
    refused(
        &capped(&server, &["tape", big.to_str().unwrap(), "--json"], null),
        "tape_invalid",
        "larger than 4 MiB",
    );
}

/// `config.toml` symlinked to `/dev/zero` took a server past 4 GB in 4 s (it is re-read every
/// 500 ms); `config show` read it whole too.
#[test]
fn a_config_file_that_is_a_device_or_too_large_is_refused() {
    let server = TestServer::start();
    let config = server.dir.path().join("zero-config.toml");
    std::os::unix::fs::symlink("/dev/zero", &config).unwrap();
    let mut show = Command::new("sh");
    show.arg("-c")
        .arg("ulimit -v 2097152 && exec \"$0\" config show --json")
        .arg(phux_bin())
        .env("PHUX_CONFIG", &config);
    let output = run_with_deadline(&mut show, Duration::from_secs(60));
    refused(&output, "registry", "a device, not a regular file");
    let big = server.dir.path().join("big-config.toml");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(5 << 20)
        .unwrap();
    let mut show = Command::new(phux_bin());
    show.args(["config", "show", "--json"])
        .env("PHUX_CONFIG", &big);
    let output = run_with_deadline(&mut show, Duration::from_secs(60));
    refused(&output, "registry", "larger than 4 MiB");
}

/// `phux mcp` buffered an input line without limit: a line past 16 MiB is now read to its end
/// holding no more than the limit, answered with a parse error, and the next message is served.
#[test]
fn mcp_skips_an_input_line_past_its_limit_and_serves_the_next() {
    let server = TestServer::start();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2097152 && exec \"$0\" mcp")
        .arg(phux_bin())
        .env("PHUX_SOCKET", &server.socket)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..20 {
            stdin.write_all(&chunk).unwrap();
        }
        stdin
            .write_all(b"\n{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}\n")
            .unwrap();
    });
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first: serde_json::Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    assert!(
        first["error"]["message"]
            .as_str()
            .unwrap()
            .contains("longer than 16 MiB"),
        "{first}"
    );
    let second: serde_json::Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    assert_eq!(second["id"], 7, "{second}");
    writer.join().unwrap();
    let _ = child.kill();
    let _ = child.wait();
}

/// A plugin manifest is read bounded too: one symlinked to `/dev/zero` is refused at once
/// (`plugin validate` read it whole), naming what it is.
#[test]
fn a_plugin_manifest_that_is_a_device_is_refused() {
    let server = TestServer::start();
    let plugin = server.dir.path().join("zero-plugin");
    std::fs::create_dir(&plugin).unwrap();
    std::os::unix::fs::symlink("/dev/zero", plugin.join("phux-plugin.toml")).unwrap();
    let mut command = server.phux(&["plugin", "link", "--json", plugin.to_str().unwrap()]);
    let output = run_with_deadline(&mut command, Duration::from_secs(60));
    assert!(!output.status.success(), "accepted: {}", stderr(&output));
    let line = error_line(&output);
    let message = line["error"]["message"].as_str().unwrap();
    assert!(message.contains("not a regular file"), "{line}");
}
