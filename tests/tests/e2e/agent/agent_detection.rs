//! Detection end to end with a real server: a fake agent (a script named `claude` on PATH,
//! painting Claude Code's chrome) is identified from the pane's foreground process, its state
//! derived from the screen on the pane's own edges, and `agent wait` sees the transitions by
//! push. Also the wait's refusals and outcomes: `no_agent_record` (2), 124 with the document,
//! `agent_departed` (1) when the agent exits mid-wait.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::process::Child;
use std::time::Duration;

use phux_tests::{error_line, stderr, stdout, wait_until, TestServer};
use serde_json::Value;

/// Claude Code's chrome, painted on cue: working, then (after a line of input) the permission
/// dialog, then (after the answer) working and idle, then it exits on the next line.
const FAKE_CLAUDE: &str = r#"#!/bin/bash
stty -echo
R=$(printf '─%.0s' $(seq 1 60))
paint() { printf '\033[H\033[2J'; printf '%s\r\n' "$@"; }
working() { paint "> tidy the repo" "" "● I'll look at the files first." "" "✻ Pondering… (${1}s · esc to interrupt)" "" "$R" "❯ " "$R" "  ? for shortcuts"; }
dialog() { paint "> tidy the repo" "" "● Bash(rm -rf ./tmp)" "" "$R" " Bash command" "" "   rm -rf ./tmp" "" " Do you want to proceed?" " ❯ 1. Yes" "   2. No, and tell Claude what to do differently (esc)" "" " Esc to cancel"; }
idle() { paint "> tidy the repo" "" "● Done: removed ./tmp." "" "$R" "❯ " "$R" "  ? for shortcuts"; }
working 1
read -r _
dialog
read -r answer
working 2
sleep 0.3
idle
echo "answered=$answer" > "$CLAUDE_LOG"
read -r _
"#;

struct Agent {
    server: TestServer,
    pane: String,
}

/// A bash pane whose PATH starts with a directory holding the fake `claude`, running it.
fn fake_claude_running() -> Agent {
    let server = TestServer::start();
    let log = format!(
        "CLAUDE_LOG={}",
        server.dir.path().join("claude.log").display()
    );
    let pane = server.bash_with_programs("agents", &[("claude", FAKE_CLAUDE)], &[&log]);
    server.send_keys(&pane, &["claude", "Enter"]);
    let agent = Agent { server, pane };
    agent.wait_for_state("working");
    agent
}

impl Agent {
    fn show(&self) -> Value {
        self.server.json(&["agent", "show", "--json", &self.pane])["agents"][0].clone()
    }

    fn wait_for_state(&self, state: &str) {
        let mut last = Value::Null;
        wait_until(
            &format!("the agent is {state}"),
            Duration::from_secs(15),
            || {
                last = self.show();
                last["state"] == state && last["agent"]["kind"] == "claude"
            },
        );
    }

    /// Starts `agent wait ARGS` and returns once it holds its stream (its two connections),
    /// so a transition made afterwards is one it must see.
    fn start_wait(&self, args: &[&str]) -> Child {
        let child = self.server.spawn_connected(args, 2);
        // Connected; its baseline read follows at once, and nothing reports it: a bounded wait.
        std::thread::sleep(Duration::from_millis(300));
        child
    }
}

#[test]
fn a_fake_claude_is_identified_and_agent_wait_sees_it_block_by_push() {
    let agent = fake_claude_running();
    let entry = agent.show();
    assert_eq!(entry["agent"]["id"], "claude", "{entry}");
    let kinds: Vec<&str> = entry["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, vec!["screen", "identity"], "{entry}");
    assert!(
        entry["sources"][1]["observed"]
            .as_str()
            .unwrap()
            .starts_with("claude (pid"),
        "{entry}"
    );

    let wait = agent.start_wait(&[
        "agent",
        "wait",
        "--until",
        "blocked",
        "--timeout",
        "20",
        "--json",
        &agent.pane,
    ]);
    agent.server.send_keys(&agent.pane, &["Enter"]);
    let out = wait.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["satisfied"], true);
    assert_eq!(doc["edge"]["from"], "working", "{doc}");
    assert_eq!(doc["edge"]["to"], "blocked");
    assert_eq!(doc["edge"]["via"], "push");
    assert_eq!(doc["baseline"], "working");
    assert_eq!(doc["agent"]["kind"], "claude");
    assert_eq!(doc["detection"]["state"], "blocked");
    assert_eq!(
        doc["detection"]["sources"][0]["signal"],
        "claude manifest, rule permission-dialog"
    );

    // Answered, it works and goes idle: the wait sees working -> idle after the hold.
    let wait = agent.start_wait(&[
        "agent",
        "wait",
        "--until",
        "idle",
        "--timeout",
        "20",
        &agent.pane,
    ]);
    agent.server.send_keys(&agent.pane, &["1", "Enter"]);
    let out = wait.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let line = stdout(&out);
    let fields: Vec<&str> = line.trim_end().split('\t').collect();
    assert_eq!(
        fields[..4],
        [agent.pane.as_str(), "claude", "working -> idle", "via push"],
        "{line}"
    );
}

