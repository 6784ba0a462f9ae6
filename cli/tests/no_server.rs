//! The real binary against a socket nothing listens on: failures are reported per the
//! contract, and refusals that need no server happen before connecting.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers fail loudly by design

mod support;

use support::{error_doc, phux, stderr, stdout};

fn missing_socket() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let socket = dir.path().join("nobody-home.sock");
    (dir, socket)
}

#[test]
fn ls_json_with_no_server_is_one_error_line_and_exit_1() {
    let (_dir, socket) = missing_socket();
    let out = phux(&socket, &["ls", "--json"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "stdout: {}", stdout(&out));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    let doc = error_doc(&out);
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["error"]["code"], "no_server");
    assert!(doc["error"]["message"]
        .as_str()
        .is_some_and(|m| m.contains("nobody-home.sock")));
    assert!(doc["remedy"].as_str().is_some_and(|r| !r.is_empty()));
    assert_eq!(doc["exit_code"], 1);
}

#[test]
fn ls_prose_with_no_server_is_message_and_indented_remedy() {
    let (_dir, socket) = missing_socket();
    let out = phux(&socket, &["ls"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].starts_with("phux: no server running at "), "{err}");
    assert!(lines[1].starts_with("  "), "{err}");
}

#[test]
fn ls_never_starts_a_server() {
    let (_dir, socket) = missing_socket();
    let _ = phux(&socket, &["ls"], None);
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert!(!socket.exists(), "ls must not start a server");
}

#[test]
fn status_json_with_no_server_prints_the_not_running_document() {
    let (_dir, socket) = missing_socket();
    let out = phux(&socket, &["status", "--json"], None);
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["running"], false);
    assert_eq!(doc["socket"], socket.display().to_string());
    assert!(doc["pid"].is_null() && doc["protocol"].is_null());
    assert_eq!(doc["sessions"], serde_json::json!([]));
    assert_eq!(doc["unreachable"], serde_json::json!([]));
}

#[test]
fn send_keys_with_an_invalid_key_is_refused_before_connecting() {
    let (_dir, socket) = missing_socket();
    let out = phux(&socket, &["send-keys", "@1", "C-"], None);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("invalid key spec"), "{err}");
    assert!(!err.contains("no server"), "{err}");
}

#[test]
fn spawn_json_with_a_bad_ratio_is_invalid_ratio_exit_2() {
    let (_dir, socket) = missing_socket();
    for ratio in ["0", "1", "1.5", "-0.2", "NaN"] {
        let out = phux(&socket, &["spawn", "--json", "--ratio", ratio], None);
        assert_eq!(out.status.code(), Some(2), "ratio {ratio}");
        assert!(out.stdout.is_empty());
        assert_eq!(error_doc(&out)["error"]["code"], "invalid_ratio");
    }
}

#[test]
fn spatial_edits_check_ratio_and_selectors_before_connecting() {
    let (_dir, socket) = missing_socket();
    let out = phux(
        &socket,
        &["insert-pane", "--json", "@1", "@2", "--ratio", "2"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(error_doc(&out)["error"]["code"], "invalid_ratio");
    let out = phux(&socket, &["move-pane", "--json", "@x", "@2"], None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(error_doc(&out)["error"]["code"], "invalid_selector");
}

#[test]
fn a_malformed_target_is_invalid_selector_exit_2() {
    let (_dir, socket) = missing_socket();
    let out = phux(&socket, &["resize", "--json", "work:", "80x24"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(error_doc(&out)["error"]["code"], "invalid_selector");
}

#[test]
fn new_json_without_session_is_a_usage_error() {
    let (_dir, socket) = missing_socket();
    let out = phux(&socket, &["new", "--json"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let out = phux(&socket, &["new", "a", "-s", "b"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn help_shows_the_exit_code_table() {
    let (_dir, socket) = missing_socket();
    let out = phux(&socket, &["--help"], None);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains(phux_core::exit_code::EXIT_CODE_TABLE_HELP));
}

#[test]
fn a_closed_stdout_is_not_an_error() {
    let (_dir, socket) = missing_socket();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_phux"))
        .args(["--socket"])
        .arg(&socket)
        .args(["status", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take()); // the reader went away before anything was written
    let out = child.wait_with_output().expect("wait");
    assert_eq!(
        out.status.code(),
        Some(1),
        "exits with its own status, not a signal"
    );
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
}

#[test]
fn new_starts_a_server_and_reports_no_server_when_none_comes_up() {
    // This branch's binary has no working `server` verb to start, so the started child exits
    // at once; `new` must poll for the limit, then say so as `no_server`.
    let (_dir, socket) = missing_socket();
    let start = std::time::Instant::now();
    let out = phux(&socket, &["new", "--json", "-s", "demo"], None);
    assert!(start.elapsed() >= phux_cli::client::AUTOSTART_LIMIT);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let doc = error_doc(&out);
    assert_eq!(doc["error"]["code"], "no_server");
    assert!(
        doc["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("phux server")),
        "{doc}"
    );
}
