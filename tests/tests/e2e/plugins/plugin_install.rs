//! `plugin install` from a directory, a local git repository (`file://`) and a tarball, with
//! `[[build]]` steps and the `plugins.lock` provenance; a failing build installs and links
//! nothing; `plugin update` re-fetches from the lock and refuses an id change.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::path::PathBuf;
use std::process::Command;

use phux_tests::error_line;
use phux_tests::plugins::{git, PluginHome as Home};

/// A plugin source in `home` whose build step writes `built.txt` (with `marker`).
fn plugin_source(home: &Home, name: &str, id: &str, marker: &str) -> PathBuf {
    home.plugin(
        name,
        &format!(
            "id = \"{id}\"\nversion = \"1.0.0\"\n[[build]]\nid = \"make\"\ncommand = [\"sh\", \"-c\", \"echo {marker} > built.txt\"]\n"
        ),
    )
}

fn have(program: &str) -> bool {
    let found = Command::new(program).arg("--version").output().is_ok();
    if !found {
        phux_tests::missing(program);
    }
    found
}

#[test]
fn install_from_a_directory_builds_locks_and_links() {
    let home = Home::new();
    let source = plugin_source(&home, "src", "test.dir", "v1");
    std::fs::create_dir_all(source.join(".git")).unwrap();
    let doc = home.ok(&["plugin", "install", &source.display().to_string(), "--json"]);
    let root = home.data().join("phux/plugins/test.dir");
    assert_eq!(doc["plugin"]["id"], "test.dir");
    assert_eq!(doc["plugin"]["plugin_root"], root.display().to_string());
    assert_eq!(doc["plugin"]["enabled"], true);
    assert_eq!(
        std::fs::read_to_string(root.join("built.txt")).unwrap(),
        "v1\n"
    );
    assert!(!root.join(".git").exists(), "copied without .git");
    let lock = std::fs::read_to_string(root.join("plugins.lock")).unwrap();
    assert!(lock.contains("kind = \"directory\""), "{lock}");

    // Update re-fetches from the lock and rebuilds.
    std::fs::write(
        source.join("phux-plugin.toml"),
        "id = \"test.dir\"\nversion = \"2.0.0\"\n[[build]]\nid = \"make\"\ncommand = [\"sh\", \"-c\", \"echo v2 > built.txt\"]\n",
    )
    .unwrap();
    let updated = home.ok(&["plugin", "update", "test.dir", "--json"]);
    assert_eq!(updated["plugin"]["version"], "2.0.0");
    assert_eq!(
        std::fs::read_to_string(root.join("built.txt")).unwrap(),
        "v2\n"
    );

    // An id change is refused and the installed copy stays.
    std::fs::write(source.join("phux-plugin.toml"), "id = \"test.other\"\n").unwrap();
    let refused = home.run(&["plugin", "update", "test.dir", "--json"]);
    let line = error_line(&refused);
    assert!(line["error"]["message"]
        .as_str()
        .unwrap()
        .contains("\"test.other\""));
    assert_eq!(
        std::fs::read_to_string(root.join("built.txt")).unwrap(),
        "v2\n"
    );

    // Installing the same id again is refused.
    let source2 = plugin_source(&home, "src2", "test.dir", "again");
    let twice = home.run(&[
        "plugin",
        "install",
        &source2.display().to_string(),
        "--json",
    ]);
    assert!(error_line(&twice)["error"]["message"]
        .as_str()
        .unwrap()
        .contains("already installed"));

    // Unlinked, its files stay; installing it again replaces them.
    home.ok(&["plugin", "unlink", "test.dir", "--json"]);
    assert!(root.exists(), "unlink keeps the files");
    let again = home.ok(&[
        "plugin",
        "install",
        &source2.display().to_string(),
        "--json",
    ]);
    assert_eq!(again["plugin"]["id"], "test.dir", "{again}");
    assert!(home
        .ok(&["plugin", "list", "--json"])
        .to_string()
        .contains("test.dir"));
}

#[test]
fn a_failing_build_installs_and_links_nothing() {
    let home = Home::new();
    let dir = home.dir.path().join("broken");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("phux-plugin.toml"),
        "id = \"test.broken\"\n[[build]]\nid = \"compile\"\ncommand = [\"sh\", \"-c\", \"echo compiler exploded >&2; exit 2\"]\n",
    )
    .unwrap();
    let output = home.run(&["plugin", "install", &dir.display().to_string(), "--json"]);
    assert_eq!(output.status.code(), Some(1));
    let message = error_line(&output)["error"]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(message.contains("build step \"compile\""), "{message}");
    assert!(message.contains("compiler exploded"), "{message}");
    assert!(!home.data().join("phux/plugins/test.broken").exists());
    assert_eq!(
        home.ok(&["plugin", "list", "--json"])["plugins"],
        serde_json::json!([])
    );
}

#[test]
fn install_from_a_git_url_and_a_tarball() {
    if !have("git") || !have("tar") {
        return;
    }
    let home = Home::new();
    let repo = plugin_source(&home, "repo", "test.git", "from-git");
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "one"]);
    let url = format!("file://{}", repo.display());
    let doc = home.ok(&["plugin", "install", &url, "--disabled", "--json"]);
    assert_eq!(doc["plugin"]["enabled"], false);
    let root = home.data().join("phux/plugins/test.git");
    assert_eq!(
        std::fs::read_to_string(root.join("built.txt")).unwrap(),
        "from-git\n"
    );
    let lock = std::fs::read_to_string(root.join("plugins.lock")).unwrap();
    assert!(
        lock.contains("kind = \"git\"") && lock.contains("commit = "),
        "{lock}"
    );

    plugin_source(&home, "packed", "test.tar", "from-tar");
    let tarball = home.dir.path().join("plugin.tar.gz");
    let status = Command::new("tar")
        .arg("-czf")
        .arg(&tarball)
        .arg("-C")
        .arg(home.dir.path())
        .arg("packed")
        .status()
        .unwrap();
    assert!(status.success());
    home.ok(&[
        "plugin",
        "install",
        &tarball.display().to_string(),
        "--json",
    ]);
    let root = home.data().join("phux/plugins/test.tar");
    assert_eq!(
        std::fs::read_to_string(root.join("built.txt")).unwrap(),
        "from-tar\n"
    );

    let bad = home.run(&["plugin", "install", "no-such-thing", "--json"]);
    assert!(error_line(&bad)["error"]["message"]
        .as_str()
        .unwrap()
        .contains("not a directory, a .tar"));
}
