//! Acknowledged input: `send-keys`, `paste` and the `agent` writes are answered once their bytes
//! are in the pane's PTY. When the program never reads, the answer says the delivery is unknown
//! (never resend); when the pane ends before a write was handed over, that nothing was written
//! (retry is safe). Both are exit 1 with their own code, and stdout stays empty.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::io::Write;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use phux_tests::{error_line, json, TestServer};

/// A pane whose program never reads its input: the terminal's input buffer fills and the rest
/// of a large paste cannot be written (raw mode: a canonical line discipline would drop what
/// does not fit instead of holding the writer back).
fn deaf_pane(server: &TestServer) -> String {
    let pane = server.new_session(
        "deaf",
        &["sh", "-c", "stty raw -echo; echo deaf; exec sleep 600"],
    );
    server.wait_for_text(&pane, "deaf");
    pane
}

/// Starts `phux paste --json PANE` with `text` on stdin.
fn paste_in_background(server: &TestServer, pane: &str, text: &str) -> std::process::Child {
    let mut child = server
        .phux(&["paste", "--json", pane])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start paste");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(text.as_bytes()).expect("write stdin");
    drop(stdin);
    child
}

fn finished(child: std::process::Child) -> Output {
    child.wait_with_output().expect("paste finished")
}

#[test]
fn a_write_the_program_never_reads_is_delivery_unknown_after_the_completion_wait() {
    let server = TestServer::start();
    let pane = deaf_pane(&server);
    let started = Instant::now();
    let output = finished(paste_in_background(&server, &pane, &"x".repeat(200_000)));
    let waited = started.elapsed();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let line = error_line(&output);
    assert_eq!(line["error"]["code"], "delivery_unknown", "{line}");
    assert!(
        line["remedy"]
            .as_str()
            .unwrap()
            .contains("do not send it again"),
        "{line}"
    );
    // The server vouches for nothing before its completion wait is over.
    assert!(
        waited >= Duration::from_secs(4),
        "answered after {waited:?}"
    );
}

#[test]
fn a_write_still_queued_when_the_pane_ends_is_input_not_written() {
    let server = TestServer::start();
    let pane = deaf_pane(&server);
    // The first paste fills the terminal and blocks the writer; the second waits behind it.
    let blocking = paste_in_background(&server, &pane, &"x".repeat(200_000));
    std::thread::sleep(Duration::from_millis(500));
    let queued = paste_in_background(&server, &pane, "never typed");
    std::thread::sleep(Duration::from_millis(500));
    assert!(server.run(&["kill", &pane]).status.success());

    let queued = finished(queued);
    assert_eq!(queued.status.code(), Some(1), "{queued:?}");
    let line = error_line(&queued);
    assert_eq!(line["error"]["code"], "input_not_written", "{line}");
    assert!(
        line["remedy"].as_str().unwrap().contains("retry is safe"),
        "{line}"
    );
    // Part of the first one reached the terminal before the pane ended: unknown, not unwritten.
    let blocking = finished(blocking);
    assert_eq!(
        error_line(&blocking)["error"]["code"],
        "delivery_unknown",
        "{blocking:?}"
    );
}

#[test]
fn a_write_that_reaches_the_pty_is_delivered_ok() {
    let server = TestServer::start();
    let pane = server.new_session("cat", &["cat"]);
    let sent = server.run(&["send-keys", "--json", &pane, "hello", "Enter"]);
    assert!(sent.status.success(), "{sent:?}");
    let document = json(&sent);
    assert_eq!(document["delivery"], "ok");
    let pasted = finished(paste_in_background(&server, &pane, "pasted"));
    assert!(pasted.status.success(), "{pasted:?}");
    assert_eq!(json(&pasted)["delivery"], "ok");
    assert_ne!(json(&pasted)["operation_id"], document["operation_id"]);
    server.wait_for_text(&pane, "pasted");
}
