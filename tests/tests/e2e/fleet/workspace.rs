//! Workspaces end to end: `workspace inspect` on a repository with two worktrees and a
//! detached one, and `workspace save` → `kill --server` → `workspace restore` bringing the
//! sessions back with their split layouts, directories and commands.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use phux_tests::plugins::git;
use phux_tests::{error_line, json, phux, run_with_deadline, stderr, TestServer};

fn have_git() -> bool {
    let found = Command::new("git").arg("--version").output().is_ok();
    if !found {
        phux_tests::missing("git");
    }
    found
}

#[test]
fn inspect_lists_the_worktrees_and_marks_the_current_and_detached_ones() {
    if !have_git() {
        return;
    }
    let base = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(base.path()).unwrap();
    let repo = base.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["commit", "-q", "--allow-empty", "-m", "one"]);
    git(
        &repo,
        &["worktree", "add", "-q", "-b", "feature", "../repo-feature"],
    );
    git(
        &repo,
        &["worktree", "add", "-q", "--detach", "../repo-detached"],
    );

    let inspect = |path: &Path| {
        run_with_deadline(
            &mut phux(&[
                "workspace",
                "inspect",
                &path.display().to_string(),
                "--json",
            ]),
            Duration::from_secs(15),
        )
    };
    let output = inspect(&base.join("repo-feature"));
    assert!(output.status.success(), "{}", stderr(&output));
    let doc = json(&output);
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(
        doc["repo"]["path"],
        base.join("repo-feature").display().to_string()
    );
    assert_eq!(doc["repo"]["branch"], "feature");
    assert_eq!(doc["repo"]["detached"], false);
    let worktrees = doc["worktrees"].as_array().unwrap();
    assert_eq!(worktrees.len(), 3, "{doc}");
    let by_path = |name: &str| {
        worktrees
            .iter()
            .find(|w| w["path"] == base.join(name).display().to_string())
            .unwrap_or_else(|| panic!("{name} missing: {doc}"))
    };
    assert_eq!(by_path("repo")["branch"], "main");
    assert_eq!(by_path("repo")["current"], false);
    assert_eq!(by_path("repo-feature")["current"], true);
    let detached = by_path("repo-detached");
    assert_eq!(detached["detached"], true);
    assert_eq!(detached["branch"], serde_json::Value::Null);
    assert_eq!(detached["head"], by_path("repo")["head"]);

    let outside = inspect(&base);
    assert_eq!(outside.status.code(), Some(1));
    let line = error_line(&outside);
    assert_eq!(line["error"]["code"], "workspace");
    assert!(line["error"]["message"]
        .as_str()
        .unwrap()
        .contains("is not inside a git repository"));
}

