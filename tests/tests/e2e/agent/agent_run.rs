//! `phux run` against real shells: exit codes mirrored (0, 1, 42, 255), the RunResult document
//! pinned, output that scrolls far past the viewport recovered whole from history (and marked
//! `truncated` only once it is really gone), sh/dash/zsh panes, and the timeout (125, no JSON).

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::time::Duration;

use phux_tests::{error_line, golden, json, run_with_deadline, stderr, stdout, TestServer};

#[test]
fn exit_codes_are_mirrored() {
    let server = TestServer::start();
    let pane = server.marked_bash("codes");
    for (command, code) in [
        ("true", 0),
        ("false", 1),
        ("(exit 42)", 42),
        ("(exit 255)", 255),
    ] {
        let output = server.run(&["run", "--json", &pane, command]);
        assert_eq!(
            output.status.code(),
            Some(code),
            "{command}: {}",
            stderr(&output)
        );
        let doc = json(&output);
        assert_eq!(doc["exit_code"], code, "{command}");
        assert_eq!(doc["command"], command);
        assert_eq!(doc["output"], "");
        assert_eq!(doc["truncated"], false);
        let prose = server.run(&["run", &pane, command]);
        assert_eq!(prose.status.code(), Some(code), "{command} without --json");
    }
}

#[test]
fn the_run_result_document_is_pinned() {
    let server = TestServer::start();
    let pane = server.marked_bash("doc");
    let output = server.run(&["run", "--json", &pane, "printf", "'alpha\\nbeta\\n'"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let doc = json(&output);
    assert!(doc["duration_ms"].is_u64());
    // The bytes as printed, with the one field that varies from run to run zeroed.
    let printed = stdout(&output);
    let (head, tail) = printed.split_once("\"duration_ms\":").unwrap();
    let rest = tail.trim_start_matches(|c: char| c.is_ascii_digit());
    golden(
        "e2e/run_result.json",
        &format!("{head}\"duration_ms\":0{rest}"),
    );
    let prose = server.run(&["run", &pane, "printf 'alpha\\nbeta'; (exit 3)"]);
    assert_eq!(prose.status.code(), Some(3));
    assert_eq!(
        stdout(&prose),
        "alpha\nbeta\n",
        "output without a final newline loses nothing"
    );
}

#[test]
fn output_that_scrolled_far_past_the_viewport_is_recovered_from_history() {
    let server = TestServer::start();
    let pane = server.marked_bash("long");
    let output = run_with_deadline(
        &mut server.phux(&["run", "--json", &pane, "seq 1 3000"]),
        Duration::from_secs(60),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let doc = json(&output);
    let expected: Vec<String> = (1..=3000).map(|n| n.to_string()).collect();
    assert_eq!(doc["output"], expected.join("\n"));
    assert_eq!(doc["truncated"], false, "BEGIN is still in the history");
}

/// A shell that marks its commands hands `run` the command's whole output (the bytes between its
/// C and D marks), even when the pane's history could not hold it.
#[test]
fn a_marked_run_keeps_output_longer_than_the_history() {
    let server = TestServer::start();
    let pane = server.marked_bash("kept");
    let output = run_with_deadline(
        &mut server.phux(&["run", "--json", &pane, "seq 1 12000"]),
        Duration::from_secs(120),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let doc = json(&output);
    let expected: Vec<String> = (1..=12000).map(|n| n.to_string()).collect();
    assert_eq!(doc["output"], expected.join("\n"));
    assert_eq!(doc["truncated"], false);
}

/// Without marks, output is read from the screen, and what scrolled out of the history is gone.
#[test]
fn output_longer_than_the_history_is_truncated() {
    let server = TestServer::start();
    let pane = server.plain_shell("evicted", "bash");
    let output = run_with_deadline(
        &mut server.phux(&["run", "--json", &pane, "seq 1 12000"]),
        Duration::from_secs(120),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let doc = json(&output);
    assert_eq!(
        doc["truncated"], true,
        "10000 rows of history cannot hold 12000"
    );
    let text = doc["output"].as_str().unwrap();
    assert!(text.ends_with("\n11999\n12000"), "the end survives");
    assert!(!text.contains("PHUXrun"), "no marker leaks into the output");
}

#[test]
fn posix_shells_all_run_commands() {
    let server = TestServer::start();
    let mut shells = vec!["sh", "dash", "bash"];
    if std::path::Path::new("/usr/bin/zsh").exists() || std::path::Path::new("/bin/zsh").exists() {
        shells.push("zsh");
    } else {
        phux_tests::missing("zsh");
    }
    for shell in shells {
        let pane = server.plain_shell(shell, shell);
        let output = server.run(&["run", "--json", &pane, "echo hi from $0; (exit 7)"]);
        assert_eq!(
            output.status.code(),
            Some(7),
            "{shell}: {}",
            stderr(&output)
        );
        let doc = json(&output);
        assert!(
            doc["output"].as_str().unwrap().starts_with("hi from"),
            "{shell}: {doc}"
        );
        let empty = server.run(&["run", &pane, "true"]);
        assert_eq!(empty.status.code(), Some(0), "{shell}");
        assert!(empty.stdout.is_empty(), "{shell}: {}", stdout(&empty));
    }
}

#[test]
fn a_timeout_exits_125_with_a_diagnostic_and_no_document() {
    let server = TestServer::start();
    let pane = server.marked_bash("slow");
    let output = server.run(&["run", "--json", "--timeout", "0.5", &pane, "sleep 30"]);
    assert_eq!(output.status.code(), Some(125));
    assert!(
        output.stdout.is_empty(),
        "no JSON on timeout: {}",
        stdout(&output)
    );
    assert!(
        stderr(&output).contains("run gave up"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_pane_whose_shell_exits_mid_run_ends_run_with_the_shell_s_status() {
    let server = TestServer::start();
    // The server stops with its last pane; this one keeps it up.
    server.plain_shell("keeper", "sh");
    let pane = server.marked_bash("exits");
    let output = server.run(&["run", "--json", &pane, "exit 9"]);
    assert_eq!(output.status.code(), Some(9), "{}", stderr(&output));
    let line = error_line(&output);
    assert_eq!(line["error"]["code"], "pane_exited");
    assert_eq!(line["error"]["message"], format!("{pane} exited with 9"));
    assert_eq!(line["exit_code"], 9);

    // A shell that ends with 0 still leaves no result: exit 1, never 0 with an error line.
    let pane = server.marked_bash("exits-cleanly");
    let output = server.run(&["run", "--json", &pane, "exit 0"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    let line = error_line(&output);
    assert_eq!(line["error"]["code"], "pane_exited");
    assert_eq!(line["error"]["message"], format!("{pane} exited with 0"));
}
