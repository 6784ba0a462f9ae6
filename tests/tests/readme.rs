//! The README's examples run as written: every line of its "A short tour" block, in order, with
//! `phux` on the PATH and a private server.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_tests::{phux_bin, run_with_deadline, stderr};
use std::time::Duration;

fn tour_lines() -> Vec<String> {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    let tour = readme
        .split("## A short tour")
        .nth(1)
        .expect("a tour section");
    let block = tour
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a sh block");
    block
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn every_tour_line_runs_as_written() {
    let lines = tour_lines();
    assert!(lines.len() >= 8, "{lines:?}");
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(
        dir.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    let bin_dir = phux_bin().parent().unwrap().to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for line in &lines {
        let output = run_with_deadline(
            std::process::Command::new("bash")
                .args(["-c", line])
                .current_dir(dir.path())
                .env("PATH", &path)
                .env("PHUX_SOCKET", dir.path().join("phux.sock"))
                .env("PHUX_CONFIG", dir.path().join("config.toml"))
                .env("SHELL", phux_tests::PANE_SHELL),
            Duration::from_secs(30),
        );
        assert!(
            output.status.success(),
            "README line failed: {line}\n{}",
            stderr(&output)
        );
    }
    for made in [
        "demo.gif",
        "work.cast",
        "past.cast",
        "work.png",
        "hello.gif",
        "hello.txt",
    ] {
        assert!(dir.path().join(made).exists(), "{made} was not made");
    }
}

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap()
}

// The README pointed at ../shared/, which is not in a clone.
#[test]
fn every_file_the_readme_links_is_in_the_repository() {
    let readme = readme();
    assert!(
        !readme.contains("../"),
        "the README points outside the repository"
    );
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let links: Vec<&str> = readme
        .split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .filter(|link| !link.contains("://"))
        .collect();
    assert!(links.contains(&"docs/json-contract.md"), "{links:?}");
    for link in links {
        assert!(root.join(link).is_file(), "{link} is not in the repository");
    }
}

// The first command wrote demo.gif without --overwrite, so running it again failed.
#[test]
fn the_first_command_can_be_run_twice() {
    let readme = readme();
    let first = readme
        .split("## The two commands")
        .nth(1)
        .and_then(|s| s.split("```sh\n").nth(1))
        .and_then(|s| s.lines().next())
        .unwrap();
    let phux_line = first
        .split_once("--bin phux -- ")
        .map(|(_, rest)| format!("phux {rest}"))
        .unwrap_or_else(|| panic!("{first}"));
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(
        dir.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    // `cargo run` has made target/ by the time the command runs.
    std::fs::create_dir(dir.path().join("target")).unwrap();
    let bin_dir = phux_bin().parent().unwrap().to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let socket = dir.path().join("phux.sock");
    let attempt = |line: &str| {
        run_with_deadline(
            std::process::Command::new("bash")
                .args(["-c", line])
                .current_dir(dir.path())
                .env("PATH", &path)
                .env("PHUX_SOCKET", &socket)
                .env("SHELL", phux_tests::PANE_SHELL),
            Duration::from_secs(60),
        )
    };
    for run in ["first", "second"] {
        let output = attempt(&phux_line);
        assert!(
            output.status.success(),
            "{run} run of {phux_line}: {}",
            stderr(&output)
        );
    }
    let _ = attempt("phux kill --server");
}
