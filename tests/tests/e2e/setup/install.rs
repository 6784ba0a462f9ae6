//! `scripts/install`, the README's first step: one build, the binary copied to `$PREFIX/bin`,
//! idempotent, saying where it went and whether that directory is on the PATH. Run here on the
//! build the tests already use (its profile, its target directory), so it builds nothing new.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use phux_tests::{phux_bin, run_with_deadline, stderr, stdout};

fn install(prefix: &Path, path: &str) -> String {
    let bin = phux_bin();
    let profile_dir = bin.parent().unwrap();
    let profile = profile_dir
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let target_dir = profile_dir.parent().and_then(Path::parent).unwrap();
    let script = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/install"));
    let output = run_with_deadline(
        Command::new(script)
            .env("PHUX_INSTALL_PROFILE", &profile)
            .env("CARGO_TARGET_DIR", target_dir)
            .env("PREFIX", prefix)
            .env("PATH", path),
        Duration::from_secs(600),
    );
    assert!(output.status.success(), "install: {}", stderr(&output));
    stdout(&output)
}

#[test]
fn install_puts_phux_in_prefix_bin_and_says_whether_it_is_on_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let bin_dir = dir.path().join("bin");
    let path = std::env::var("PATH").unwrap_or_default();
    let said = install(dir.path(), &path);
    assert!(
        said.contains(&format!("installed {}/phux", bin_dir.display())),
        "{said}"
    );
    assert!(said.contains("is not on your PATH"), "{said}");
    let version = Command::new(bin_dir.join("phux"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(stdout(&version).starts_with("phux "), "{version:?}");
    // Again, with the directory on the PATH: the same binary, and it says so.
    let said = install(dir.path(), &format!("{}:{path}", bin_dir.display()));
    assert!(said.contains("is on your PATH"), "{said}");
    let names: Vec<_> = std::fs::read_dir(&bin_dir).unwrap().collect();
    assert_eq!(names.len(), 1, "only phux is left in {}", bin_dir.display());
}
