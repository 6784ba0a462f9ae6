//! Issue 18, item 11, through the real CLI: without `--overwrite` nothing at the output path is
//! ever replaced, a dangling symlink included, and a file that appears while a recording runs
//! is left alone; with `--overwrite` the path itself is replaced, never written through a
//! symlink to its target.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use phux_tests::{error_line, phux, run, stderr, TestServer};

fn sample() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../samples/shell.cast")
}

fn rec_from(out: &Path, overwrite: bool) -> std::process::Output {
    let mut args = vec![
        "rec".to_owned(),
        "--from".to_owned(),
        sample().display().to_string(),
        "-o".to_owned(),
        out.display().to_string(),
        "--json".to_owned(),
    ];
    if overwrite {
        args.push("--overwrite".to_owned());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&mut phux(&args))
}

/// `rec -o x` over a dangling symlink followed it and created the file it pointed to.
#[test]
fn without_overwrite_a_dangling_symlink_at_the_output_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["cast", "gif", "png"] {
        let target = dir.path().join(format!("elsewhere.{ext}"));
        let out = dir.path().join(format!("out.{ext}"));
        std::os::unix::fs::symlink(&target, &out).unwrap();
        let output = rec_from(&out, false);
        assert_eq!(output.status.code(), Some(1), "{ext}: {}", stderr(&output));
        assert_eq!(error_line(&output)["error"]["code"], "output_exists");
        assert!(std::fs::symlink_metadata(&out)
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(!target.exists(), "{ext}: written through the symlink");
    }
}

/// With `--overwrite`, `.cast` wrote through a symlink into its target.
#[test]
fn with_overwrite_a_symlink_is_replaced_never_written_through() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["cast", "gif", "png"] {
        let victim = dir.path().join(format!("victim-{ext}"));
        std::fs::write(&victim, b"precious\n").unwrap();
        let out = dir.path().join(format!("out.{ext}"));
        std::os::unix::fs::symlink(&victim, &out).unwrap();
        let output = rec_from(&out, true);
        assert!(output.status.success(), "{ext}: {}", stderr(&output));
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious\n", "{ext}");
        assert!(std::fs::symlink_metadata(&out).unwrap().is_file(), "{ext}");
    }
}

