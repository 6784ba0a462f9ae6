//! The README's examples run as written: every line of its "A short tour" block, in order, and
//! the quickstart's first GIF and agent loop, with `phux` on the PATH and a private server; its
//! first step is `scripts/install`, and every file it links exists.

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

/// The `sh` blocks of the README section titled `title`, each as its non-empty lines.
fn blocks_of(title: &str) -> Vec<Vec<String>> {
    let readme = readme();
    let section = readme
        .split(&format!("## {title}\n"))
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .unwrap_or_else(|| panic!("no section {title}"))
        .to_string();
    section
        .split("```sh\n")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .map(|b| {
            b.lines()
                .filter(|l| !l.trim().is_empty())
                .map(str::to_string)
                .collect()
        })
        .collect()
}

/// Runs `lines` in order with `phux` on the PATH and a private server, failing on the first
/// that fails; the server is stopped after.
fn run_lines(lines: &[String]) {
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
    let socket = dir.path().join("phux.sock");
    let attempt = |line: &str| {
        run_with_deadline(
            std::process::Command::new("bash")
                .args(["-c", line])
                .current_dir(dir.path())
                .env("PATH", &path)
                .env("PHUX_SOCKET", &socket)
                .env("PHUX_CONFIG", dir.path().join("config.toml"))
                .env("SHELL", phux_tests::PANE_SHELL),
            Duration::from_secs(60),
        )
    };
    for line in lines {
        let output = attempt(line);
        assert!(
            output.status.success(),
            "README line failed: {line}\n{}",
            stderr(&output)
        );
    }
    let _ = attempt("phux kill --server");
}

/// The README never said how to put phux on the PATH the tour needs: its first step is the
/// install script.
#[test]
fn the_install_step_is_the_script_that_puts_phux_on_the_path() {
    let install = blocks_of("Install");
    assert_eq!(install[0], ["./scripts/install"]);
    let script = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/install"));
    assert!(script.is_file(), "scripts/install is missing");
}

// The first command wrote demo.gif without --overwrite, so running it again failed.
#[test]
fn the_first_gif_can_be_made_twice() {
    let first = &blocks_of("Quickstart")[0];
    assert_eq!(first.len(), 1, "{first:?}");
    assert!(first[0].starts_with("phux rec -o demo.gif"), "{first:?}");
    run_lines(&[first[0].clone(), first[0].clone()]);
}

/// The quickstart's agent loop runs as written.
#[test]
fn the_quickstart_agent_loop_runs_as_written() {
    let blocks = blocks_of("Quickstart");
    let agent_loop = &blocks[1];
    assert_eq!(agent_loop.len(), 5, "five lines: {agent_loop:?}");
    run_lines(agent_loop);
}
