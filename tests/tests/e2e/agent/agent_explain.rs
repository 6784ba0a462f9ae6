//! `phux agent explain --file`: the offline explainer on captured screens (plain text and a
//! ScreenState document, from a file or stdin), its document pinned by golden files, the
//! prose form, the rules directory overriding a built-in, and each refusal with its exact line.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use phux_core::documents::ScreenState;
use phux_core::ids::PaneId;
use phux_tests::{error_line, golden, phux, run_with_deadline, stderr, stdout};
use serde_json::Value;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/agent-screens")
}

/// `phux agent explain ARGS` in the fixtures directory, with an empty rules directory.
fn explain(args: &[&str]) -> (Command, tempfile::TempDir) {
    let rules = tempfile::tempdir().unwrap();
    let mut command = phux(&["agent", "explain"]);
    command
        .args(args)
        .current_dir(fixtures())
        .env("PHUX_AGENT_RULES_DIR", rules.path());
    (command, rules)
}

fn run(args: &[&str]) -> std::process::Output {
    let (mut command, _rules) = explain(args);
    run_with_deadline(&mut command, Duration::from_secs(15))
}

#[test]
fn a_text_capture_is_explained_rule_by_rule() {
    let out = run(&[
        "--file",
        "claude__blocked__permission.txt",
        "--kind",
        "claude",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    golden("e2e/agent_explain_claude_blocked.json", &stdout(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["capture"]["format"], "text");
    assert_eq!(doc["capture"]["cols"], Value::Null);
    assert_eq!(doc["explain"]["detector_state"], "blocked");
    assert_eq!(doc["explain"]["matched_rule"], "permission-dialog");
    let regions: Vec<&str> = doc["explain"]["regions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["region"].as_str().unwrap())
        .collect();
    assert_eq!(
        regions[..5],
        [
            "title",
            "prompt-box",
            "after-last-rule",
            "bottom-lines",
            "viewport"
        ]
    );
    let prose = run(&[
        "--file",
        "claude__blocked__permission.txt",
        "--kind",
        "claude",
    ]);
    golden("e2e/agent_explain_claude_blocked.txt", &stdout(&prose));
}

#[test]
fn a_quoted_dialog_fails_the_conjunct_that_looks_below_the_last_rule() {
    let out = run(&[
        "--file",
        "claude__idle__quoted-dialog.txt",
        "--kind",
        "claude",
        "--json",
    ]);
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let explain = &doc["explain"];
    assert_eq!(explain["detector_state"], "idle");
    assert_eq!(explain["matched_rule"], "input-box");
    let dialog = &explain["evaluated_rules"][0];
    assert_eq!(dialog["id"], "permission-dialog");
    assert_eq!(dialog["matched"], false);
    assert_eq!(
        dialog["evidence"]["children"][0]["matched"], false,
        "{dialog}"
    );
}

#[test]
fn a_snapshot_document_from_stdin_is_a_json_capture() {
    let text = std::fs::read_to_string(fixtures().join("codex__working__status.txt")).unwrap();
    let mut state = ScreenState::new(
        PaneId(4),
        100,
        12,
        text.lines().map(str::to_owned).collect(),
    );
    state.title = Some("⠋ codex".into());
    let (mut command, _rules) = explain(&[
        "--file", "-", "--kind", "codex", "--title", "codex", "--json",
    ]);
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(serde_json::to_string(&state).unwrap().as_bytes())
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["capture"]["format"], "json");
    assert_eq!(doc["capture"]["path"], "-");
    assert_eq!(doc["capture"]["cols"], 100);
    assert_eq!(doc["capture"]["title"], "codex");
    assert_eq!(doc["explain"]["regions"][0]["lines"][0], "codex");
    assert_eq!(doc["explain"]["detector_state"], "working");
}

#[test]
fn the_rules_directory_replaces_a_builtin_and_a_broken_file_is_named() {
    let (mut command, rules) = explain(&[
        "--file",
        "claude__idle__input-box.txt",
        "--kind",
        "claude",
        "--json",
    ]);
    std::fs::write(
        rules.path().join("claude.toml"),
        "kind = \"claude\"\nbinaries = [\"claude\"]\n[[rules]]\nid = \"welcome\"\nstate = \"done\"\nmatch = { contains = \"welcome to claude code\" }\n",
    )
    .unwrap();
    std::fs::write(
        rules.path().join("broken.toml"),
        "kind = \"broken\"\n[[rules]]\nid = \"r\"\nstate = \"sleeping\"\nmatch = { contains = \"x\" }\n",
    )
    .unwrap();
    let out = run_with_deadline(&mut command, Duration::from_secs(15));
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["explain"]["detector_state"], "done");
    assert_eq!(doc["explain"]["matched_rule"], "welcome");
    let warning = stderr(&out);
    assert!(
        warning.contains("broken.toml: rule \"r\": unknown state \"sleeping\" (expected idle, working, blocked or done)"),
        "{warning}"
    );
}

#[test]
fn an_unreadable_capture_is_capture_unreadable() {
    let out = run(&["--file", "no-such-screen.txt", "--kind", "claude", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let line = error_line(&out);
    assert_eq!(line["error"]["code"], "capture_unreadable");
    assert!(line["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("cannot read the capture no-such-screen.txt"));
}

#[test]
fn bytes_that_are_no_screen_are_capture_invalid() {
    let dir = tempfile::tempdir().unwrap();
    let bad_json = dir.path().join("bad.json");
    std::fs::write(&bad_json, "{\"lines\": 3}").unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    for (path, says) in [
        (&bad_json, "is not a ScreenState document"),
        (&empty, "holds no rows"),
    ] {
        let path = path.display().to_string();
        let out = run(&["--file", &path, "--kind", "claude", "--json"]);
        assert_eq!(out.status.code(), Some(1));
        let line = error_line(&out);
        assert_eq!(line["error"]["code"], "capture_invalid");
        assert!(
            line["error"]["message"].as_str().unwrap().contains(says),
            "{line}"
        );
    }
}

#[test]
fn an_unknown_or_missing_kind_is_unknown_agent_kind_with_the_roster() {
    for args in [vec!["--kind", "nope"], vec![]] {
        let mut all = vec!["--file", "claude__idle__input-box.txt", "--json"];
        all.extend(args);
        let out = run(&all);
        assert_eq!(out.status.code(), Some(2));
        let line = error_line(&out);
        assert_eq!(line["error"]["code"], "unknown_agent_kind");
        assert_eq!(
            line["remedy"],
            "pass --kind with one of: claude, codex, omp, opencode, pi"
        );
    }
}

/// A screen read as idle while a working-looking row is on it: explain names the working rule
/// that would have matched had its region held the row, so a wrong manifest is quick to fix.
/// And a rules file whose pattern compiles too big is refused naming the limit.
#[test]
fn an_idle_reading_beside_a_working_row_names_the_rule_that_would_have_matched() {
    let (mut command, rules) =
        explain(&["--file", "claude__working__spinner.txt", "--kind", "claude"]);
    std::fs::write(
        rules.path().join("claude.toml"),
        "kind = \"claude\"\nbinaries = [\"claude\"]\n\
         [[rules]]\nid = \"spinner\"\nstate = \"working\"\npriority = 60\nregion = \"bottom-lines(1)\"\nmatch = { contains = \"esc to interrupt\" }\n\
         [[rules]]\nid = \"input-box\"\nstate = \"idle\"\nregion = \"prompt-box\"\nmatch = { line-regex = '^❯' }\n",
    )
    .unwrap();
    std::fs::write(
        rules.path().join("huge.toml"),
        "kind = \"huge\"\n[[rules]]\nid = \"big\"\nstate = \"idle\"\nmatch = { regex = '(\\w{1,100}\\s){1,100}' }\n",
    )
    .unwrap();
    let out = run_with_deadline(&mut command, Duration::from_secs(15));
    assert!(out.status.success(), "{}", stderr(&out));
    let prose = stdout(&out);
    assert!(
        prose.starts_with("claude: idle (rule input-box)"),
        "{prose}"
    );
    assert!(
        prose.contains(
            "read as idle beside a working-looking row: \"✻ Pondering… (12s · ↑ 1.2k tokens · esc to interrupt)\""
        ),
        "{prose}"
    );
    assert!(
        prose.contains(
            "working rule spinner: it would have matched had its region (bottom-lines(1)) held the row"
        ),
        "{prose}"
    );
    let warning = stderr(&out);
    assert!(
        warning.contains("huge.toml: rule \"big\": the \"regex\" pattern")
            && warning.contains("compiles past 256 KiB (the limit for one pattern)"),
        "{warning}"
    );
}