#[test]
fn an_agent_that_exits_mid_wait_is_a_departure_not_a_completion() {
    let agent = fake_claude_running();
    agent.server.send_keys(&agent.pane, &["Enter"]);
    agent.wait_for_state("blocked");
    agent.server.send_keys(&agent.pane, &["2", "Enter"]);
    agent.wait_for_state("idle");
    let wait = agent.start_wait(&[
        "agent",
        "wait",
        "--until",
        "done",
        "--timeout",
        "20",
        "--json",
        &agent.pane,
    ]);
    agent.server.send_keys(&agent.pane, &["Enter"]);
    let out = wait.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let line = error_line(&out);
    assert_eq!(line["error"]["code"], "agent_departed", "{line}");
    // The record the detector made went with its agent.
    wait_until("no agent listed", Duration::from_secs(10), || {
        agent.server.json(&["agent", "list", "--json"])["agents"] == Value::Array(Vec::new())
    });
}

#[test]
fn a_wait_on_a_pane_without_a_record_is_refused_with_no_agent_record() {
    let server = TestServer::start();
    let pane = server.marked_bash("plain");
    let out = server.run(&["agent", "wait", "--json", "--timeout", "5", &pane]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let line = error_line(&out);
    assert_eq!(line["error"]["code"], "no_agent_record");
    assert!(
        line["remedy"].as_str().unwrap().contains("phux agent set"),
        "{line}"
    );
}

#[test]
fn a_wait_that_sees_no_transition_exits_124_with_the_document_even_when_resting_in_the_state() {
    let server = TestServer::start();
    let pane = server.marked_bash("resting");
    let set = server.run(&["agent", "set", &pane, "--name", "r", "--state", "idle"]);
    assert!(set.status.success());
    // Already idle: the edge rule never answers from the level.
    let out = server.run(&[
        "agent",
        "wait",
        "--until",
        "idle",
        "--timeout",
        "1.5",
        "--json",
        &pane,
    ]);
    assert_eq!(out.status.code(), Some(124), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["satisfied"], false);
    assert_eq!(doc["edge"], Value::Null);
    assert_eq!(doc["baseline"], "idle");
    assert_eq!(doc["state"], "idle");
    assert_eq!(doc["agent"]["name"], "r");
    assert!(doc["observations"]["polls"].as_u64().unwrap() >= 1, "{doc}");
}

#[test]
fn a_declared_state_outranks_the_detector_and_an_ask_raises_a_stateless_record_to_blocked() {
    let agent = fake_claude_running();
    let set = agent.server.run(&[
        "agent",
        "set",
        &agent.pane,
        "--name",
        "lead",
        "--state",
        "done",
    ]);
    assert!(set.status.success(), "{}", stderr(&set));
    agent.server.send_keys(&agent.pane, &["Enter"]);
    // The screen says blocked now, but the declared `done` stands.
    wait_until(
        "the detector saw the dialog",
        Duration::from_secs(10),
        || {
            agent.show()["sources"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["kind"] == "screen" && s["observed"] == "blocked")
        },
    );
    let entry = agent.show();
    assert_eq!(entry["state"], "done", "{entry}");
    assert_eq!(entry["sources"][0]["kind"], "agent_record");

    let server = &agent.server;
    let pane = server.marked_bash("asker");
    assert!(server
        .run(&["agent", "set", &pane, "--name", "asker"])
        .status
        .success());
    assert!(server
        .run(&[
            "ask",
            "--id",
            "deploy",
            "--suggest",
            "Yes",
            "--suggest",
            "No",
            &pane,
            "Deploy?"
        ])
        .status
        .success());
    wait_until("the ask raised the record", Duration::from_secs(10), || {
        server.json(&["agent", "show", "--json", &pane])["agents"][0]["state"] == "blocked"
    });
    let entry = &server.json(&["agent", "show", "--json", &pane])["agents"][0];
    assert_eq!(entry["sources"][0]["kind"], "reported_ask", "{entry}");
    assert_eq!(
        entry["explanation"],
        "waiting on a reported human-answerable ask"
    );
}

/// Paints the dialog, then keeps writing (a clock in the corner) so output never settles.
const BUSY_DIALOG: &str = r#"#!/bin/bash
stty -echo
R=$(printf '─%.0s' $(seq 1 60))
printf '\033[H\033[2J> go\r\n\r\n✻ Pondering… (1s · esc to interrupt)\r\n\r\n%s\r\n❯ \r\n%s\r\n' "$R" "$R"
read -r _
printf '\033[H\033[2J> go\r\n\r\n%s\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n\r\n Esc to cancel\r\n' "$R"
while :; do printf '\0337\033[1;70H%s\0338' "$(date +%N)"; sleep 0.05; done
"#;

/// A pane that never goes quiet is judged on its screen-changed notices: its settled edge never
/// comes. (Also: the agent is the pane's own program, a script run by its shebang.)
#[test]
fn a_dialog_under_continuous_output_is_seen_without_the_output_settling() {
    let server = TestServer::start();
    let bin = server.dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = bin.join("claude");
    std::fs::write(&script, BUSY_DIALOG).unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let pane = server.new_session("busy", &[script.to_str().unwrap()]);
    let agent = Agent { server, pane };
    agent.wait_for_state("working");
    agent.server.send_keys(&agent.pane, &["Enter"]);
    agent.wait_for_state("blocked");
}

/// Claude's permission dialog, read the way the real one reads its answer: raw mode, one key,
/// no Enter. The key goes to `$AGENT_LOG`; then the dialog gives way to the idle input box.
const RAW_CLAUDE: &str = r#"#!/usr/bin/env python3
import os, sys, termios, time, tty
R = "─" * 60
def paint(*rows):
    sys.stdout.write("\033[H\033[2J" + "\r\n".join(rows) + "\r\n")
    sys.stdout.flush()
paint("> tidy the repo", "", "● Bash(rm -rf ./tmp)", "", R, " Bash command", "", "   rm -rf ./tmp",
      "   Remove temporary files", "", " Do you want to proceed?", " ❯ 1. Yes",
      "   2. Yes, and don't ask again for rm commands", "   3. No, and tell Claude what to do differently (esc)",
      "", " Esc to cancel")
saved = termios.tcgetattr(0)
tty.setraw(0)
key = os.read(0, 16)
termios.tcsetattr(0, termios.TCSADRAIN, saved)
open(os.environ["AGENT_LOG"], "w").write(repr(key))
paint("> tidy the repo", "", "● Done: removed ./tmp.", "", R, "❯ ", R, "  ? for shortcuts")
time.sleep(60)
"#;

/// pi's trust dialog drawn inside its input area (choices, hints, the bottom rule, the footer),
/// the pointer on choice `$PI_SELECTED` (0-based), answered with arrows then Enter in raw mode.
const RAW_PI: &str = r#"#!/usr/bin/env python3
import os, sys, termios, time, tty
R = "─" * 60
def paint(*rows):
    sys.stdout.write("\033[H\033[2J" + "\r\n".join(rows) + "\r\n")
    sys.stdout.flush()
FOOT = " ~/project (main)                       ↑0 ↓0 $0.000"
SEL = int(os.environ.get("PI_SELECTED", "0"))
CHOICES = [(" → " if i == SEL else "   ") + c for i, c in enumerate(["Yes, trust this folder", "No, exit"])]
paint(" pi v0.30.0", "", R, " Trust project folder?", " /home/dev/project", "",
      *CHOICES, "", " ↑↓ navigate  enter select  esc cancel", R, FOOT)
saved = termios.tcgetattr(0)
tty.setraw(0)
got = b""
while b"\r" not in got:
    got += os.read(0, 16)
termios.tcsetattr(0, termios.TCSADRAIN, saved)
open(os.environ["AGENT_LOG"], "w").write(repr(got))
paint(" pi v0.30.0", "", " Not trusted: read-only mode.", "", R, " ", R, FOOT)
time.sleep(60)
"#;

/// A stand-in agent showing a dialog, and what answering it must do.
struct DialogCase {
    kind: &'static str,
    script: &'static str,
    /// `--choice N`.
    choice: &'static str,
    question: &'static str,
    choices: &'static [&'static str],
    /// The keys the agent must read, as Python's repr of the bytes.
    typed: &'static str,
    env: &'static str,
}