/// A file that appeared at the output during a 3 s recording was replaced at the final rename.
#[test]
fn a_file_that_appears_while_recording_is_not_replaced() {
    let server = TestServer::start();
    let out = server.dir.path().join("demo.gif");
    let recording = server
        .phux(&[
            "rec",
            "-o",
            out.to_str().unwrap(),
            "--json",
            "--",
            "sh",
            "-c",
            "echo recording; sleep 2",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(800));
    std::fs::write(&out, b"mine\n").unwrap();
    let output = recording.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(error_line(&output)["error"]["code"], "output_exists");
    assert_eq!(std::fs::read(&out).unwrap(), b"mine\n");
}

/// `id = ".."` in a manifest made `plugin install --disabled` remove the whole data directory
/// (and `"."` every installed plugin): such ids are refused and nothing outside is touched.
#[test]
fn a_plugin_id_that_is_not_one_directory_name_is_refused_and_removes_nothing() {
    use phux_tests::plugins::PluginHome;
    let home = PluginHome::new();
    let data = home.data().join("phux");
    let other = data.join("plugins/com.example.other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("kept.txt"), b"mine\n").unwrap();
    std::fs::write(data.join("kept.txt"), b"mine\n").unwrap();
    for (n, id) in ["..", ".", "a..b", ".hidden", "trailing.", "a/b", "../x"]
        .into_iter()
        .enumerate()
    {
        let source = home.plugin(&format!("src{n}"), &format!("id = {id:?}\n"));
        let output = home.run(&[
            "plugin",
            "install",
            source.to_str().unwrap(),
            "--disabled",
            "--json",
        ]);
        assert!(!output.status.success(), "{id:?} was installed");
        let line = error_line(&output);
        assert_eq!(line["error"]["code"], "registry", "{id:?}: {line}");
        assert!(
            line["error"]["message"].as_str().unwrap().contains("`id`"),
            "{id:?}: {line}"
        );
        assert_eq!(std::fs::read(data.join("kept.txt")).unwrap(), b"mine\n");
        assert_eq!(std::fs::read(other.join("kept.txt")).unwrap(), b"mine\n");
    }
    // A reverse-DNS id installs beside the others.
    let good = home.plugin("good", "id = \"com.example.good\"\n");
    home.ok(&[
        "plugin",
        "install",
        good.to_str().unwrap(),
        "--disabled",
        "--json",
    ]);
    assert!(data
        .join("plugins/com.example.good/phux-plugin.toml")
        .is_file());
    assert!(other.join("kept.txt").is_file());
}

/// `rec -o x.gif` staged its cast as `phux-rec-<pid>-x.cast` in the shared temporary directory,
/// 0644, and kept it there on failure: another user read a secret typed in the pane. It is
/// staged in a 0700 directory of its own, 0600, kept there on failure and named.
#[test]
fn rec_to_an_animation_stages_its_cast_where_only_its_owner_can_read_it() {
    use std::os::unix::fs::PermissionsExt;
    let server = TestServer::start();
    let shared = server.dir.path().join("shared-tmp");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
    let pane = server.new_session("s", &["sh", "-c", "echo my-secret-42; exec sleep 600"]);
    phux_tests::wait_for_text(&server.socket, &pane, "my-secret-42");
    let out = server.dir.path().join("tiny.gif");
    // Too small for one frame: the render fails and the cast is kept.
    let failed = run(server
        .phux(&[
            "rec",
            &pane,
            "--since",
            "60s",
            "--duration",
            "0.2",
            "-o",
            out.to_str().unwrap(),
            "--max-bytes",
            "10",
            "--json",
        ])
        .env("TMPDIR", &shared));
    assert_eq!(failed.status.code(), Some(1), "{}", stderr(&failed));
    let message = error_line(&failed)["error"]["message"]
        .as_str()
        .unwrap()
        .to_owned();
    let kept = PathBuf::from(
        message
            .rsplit_once("; the recording is kept at ")
            .map(|(_, path)| path.trim())
            .expect(&message),
    );
    assert!(std::fs::read_to_string(&kept)
        .unwrap()
        .contains("my-secret-42"));
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let dir = kept.parent().unwrap();
    assert_eq!(dir.parent().unwrap(), shared, "staged outside TMPDIR");
    assert_eq!(mode(dir), 0o700, "{}", dir.display());
    assert_eq!(mode(&kept), 0o600, "{}", kept.display());
    // Nothing else was left in the shared directory.
    let entries: Vec<_> = std::fs::read_dir(&shared).unwrap().collect();
    assert_eq!(entries.len(), 1);
}

/// `tar` run as root extracted a device node into a plugin; a FIFO stands in here (making one
/// needs no privilege). An archive holding anything but files, directories and links is
/// refused before it is unpacked, and nothing is installed.
#[test]
fn a_plugin_archive_holding_a_fifo_or_device_is_refused() {
    use phux_tests::plugins::PluginHome;
    let home = PluginHome::new();
    let source = home.plugin("special", "id = \"com.example.special\"\n");
    let fifo = source.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let archive = source.parent().unwrap().join("special.tar");
    let packed = std::process::Command::new("tar")
        .arg("-cf")
        .arg(&archive)
        .arg("-C")
        .arg(&source)
        .arg(".")
        .status()
        .unwrap();
    assert!(packed.success());
    let output = home.run(&["plugin", "install", archive.to_str().unwrap(), "--json"]);
    assert!(!output.status.success(), "installed: {}", stderr(&output));
    let line = error_line(&output);
    assert_eq!(line["error"]["code"], "registry", "{line}");
    assert!(
        line["error"]["message"].as_str().unwrap().contains("FIFO"),
        "{line}"
    );
    assert!(!home
        .data()
        .join("phux/plugins/com.example.special")
        .exists());
}

/// A git source or `--rev` starting with `-` reached git as an option (`--upload-pack=CMD`
/// runs CMD): both are refused before git runs, and git is given `--` / `--end-of-options`.
#[test]
fn a_plugin_source_or_rev_that_git_would_read_as_an_option_is_refused() {
    use phux_tests::plugins::PluginHome;
    let home = PluginHome::new();
    let marker = home.data().join("ran");
    let hostile = format!("--upload-pack=touch {}; .git", marker.display());
    let output = home.run(&["plugin", "install", "--json", "--", &hostile]);
    assert!(!output.status.success(), "{}", stderr(&output));
    let line = error_line(&output);
    assert!(
        line["error"]["message"]
            .as_str()
            .unwrap()
            .contains("starting with '-'"),
        "{line}"
    );
    let output = home.run(&[
        "plugin",
        "install",
        "--rev=--output=x",
        "file:///nowhere/repo.git",
        "--json",
    ]);
    assert!(!output.status.success());
    let line = error_line(&output);
    assert!(
        line["error"]["message"]
            .as_str()
            .unwrap()
            .contains("starting with '-'"),
        "{line}"
    );
    assert!(!marker.exists());
}
