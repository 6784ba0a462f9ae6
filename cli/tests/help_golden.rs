//! `phux --help` (as `phux.txt`) and the `--help` of each control and agent verb, pinned under
//! `tests/golden/help/`. `PHUX_BLESS=1` rewrites the files; any other drift fails.

#![allow(clippy::expect_used)] // a test helper fails loudly by design

use std::path::PathBuf;
use std::process::Command;

const VERBS: [&str; 38] = [
    "attach",
    "detach",
    "new",
    "ls",
    "status",
    "spawn",
    "kill",
    "rename",
    "resize",
    "signal",
    "tag",
    "send-keys",
    "paste",
    "insert-pane",
    "move-pane",
    "swap-pane",
    "play",
    "snapshot",
    "wait",
    "run",
    "watch",
    "ask",
    "rec",
    "tape",
    "agent",
    "mcp",
    "config",
    "plugin",
    "workspace",
    "launch",
    "doctor",
    "logs",
    "update",
    "upgrade",
    "service",
    "completion",
    "host",
    "proxy",
];

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/golden/help")
}

/// `phux VERB --help`, or `phux --help` for the verb "phux".
fn help_of(verb: &str) -> String {
    let args: &[&str] = if verb == "phux" {
        &["--help"]
    } else {
        &[verb, "--help"]
    };
    let out = Command::new(env!("CARGO_BIN_EXE_phux"))
        .args(args)
        .env("COLUMNS", "100")
        .output()
        .expect("run phux");
    assert_eq!(out.status.code(), Some(0), "{verb} --help");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn verb_help_texts_are_pinned() {
    let bless = std::env::var_os("PHUX_BLESS").is_some();
    let mut drift = Vec::new();
    for verb in std::iter::once("phux").chain(VERBS) {
        let path = golden_dir().join(format!("{verb}.txt"));
        let text = help_of(verb);
        if bless {
            std::fs::write(&path, &text).expect("write golden");
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if want != text {
            drift.push(format!(
                "{}:\n--- want\n{want}\n--- got\n{text}",
                path.display()
            ));
        }
    }
    assert!(
        drift.is_empty(),
        "help drift (PHUX_BLESS=1 to accept):\n{}",
        drift.join("\n")
    );
}