/// A blocked dialog with choices becomes an ask (`source: "screen"`, the dialog's choices in
/// order): `agent answer --choice N` types it the way the agent takes input, and the pane
/// leaves blocked. Before, a Claude permission dialog was blocked but `agent answer` failed
/// `no_active_ask`.
#[test]
fn a_dialog_on_the_screen_becomes_an_ask_that_agent_answer_selects() {
    let cases = [
        DialogCase {
            kind: "claude",
            script: RAW_CLAUDE,
            choice: "1",
            question: "Do you want to proceed?",
            choices: &[
                "Yes",
                "Yes, and don't ask again for rm commands",
                "No, and tell Claude what to do differently (esc)",
            ],
            typed: "b'1'",
            env: "PI_SELECTED=0",
        },
        DialogCase {
            kind: "pi",
            script: RAW_PI,
            choice: "2",
            question: "Trust project folder?",
            choices: &["Yes, trust this folder", "No, exit"],
            typed: "b'\\x1b[B\\r'",
            env: "PI_SELECTED=0",
        },
        // The pointer starts on the second choice: the first is one Up away, not zero Downs.
        DialogCase {
            kind: "pi",
            script: RAW_PI,
            choice: "1",
            question: "Trust project folder?",
            choices: &["Yes, trust this folder", "No, exit"],
            typed: "b'\\x1b[A\\r'",
            env: "PI_SELECTED=1",
        },
    ];
    for case in cases {
        let DialogCase {
            kind,
            script,
            choice,
            question,
            choices,
            typed,
            env,
        } = case;
        let server = TestServer::start();
        let log_path = server.dir.path().join("agent.log");
        let log = format!("AGENT_LOG={}", log_path.display());
        let pane = server.bash_with_programs("agents", &[(kind, script)], &[&log, env]);
        server.send_keys(&pane, &[kind, "Enter"]);
        let mut asks = Value::Null;
        wait_until(
            &format!("{kind}'s dialog is an ask"),
            Duration::from_secs(15),
            || {
                asks = server.json(&["status", "--json"])["asks"].clone();
                asks.as_array().is_some_and(|a| !a.is_empty())
            },
        );
        let ask = &asks[0];
        assert_eq!(ask["source"], "screen", "{asks}");
        assert_eq!(ask["question"], question, "{asks}");
        let suggestions: Vec<&str> = ask["suggestions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert_eq!(suggestions, choices, "{asks}");
        let shown = server.json(&["agent", "show", "--json", &pane])["agents"][0].clone();
        assert_eq!(shown["state"], "blocked", "{shown}");
        assert_eq!(shown["agent"]["kind"], kind, "{shown}");

        let id = ask["id"].as_str().unwrap().to_owned();
        let out = server.run(&[
            "agent", "answer", "--id", &id, "--choice", choice, "--json", &pane,
        ]);
        assert!(out.status.success(), "{kind}: {}", stderr(&out));
        let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
        let n: usize = choice.parse().unwrap();
        assert_eq!(doc["answer"], choices[n - 1]);
        wait_until(
            &format!("{kind} read its answer"),
            Duration::from_secs(10),
            || std::fs::read_to_string(&log_path).is_ok_and(|t| t == typed),
        );
        wait_until(
            &format!("{kind} leaves blocked"),
            Duration::from_secs(15),
            || {
                let shown = server.json(&["agent", "show", "--json", &pane])["agents"][0].clone();
                shown["state"] == "idle"
            },
        );
        let asks = server.json(&["status", "--json"])["asks"].clone();
        assert!(asks.as_array().is_none_or(Vec::is_empty), "{kind}: {asks}");
    }
}

/// A program that reports progress with OSC 9;4 (busy: state 3) and clears it (state 0) after a
/// line of input.
const PROGRESS_AGENT: &str = r#"#!/bin/bash
stty -echo
printf '\033]9;4;3;\007busy\r\n'
read -r _
printf '\033]9;4;0;\007done\r\n'
sleep 60
"#;

/// The `osc-progress` region reads the pane's latest OSC 9;4 report live (it read empty in the
/// server before, so a manifest rule on it matched only in `explain --file`).
#[test]
fn a_manifest_rule_on_osc_progress_sees_the_live_report() {
    let rules = tempfile::tempdir().unwrap();
    std::fs::write(
        rules.path().join("prog.toml"),
        "kind = \"prog\"\nbinaries = [\"prog\"]\n\
         [[rules]]\nid = \"progress\"\nstate = \"working\"\npriority = 60\nregion = \"osc-progress\"\nmatch = { line-regex = '^4;3;' }\n\
         [[rules]]\nid = \"quiet\"\nstate = \"idle\"\nvisible-idle = true\nmatch = { contains = \"done\" }\n",
    )
    .unwrap();
    let server =
        TestServer::start_with_env(&[], &[("PHUX_AGENT_RULES_DIR", rules.path().as_os_str())]);
    let pane = server.bash_with_programs("agents", &[("prog", PROGRESS_AGENT)], &[]);
    server.send_keys(&pane, &["prog", "Enter"]);
    let state = || server.json(&["agent", "show", "--json", &pane])["agents"][0].clone();
    let mut last = Value::Null;
    wait_until(
        "the progress report reads working",
        Duration::from_secs(15),
        || {
            last = state();
            last["state"] == "working" && last["agent"]["kind"] == "prog"
        },
    );
    server.send_keys(&pane, &["Enter"]);
    wait_until(
        "the cleared report reads idle",
        Duration::from_secs(15),
        || {
            last = state();
            last["state"] == "idle"
        },
    );
}
