//! `phux engine status` and `phux engine install` as a user runs them: auto-install on first
//! use, the switch that turns it off, and every failure's message and exit code.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_tests::{json, phux, run, stderr, stdout};

const PINNED: &str = "2c89c656699fa7651e4d433801f1e6e6e6bc5326b6124c2e3646d4db69545822";

#[test]
fn status_json_reports_the_pinned_engine() {
    let output = run(&mut phux(&["engine", "status", "--json"]));
    assert!(output.status.success(), "{}", stderr(&output));
    let doc = json(&output);
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["sha256"], PINNED);
    assert_eq!(doc["pinned"], true);
    assert!(doc["build"]["version"]
        .as_str()
        .is_some_and(|v| !v.is_empty()));
}

#[test]
fn first_use_on_a_fresh_machine_installs_the_engine_and_says_so() {
    let data = tempfile::tempdir().unwrap();
    let output = run(phux(&["engine", "status", "--json"]).env("XDG_DATA_HOME", data.path()));
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("installing pyghostty==0.1.3"),
        "{}",
        stderr(&output)
    );
    let doc = json(&output);
    let expected = data.path().join("phux/lib/libghostty-vt.so");
    assert_eq!(doc["path"], expected.display().to_string());
    assert_eq!(doc["sha256"], PINNED);
    let again = run(phux(&["engine", "status"]).env("XDG_DATA_HOME", data.path()));
    assert!(
        !stderr(&again).contains("installing"),
        "installed once, not twice"
    );
}

#[test]
fn no_auto_install_lists_every_path_tried_and_the_fix() {
    let data = tempfile::tempdir().unwrap();
    let mut command = phux(&["engine", "status"]);
    command
        .env("XDG_DATA_HOME", data.path())
        .env("PHUX_NO_AUTO_INSTALL", "1");
    let output = run(&mut command);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains(&format!(
            "{}: not found",
            data.path().join("phux/lib/libghostty-vt.so").display()
        )),
        "{message}"
    );
    assert!(
        message.contains("../lib/phux/libghostty-vt.so: not found"),
        "{message}"
    );
    assert!(message.contains("phux engine install"), "{message}");

    let output = run(command.arg("--json"));
    assert_eq!(output.status.code(), Some(1));
    let doc = json(&output);
    assert_eq!(doc["ok"], false);
    assert_eq!(doc["searched"].as_array().map(Vec::len), Some(3));
}

#[test]
fn install_without_pip_says_exactly_that_and_leaves_nothing() {
    let data = tempfile::tempdir().unwrap();
    let mut command = phux(&["engine", "install", "--json"]);
    command
        .env("XDG_DATA_HOME", data.path())
        .env("PATH", "/nonexistent")
        .env_remove("PHUX_PYTHON");
    let output = run(&mut command);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).is_empty(), "stdout carries only a document");
    let line: serde_json::Value =
        serde_json::from_str(stderr(&output).trim()).expect("one JSON error line");
    assert_eq!(line["exit_code"], 1);
    assert!(
        line["error"]["message"]
            .as_str()
            .unwrap()
            .contains("pip is not available"),
        "{line}"
    );
    assert!(!line["remedy"].as_str().unwrap().is_empty());
    assert!(!data.path().join("phux/lib/libghostty-vt.so").exists());
}

#[test]
fn a_library_with_the_wrong_hash_is_refused_with_both_hashes() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("libghostty-vt.so");
    std::fs::write(&fake, b"definitely not an ELF file").unwrap();
    let output = run(phux(&["engine", "status"]).env("PHUX_ENGINE_LIB", &fake));
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(message.contains(PINNED), "{message}");
    assert!(message.contains("its sha256 is "), "{message}");
    assert!(
        message.contains("PHUX_ENGINE_ALLOW_UNPINNED=1"),
        "{message}"
    );
}
