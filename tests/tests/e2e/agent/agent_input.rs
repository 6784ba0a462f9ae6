//! `agent send-keys` and `agent prompt` against a real server: the occupant check before a byte
//! is written (`agent_mismatch`, `no_agent_record`, each with its exact line), the delivery
//! documents, and `prompt --wait` against a fake agent that goes working → idle.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::time::{Duration, Instant};

use phux_tests::{error_line, stderr, stdout, wait_until, TestServer};
use serde_json::Value;

/// Claude Code's chrome: idle at its input box; each submitted line makes it work a little,
/// then rest again.
const FAKE_CLAUDE: &str = r#"#!/bin/bash
stty -echo
R=$(printf '─%.0s' $(seq 1 60))
paint() { printf '\033[H\033[2J'; printf '%s\r\n' "$@"; }
idle() { paint "> $1" "" "● ok: $1" "" "$R" "❯ " "$R" "  ? for shortcuts"; }
idle ready
while read -r line; do
  paint "> $line" "" "✻ Pondering… (1s · esc to interrupt)" "" "$R" "❯ " "$R" "  ? for shortcuts"
  sleep 0.5
  idle "$line"
done
"#;

fn declared_bash(server: &TestServer) -> String {
    let pane = server.marked_bash("input");
    let set = server.run(&["agent", "set", &pane, "--name", "rev", "--kind", "claude"]);
    assert!(set.status.success(), "{}", stderr(&set));
    pane
}

