//! `phux worktree list|new|rm` (issue 38): git worktrees bound to sessions named after their
//! directories; a worktree with changes not committed is not removed. And the host registry's
//! old names, `remote list` and `satellite ls`, still answer.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::path::Path;
use std::process::Command;

use phux_tests::{error_line, json, stderr, TestServer};

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .status()
        .expect("git");
    assert!(status.success(), "git {args:?}");
}

#[test]
fn a_worktree_comes_with_its_session_and_a_dirty_one_stays() {
    let server = TestServer::start();
    let root = tempfile::tempdir().unwrap();
    let repo = root.path().join("app");
    std::fs::create_dir(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    std::fs::write(repo.join("README"), "hi\n").unwrap();
    git(&repo, &["add", "README"]);
    git(&repo, &["commit", "-q", "-m", "first"]);
    let in_repo = |args: &[&str]| {
        let mut command = server.phux(args);
        command.current_dir(&repo);
        phux_tests::run_with_deadline(&mut command, std::time::Duration::from_secs(60))
    };
    let made = in_repo(&["worktree", "new", "--json", "fix/login"]);
    assert!(made.status.success(), "{}", stderr(&made));
    let made = json(&made);
    assert_eq!(made["session"], "app-fix-login", "{made}");
    let path = made["path"].as_str().unwrap().to_owned();
    assert!(Path::new(&path).join("README").exists());
    let pane = format!("@{}", made["terminal_id"]);
    server.send_keys(&pane, &["pwd", "Enter"]);
    server.wait_for_text(&pane, "app-fix-login");

    let listed = json(&in_repo(&["worktree", "list", "--json"]));
    let bound = listed["worktrees"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["session"] == "app-fix-login")
        .cloned()
        .expect("the new worktree is listed");
    assert_eq!(bound["live"], true, "{listed}");
    assert_eq!(bound["branch"], "fix/login");

    // A change not committed: refused, nothing removed.
    std::fs::write(Path::new(&path).join("README"), "changed\n").unwrap();
    let refused = in_repo(&["worktree", "rm", "--json", "fix/login"]);
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    assert_eq!(error_line(&refused)["error"]["code"], "workspace");
    assert!(Path::new(&path).exists());
    // --force removes it and ends its session.
    let removed = in_repo(&["worktree", "rm", "--json", "--force", "fix/login"]);
    assert!(removed.status.success(), "{}", stderr(&removed));
    assert_eq!(json(&removed)["session_killed"], true);
    assert!(!Path::new(&path).exists());
    let sessions = server.json(&["ls", "--json"])["sessions"].clone();
    assert!(
        !sessions.to_string().contains("app-fix-login"),
        "{sessions}"
    );
}

#[test]
fn the_old_names_of_the_host_registry_still_answer() {
    let server = TestServer::start();
    for args in [["remote", "list", "--json"], ["satellite", "ls", "--json"]] {
        let output = server.run(&args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        assert!(json(&output)["hosts"].is_array(), "{args:?}");
    }
}