#[test]
fn save_kill_restore_brings_back_sessions_layouts_cwds_and_commands() {
    let server = TestServer::start();
    let dirs = tempfile::tempdir().unwrap();
    let dirs = std::fs::canonicalize(dirs.path()).unwrap();
    for name in ["a", "b", "c"] {
        std::fs::create_dir_all(dirs.join(name)).unwrap();
    }
    let path = |name: &str| dirs.join(name).display().to_string();
    let ok = |args: &[&str]| {
        let output = server.run(args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        String::from_utf8_lossy(&output.stdout).trim().to_string()
    };
    let first = ok(&["new", "-d", "dev", "-c", &path("a"), "--", "sh"]);
    let second = ok(&[
        "spawn",
        "--target",
        &first,
        "--split",
        "vertical",
        "--ratio",
        "0.3",
        "-c",
        &path("b"),
        "--",
        "sh",
    ]);
    ok(&[
        "spawn",
        "--target",
        &second,
        "--split",
        "horizontal",
        "-c",
        &path("c"),
        "--",
        "sleep",
        "600",
    ]);
    ok(&["new", "-d", "logs", "-c", &path("c"), "--", "sh"]);

    let archive_path = dirs.join("ws.json");
    // `save -o` said nothing, and `restore` printed JSON without --json: both say a line.
    let said = ok(&[
        "workspace",
        "save",
        "-o",
        &archive_path.display().to_string(),
    ]);
    assert_eq!(
        said,
        format!("saved 2 sessions (dev, logs) to {}", archive_path.display())
    );
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&archive_path).unwrap()).unwrap();
    assert_eq!(saved["schema_version"], 2);
    let dev = &saved["sessions"][0];
    assert_eq!(dev["name"], "dev");
    let panes = dev["windows"][0]["panes"].as_array().unwrap();
    let cwds: Vec<&str> = panes.iter().map(|p| p["cwd"].as_str().unwrap()).collect();
    assert_eq!(cwds, vec![path("a"), path("b"), path("c")]);
    assert_eq!(
        panes[0]["command"],
        serde_json::Value::Null,
        "a shell saves as null"
    );
    assert_eq!(panes[2]["command"], serde_json::json!(["sleep", "600"]));
    let layout = dev["windows"][0]["layout"].clone();
    assert_eq!(layout["split"], "vertical");
    assert_eq!(layout["second"]["split"], "horizontal");

    ok(&["kill", "--server"]);
    let restored = server.json(&[
        "workspace",
        "restore",
        "--json",
        &archive_path.display().to_string(),
    ]);
    assert_eq!(restored["schema_version"], 2);
    assert_eq!(restored["restored"], serde_json::json!(["dev", "logs"]));
    assert_eq!(restored["skipped_existing"], serde_json::json!([]));
    assert_eq!(
        ok(&["workspace", "restore", &archive_path.display().to_string()]),
        "restored no session; already running, left as they are: dev, logs"
    );

    let again: serde_json::Value = {
        let output = server.run(&["workspace", "save"]);
        assert!(output.status.success(), "{}", stderr(&output));
        json(&output)
    };
    let dev = &again["sessions"][0];
    let panes = dev["windows"][0]["panes"].as_array().unwrap();
    let cwds: Vec<&str> = panes.iter().map(|p| p["cwd"].as_str().unwrap()).collect();
    assert_eq!(cwds, vec![path("a"), path("b"), path("c")]);
    assert_eq!(panes[2]["command"], serde_json::json!(["sleep", "600"]));
    assert_eq!(
        dev["windows"][0]["layout"], layout,
        "the split tree is rebuilt"
    );
    assert_eq!(again["sessions"][1]["name"], "logs");

    // A second restore skips what exists.
    let twice = server.json(&[
        "workspace",
        "restore",
        "--json",
        &archive_path.display().to_string(),
    ]);
    assert_eq!(twice["restored"], serde_json::json!([]));
    assert_eq!(
        twice["skipped_existing"],
        serde_json::json!(["dev", "logs"])
    );
    let _ = server.run(&["kill", "--server"]);
}

#[test]
fn a_bad_archive_is_refused() {
    let server = TestServer::start();
    let dir = tempfile::tempdir().unwrap();
    for (name, text, expected) in [
        ("not-json.json", "{nope", "not JSON (line 1, column 2)"),
        (
            "schema.json",
            "{\"schema_version\": 9, \"sessions\": []}",
            "schema_version 9",
        ),
        (
            "shape.json",
            "{\"schema_version\": 2}",
            "not a workspace archive",
        ),
        // Refused whole, before the good session in front of it is created.
        (
            "bad-name.json",
            "{\"schema_version\": 2, \"sessions\": [\
             {\"name\": \"ok1\", \"active\": true, \"windows\": [{\"name\": \"0\", \"active\": true, \
              \"panes\": [{\"active\": true, \"cwd\": null, \"command\": null, \"cols\": 80, \"rows\": 24, \"title\": null}]}]},\
             {\"name\": \"bad name!\", \"active\": false, \"windows\": [{\"name\": \"0\", \"active\": true, \
              \"panes\": [{\"active\": true, \"cwd\": null, \"command\": null, \"cols\": 80, \"rows\": 24, \"title\": null}]}]}]}",
            "session \"bad name!\" cannot be restored",
        ),
        (
            "empty.json",
            "{\"schema_version\": 2, \"sessions\": [{\"name\": \"hollow\", \"active\": true, \"windows\": []}]}",
            "session \"hollow\" has no pane to restore",
        ),
    ] {
        let file = dir.path().join(name);
        std::fs::write(&file, text).unwrap();
        let output = server.run(&["workspace", "restore", &file.display().to_string()]);
        assert_eq!(output.status.code(), Some(1), "{name}");
        assert!(output.stdout.is_empty(), "{name}");
        let message = stderr(&output);
        assert!(
            message.contains(name) && message.contains(expected),
            "{name}: {message}"
        );
    }
    let listed = server.json(&["ls", "--json"]);
    assert_eq!(
        listed["sessions"],
        serde_json::json!([]),
        "nothing was created"
    );
}