#[test]
fn send_keys_checks_the_occupant_then_types() {
    let server = TestServer::start();
    let pane = declared_bash(&server);
    let out = server.run(&[
        "agent",
        "send-keys",
        "--expect-agent",
        "rev",
        "--expect-kind",
        "claude",
        "--json",
        &pane,
        "echo typed-$((40+2))",
        "Enter",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["keys"], 2);
    assert_eq!(doc["verified"], true);
    assert_eq!(doc["delivery"], "ok");
    assert_eq!(doc["attempts"], 1);
    assert_eq!(doc["agent"]["name"], "rev");
    assert_eq!(doc["operation_id"].as_str().unwrap().len(), 32);
    server.wait_for_text(&pane, "typed-42");
    let quiet = server.run(&["agent", "send-keys", &pane, "true", "Enter"]);
    assert!(quiet.status.success());
    assert_eq!(stdout(&quiet), "", "silent on success without --json");
}

#[test]
fn a_mismatched_occupant_is_refused_and_nothing_is_written() {
    let server = TestServer::start();
    let pane = declared_bash(&server);
    for (flag, value, says) in [
        ("--expect-agent", "writer", "not the agent \"writer\""),
        ("--expect-kind", "codex", "not the kind \"codex\""),
    ] {
        let out = server.run(&[
            "agent",
            "send-keys",
            flag,
            value,
            "--json",
            &pane,
            "echo never-typed",
            "Enter",
        ]);
        assert_eq!(out.status.code(), Some(2));
        let line = error_line(&out);
        assert_eq!(line["error"]["code"], "agent_mismatch");
        let message = line["error"]["message"].as_str().unwrap();
        assert_eq!(
            message,
            format!("{pane} hosts rev (claude), {says}; nothing was written"),
        );
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(!server
        .lines(&pane)
        .iter()
        .any(|l| l.contains("never-typed")));
}

#[test]
fn a_pane_without_a_record_has_no_identity_to_verify() {
    let server = TestServer::start();
    let pane = server.marked_bash("bare");
    for verb in [
        vec!["agent", "send-keys", "--json", &pane, "x"],
        vec!["agent", "prompt", "--json", &pane, "hello"],
    ] {
        let out = server.run(&verb);
        assert_eq!(out.status.code(), Some(2), "{verb:?}");
        let line = error_line(&out);
        assert_eq!(line["error"]["code"], "no_agent_record");
        assert_eq!(
            line["error"]["message"],
            format!("{pane} has no phux.agent/v1 record, so there is no identity to verify; nothing was written")
        );
    }
    let bad = server.run(&["agent", "send-keys", "--json", &pane, "C-"]);
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(error_line(&bad)["error"]["code"], "invalid_key_spec");
}

#[test]
fn prompt_wait_sees_the_agent_work_and_come_back_idle() {
    let server = TestServer::start();
    let bin = server.dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = bin.join("claude");
    std::fs::write(&script, FAKE_CLAUDE).unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let pane = server.new_session("prompt", &[script.to_str().unwrap()]);
    wait_until("claude is idle", Duration::from_secs(15), || {
        server.json(&["agent", "show", "--json", &pane])["agents"][0]["state"] == "idle"
    });
    let out = server.run(&[
        "agent",
        "prompt",
        "--expect-kind",
        "claude",
        "--wait",
        "--until",
        "idle",
        "--timeout",
        "10",
        "--json",
        &pane,
        "review the diff",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["delivery"], "ok");
    assert_eq!(doc["pre_submit_state"], "idle");
    assert_eq!(doc["transition_observed"], true);
    assert_eq!(doc["matched_by"], "transition");
    assert_eq!(doc["edge"]["from"], "working", "{doc}");
    assert_eq!(doc["edge"]["to"], "idle");
    assert_eq!(doc["edge"]["via"], "push");
    assert_eq!(doc["degraded_to_polling"], false);
    assert_eq!(doc["agent"]["state"], "idle");
    server.wait_for_text(&pane, "ok: review the diff");
    let multi = server.run(&["agent", "prompt", "--json", &pane, "two\nlines"]);
    assert_eq!(multi.status.code(), Some(2));
    assert_eq!(error_line(&multi)["error"]["code"], "invalid_input_batch");
}

/// A program asking through the title sentinel and reading its answer from the terminal.
const ASKER: &str = r#"printf '\033]0;phux-ask[deploy]:Deploy?\077s=Yes|No\007'; read -r a; echo "got=$a"; sleep 30"#;

#[test]
fn answer_types_the_chosen_suggestion_the_asker_reads() {
    let server = TestServer::start();
    let pane = server.new_session("asker", &["sh", "-c", ASKER]);
    wait_until("the ask is active", Duration::from_secs(10), || {
        server.json(&["agent", "show", "--json", &pane])["agents"][0]["state"] == "blocked"
    });
    let refusals: [(&[&str], &str, &str); 4] = [
        (
            &["--id", "old", "--choice", "1"],
            "ask_stale",
            "the ask \"old\" is no longer active",
        ),
        (
            &["--id", "deploy", "--choice", "3"],
            "answer_choice_out_of_range",
            "choice 3 is out of range",
        ),
        (
            &["--id", "deploy", "--choice", "0"],
            "answer_choice_out_of_range",
            "choice 0 is out of range",
        ),
        (
            &["--id", "deploy", "--text", "Maybe"],
            "answer_not_suggested",
            "\"Maybe\" is not one of the suggestions (Yes, No)",
        ),
    ];
    for (flags, code, says) in refusals {
        let mut args = vec!["agent", "answer", "--json"];
        args.extend_from_slice(flags);
        args.push(&pane);
        let out = server.run(&args);
        assert_eq!(out.status.code(), Some(2), "{flags:?}");
        let line = error_line(&out);
        assert_eq!(line["error"]["code"], code);
        assert!(
            line["error"]["message"].as_str().unwrap().starts_with(says),
            "{line}"
        );
    }
    let out = server.run(&[
        "agent", "answer", "--id", "deploy", "--choice", "2", "--json", &pane,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["answer"], "No");
    assert_eq!(doc["source"], "choice");
    assert_eq!(doc["ask"]["suggestions"], serde_json::json!(["Yes", "No"]));
    assert_eq!(doc["delivered"], true);
    server.wait_for_text(&pane, "got=No");
}

/// An asker that reads its answer in raw mode, as an agent's dialog does, and prints the bytes:
/// one key for a numbered dialog, keys up to Enter for an arrow-driven one.
const RAW_ASKER: &str = r#"
import os, sys, termios, time, tty
sys.stdout.write("\033]0;phux-ask[pick]:Pick?\077s=One|Two|Three\007")
sys.stdout.flush()
saved = termios.tcgetattr(0)
tty.setraw(0)
got = b""
while not got or (sys.argv[1] == "arrows" and b"\r" not in got):
    got += os.read(0, 64)
termios.tcsetattr(0, termios.TCSADRAIN, saved)
print("got=" + repr(got))
sys.stdout.flush()
time.sleep(30)
"#;

#[test]
fn answer_picks_a_choice_the_way_the_agent_s_dialog_takes_it() {
    let server = TestServer::start();
    for (kind, style, typed) in [
        ("claude", "numbered", "got=b'2'"),
        ("opencode", "arrows", "got=b'\\x1b[B\\r'"),
    ] {
        let pane = server.new_session(kind, &["python3", "-c", RAW_ASKER, style]);
        let declared = server.run(&["agent", "set", &pane, "--name", kind, "--kind", kind]);
        assert!(declared.status.success(), "{}", stderr(&declared));
        wait_until("the ask is active", Duration::from_secs(10), || {
            server.json(&["agent", "show", "--json", &pane])["agents"][0]["state"] == "blocked"
        });
        let out = server.run(&[
            "agent", "answer", "--id", "pick", "--choice", "2", "--json", &pane,
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(
            serde_json::from_str::<Value>(&stdout(&out)).unwrap()["answer"],
            "Two"
        );
        server.wait_for_text(&pane, typed);
    }
}

#[test]
fn answer_to_an_ask_without_an_id_is_ask_unidentified() {
    let server = TestServer::start();
    let asker =
        r#"printf '\033]0;phux-ask[]:Deploy?\077s=Yes|No\007'; read -r a; echo "got=$a"; sleep 30"#;
    let pane = server.new_session("anonymous", &["sh", "-c", asker]);
    wait_until("the ask is active", Duration::from_secs(10), || {
        server.json(&["agent", "show", "--json", &pane])["agents"][0]["state"] == "blocked"
    });
    let out = server.run(&[
        "agent", "answer", "--id", "", "--choice", "1", "--json", &pane,
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(error_line(&out)["error"]["code"], "ask_unidentified");
    assert!(out.stdout.is_empty());
}

#[test]
fn answer_on_a_pane_asking_nothing_is_no_active_ask() {
    let server = TestServer::start();
    let pane = server.marked_bash("quiet");
    let out = server.run(&[
        "agent", "answer", "--id", "x", "--text", "y", "--json", &pane,
    ]);
    assert_eq!(out.status.code(), Some(2));
    let line = error_line(&out);
    assert_eq!(line["error"]["code"], "no_active_ask");
    assert_eq!(
        line["error"]["message"],
        format!("{pane} is asking nothing")
    );
}

#[test]
fn start_launches_a_recognised_agent_in_a_shell_and_waits_until_it_is_seen() {
    let server = TestServer::start();
    let pane = server.bash_with_programs("start", &[("claude", FAKE_CLAUDE)], &[]);
    wait_until("the shell is identified", Duration::from_secs(10), || {
        server.json(&["agent", "show", "--json", &pane])["agents"][0]["sources"]
            .as_array()
            .is_some_and(|s| s.iter().any(|s| s["kind"] == "identity"))
    });
    for (args, code) in [
        (
            vec![
                "agent", "start", "Bad Name", "--kind", "claude", "--target", &pane, "--json",
            ],
            "invalid_agent_name",
        ),
        (
            vec![
                "agent", "start", "rev", "--kind", "vim", "--target", &pane, "--json",
            ],
            "unsupported_agent_kind",
        ),
        (
            vec![
                "agent",
                "start",
                "rev",
                "--kind",
                "claude",
                "--target",
                &pane,
                "--json",
                "--",
                "--prompt",
                "two\nlines",
            ],
            "invalid_launch_argv",
        ),
    ] {
        let out = server.run(&args);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(error_line(&out)["error"]["code"], code);
    }
    // A script the shell is running is no prompt, though its program is `sh`.
    server.send_keys(
        &pane,
        &[
            "sh -c 'echo re\"\"ady; read line; echo \"script got: $line\"'",
            "Enter",
        ],
    );
    server.wait_for_text(&pane, "ready");
    let busy = server.run(&[
        "agent", "start", "rev", "--kind", "claude", "--target", &pane, "--json",
    ]);
    assert_eq!(busy.status.code(), Some(2), "{}", stderr(&busy));
    let line = error_line(&busy);
    assert_eq!(line["error"]["code"], "target_not_shell");
    assert!(
        line["error"]["message"]
            .as_str()
            .unwrap()
            .contains("sh script"),
        "{line}"
    );
    let run = server.run(&["run", "--json", &pane, "true"]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert_eq!(error_line(&run)["error"]["code"], "target_busy");
    server.send_keys(&pane, &["typed", "Enter"]);
    server.wait_for_text(&pane, "script got: typed");
    let out = server.run(&[
        "agent",
        "start",
        "rev",
        "--kind",
        "claude",
        "--target",
        &pane,
        "--timeout",
        "10",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["ready"], true, "{doc}");
    assert_eq!(doc["started"], true);
    assert_eq!(doc["shell_check"], "passed");
    assert_eq!(doc["state"], "idle");
    assert_eq!(doc["readiness"]["identity"], "claude");
    let entry = &server.json(&["agent", "show", "--json", &pane])["agents"][0];
    assert_eq!(entry["agent"]["id"], "rev");
    assert_eq!(entry["agent"]["kind"], "claude");
    // Its foreground is the agent now, not a shell.
    let again = server.run(&[
        "agent", "start", "two", "--kind", "claude", "--target", &pane, "--json",
    ]);
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(error_line(&again)["error"]["code"], "target_not_shell");
    // Another pane cannot take the name this one holds.
    let other = server.plain_shell("other", "bash");
    let taken = server.run(&[
        "agent", "start", "rev", "--kind", "claude", "--target", &other, "--json",
    ]);
    assert_eq!(taken.status.code(), Some(2), "{}", stderr(&taken));
    let line = error_line(&taken);
    assert_eq!(line["error"]["code"], "agent_name_conflict");
    assert_eq!(
        line["error"]["message"],
        format!("the agent name \"rev\" is already held by {pane}; nothing was typed")
    );
}

/// `claude` on the pane's PATH turns out to start codex: the start says so at once.
#[test]
fn start_that_brings_up_another_agent_is_agent_kind_mismatch() {
    let server = TestServer::start();
    let codex = "#!/bin/sh\nprintf '\\n› \\n\\n  100% context left\\n'; sleep 600\n";
    let pane = server.bash_with_programs(
        "mixed",
        &[("codex", codex), ("claude", "#!/bin/sh\nexec codex\n")],
        &[],
    );
    let out = server.run(&[
        "agent",
        "start",
        "rev",
        "--kind",
        "claude",
        "--target",
        &pane,
        "--timeout",
        "20",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let line = error_line(&out);
    assert_eq!(line["error"]["code"], "agent_kind_mismatch", "{line}");
    assert!(
        line["error"]["message"]
            .as_str()
            .unwrap()
            .contains("(codex), not the claude"),
        "{line}"
    );
}

/// Two enabled plugins whose integrations both claim the kind: `agent start` names them and
/// types nothing until `--integration` chooses one, whose own launch command it then types.
#[test]
fn start_with_two_integrations_claiming_the_kind_needs_integration() {
    let plugins = tempfile::tempdir().unwrap();
    let plugin = |dir: &str, id: &str, integration: &str| {
        let root = phux_tests::plugins::plugin_dir(
            plugins.path(),
            dir,
            &format!("id = \"{id}\"\nname = \"{dir}\"\nversion = \"0.1.0\"\n"),
        );
        std::fs::create_dir_all(root.join("integrations")).unwrap();
        std::fs::write(
            root.join(format!("integrations/{integration}.toml")),
            format!(
                "schema_version = 1\nid = \"{integration}\"\nkind = \"claude\"\n\n[launch]\n\
                 command = [\"echo\", \"launched-by-{integration}\"]\n"
            ),
        )
        .unwrap();
        root
    };
    let one = plugin("one", "com.example.one", "claude-one");
    let two = plugin("two", "com.example.two", "claude-two");
    let config = phux_tests::plugins::plugins_table(&[(&one, true), (&two, true)]);
    let server = TestServer::start_with_config(Some(&config), &[]);
    let pane = server.plain_shell("twice", "bash");
    let out = server.run(&[
        "agent", "start", "rev", "--kind", "claude", "--target", &pane, "--json",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let line = error_line(&out);
    assert_eq!(line["error"]["code"], "ambiguous_integration", "{line}");
    let message = line["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("claude-one (com.example.one)")
            && message.contains("claude-two (com.example.two)"),
        "{line}"
    );
    let chosen = server.run(&[
        "agent",
        "start",
        "rev",
        "--kind",
        "claude",
        "--target",
        &pane,
        "--integration",
        "claude-two",
        "--no-wait",
        "--json",
    ]);
    assert!(chosen.status.success(), "{}", stderr(&chosen));
    let doc: Value = serde_json::from_str(&stdout(&chosen)).unwrap();
    assert_eq!(doc["integration"], "claude-two", "{doc}");
    server.wait_for_text(&pane, "launched-by-claude-two");
}

#[test]
fn start_refuses_to_wait_on_a_server_that_detects_nothing() {
    let off = std::ffi::OsStr::new("0");
    let server = TestServer::start_with_env(&[], &[("PHUX_AGENT_DETECT", off)]);
    let pane = server.plain_shell("nodetect", "bash");
    let started = Instant::now();
    let out = server.run(&[
        "agent", "start", "rev", "--kind", "claude", "--target", &pane, "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    assert_eq!(
        error_line(&out)["error"]["code"],
        "agent_detection_unavailable"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "refused at once, not after the readiness timeout"
    );
    // Nothing was typed and nothing declared.
    let shown = server.json(&["agent", "show", "--json", &pane]);
    assert_eq!(shown["agents"][0]["agent"]["id"], "unknown", "{shown}");
}
