//! `phux --help` (as `phux.txt`) and the `--help` of each control and agent verb, pinned under
//! `tests/golden/help/`, compared by the one golden helper (`phux-golden`): `PHUX_BLESS=1`
//! rewrites the files; any other drift fails, every drifted file listed.

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

/// Sub-verbs whose help is pinned too (`tape-record.txt` for `phux tape record --help`).
const SUB_VERBS: [&str; 1] = ["tape record"];

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/golden/help")
}

/// `phux VERB --help` (`phux VERB SUB --help` for a sub-verb), or `phux --help` for the verb
/// "phux".
fn help_of(verb: &str) -> String {
    let mut args: Vec<&str> = if verb == "phux" {
        Vec::new()
    } else {
        verb.split(' ').collect()
    };
    args.push("--help");
    let out = Command::new(env!("CARGO_BIN_EXE_phux"))
        .args(&args)
        .env("COLUMNS", "100")
        .output()
        .expect("run phux");
    assert_eq!(out.status.code(), Some(0), "{verb} --help");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn verb_help_texts_are_pinned() {
    let drifts: Vec<String> = std::iter::once("phux")
        .chain(VERBS)
        .chain(SUB_VERBS)
        .filter_map(|verb| {
            let file = format!("{}.txt", verb.replace(' ', "-"));
            phux_golden::compare(&golden_dir().join(file), &help_of(verb)).err()
        })
        .collect();
    phux_golden::assert_none(&drifts);
}

/// Every command's path under `phux` (`["agent", "start"]`), hidden ones included.
fn command_paths(command: &clap::Command, path: Vec<String>, out: &mut Vec<Vec<String>>) {
    for sub in command.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        let mut here = path.clone();
        here.push(sub.get_name().to_owned());
        command_paths(sub, here.clone(), out);
        out.push(here);
    }
}

/// The help of every command and subcommand, as the binary prints it, is in words: no
/// `Some(`, `None` or `\u{` (a default shown as `[default: None]` once reached `--help`).
#[test]
fn no_help_text_spells_rust() {
    let mut paths = vec![Vec::new()];
    command_paths(
        &<phux_cli::cli::Cli as clap::CommandFactory>::command(),
        Vec::new(),
        &mut paths,
    );
    assert!(paths.len() > VERBS.len(), "{} commands", paths.len());
    let mut found = Vec::new();
    for path in &paths {
        let out = Command::new(env!("CARGO_BIN_EXE_phux"))
            .args(path)
            .arg("--help")
            .output()
            .expect("run phux");
        assert_eq!(out.status.code(), Some(0), "phux {} --help", path.join(" "));
        let text = String::from_utf8_lossy(&out.stdout);
        for line in text.lines() {
            let none = line
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|word| word == "None");
            if line.contains("Some(") || line.contains("\\u{") || none {
                found.push(format!("phux {} --help: {line}", path.join(" ")));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
