//! Issue 37, item 5, through a real server and the real CLI: what a pane or an agent supplies
//! (an agent's name, an `ask` question, a title) is escaped wherever phux prints it for a
//! person, as `ls`/`watch`/`status` already did, while `--json` keeps the exact strings.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::time::Duration;

use phux_tests::{stdout, wait_until, TestServer};

/// An OSC 52 (write the clipboard), a CSI as one C1 byte, a NEL and a bidi override.
const HOSTILE: &str = "x\x1b]52;c;cHduZWQ=\x07y\u{9b}2J\u{85}z\u{202E}w";

/// Nothing in `text` that a terminal would act on or that reorders what follows.
fn assert_inert(what: &str, text: &str) {
    let bad: Vec<char> = text
        .chars()
        .filter(|&c| (c.is_control() && c != '\n' && c != '\t') || c == '\u{202E}')
        .collect();
    assert!(bad.is_empty(), "{what} printed {bad:?}:\n{text}");
}

/// `agent set --name` and an `ask` question with OSC 52 wrote the outer clipboard (through
/// tmux) when `agent list`, `agent show` or `agent explain` printed them.
#[test]
fn agent_list_show_and_explain_escape_names_and_questions() {
    let server = TestServer::start();
    let pane = server.marked_bash("agent");
    let set = server.run(&["agent", "set", &pane, "--name", HOSTILE]);
    assert!(set.status.success(), "{}", phux_tests::stderr(&set));
    let question = format!("Deploy {HOSTILE}?");
    let ask = server.run(&["ask", "--id", "deploy", &pane, &question]);
    assert!(ask.status.success(), "{}", phux_tests::stderr(&ask));
    wait_until("the ask raised the record", Duration::from_secs(10), || {
        server.json(&["agent", "show", "--json", &pane])["agents"][0]["state"] == "blocked"
    });
    for verb in [
        vec!["agent", "list"],
        vec!["agent", "show", &pane],
        vec!["agent", "explain", &pane],
    ] {
        let output = server.run(&verb);
        assert!(output.status.success(), "{verb:?}");
        let text = stdout(&output);
        assert!(text.contains("\\e]52"), "{verb:?} hid the name:\n{text}");
        assert_inert(&format!("{verb:?}"), &text);
    }
    let doc = server.json(&["agent", "show", "--json", &pane]);
    assert_eq!(doc["agents"][0]["agent"]["label"], HOSTILE, "{doc}");
}

/// A title with U+202E, U+009B and U+0085 reached the terminal of whoever ran `snapshot`.
#[test]
fn snapshot_escapes_the_title_in_its_box_header_but_json_keeps_it() {
    let server = TestServer::start();
    let title = "ab\u{202E}cd\u{9b}2J\u{85}e";
    let script = "printf '\\033]0;ab\\342\\200\\256cd\\302\\2332J\\302\\205e\\007'; exec sleep 600";
    let pane = server.new_session("t", &["sh", "-c", script]);
    wait_until("the title is set", Duration::from_secs(10), || {
        server.json(&["snapshot", &pane, "--json"])["title"] == title
    });
    let text = stdout(&server.run(&["snapshot", &pane]));
    let top = text.lines().next().unwrap();
    assert!(
        top.contains("<U+202E>") && top.contains("<U+009B>") && top.contains("<U+0085>"),
        "{top}"
    );
    assert_inert("snapshot", &text);
}
