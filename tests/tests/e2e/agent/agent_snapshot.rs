//! `phux snapshot` against a real server: ScreenState v3 pinned as golden documents for a fixed
//! program in a fixed-size pane (viewport, history windows, cells, tail, unwrap, the boxed
//! view), OSC 133 marks of a real bash checked cell by cell, and reads that change nothing.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_tests::{golden, stdout, TestServer};
use serde_json::Value;

/// Six numbered lines, a bold and a red word, and a 45-character line that wraps at 40
/// columns, under the title `golden`, printed on a cleared screen once Enter arrives. It says
/// `ready` once echo is off, so the Enter leaves no trace.
const PROGRAM: &str = "stty -echo; printf ready; IFS= read -r _; \
    printf '\\033[2J\\033[3J\\033[H\\033]2;golden\\007'; \
    for i in 1 2 3 4 5 6; do printf 'line %s\\n' $i; done; \
    printf '\\033[1mbold\\033[0m and \\033[31mred\\033[0m\\n'; \
    printf '%s\\n' 0123456789012345678901234567890123456789ABCDE; \
    exec sleep 600";

/// A 40x6 pane that has run `PROGRAM`: four rows have scrolled into history.
fn fixed_screen() -> (TestServer, String) {
    let server = TestServer::start();
    let pane = server.new_session("fixed", &["sh", "-c", PROGRAM]);
    server.wait_for_text(&pane, "ready");
    let resized = server.run(&["resize", &pane, "40x6"]);
    assert!(resized.status.success());
    server.send_keys(&pane, &["Enter"]);
    server.wait_for_text(&pane, "ABCDE");
    (server, pane)
}

#[test]
fn screen_state_documents_of_a_fixed_program_are_pinned() {
    let (server, pane) = fixed_screen();
    let cases: [(&str, &[&str]); 7] = [
        ("viewport", &[]),
        ("scrollback_all", &["--scrollback"]),
        ("scrollback_zero", &["--scrollback=0"]),
        ("scrollback_2", &["--scrollback", "2"]),
        ("cells", &["--cells"]),
        ("tail_7", &["--tail", "7"]),
        ("unwrap", &["--unwrap", "--scrollback"]),
    ];
    for (name, flags) in cases {
        let mut args = vec!["snapshot", "--json"];
        args.extend_from_slice(flags);
        args.push(&pane);
        // The bytes as printed: one line, keys in the document's own order.
        let output = server.run(&args);
        assert!(output.status.success(), "{args:?}");
        golden(&format!("e2e/snapshot_{name}.json"), &stdout(&output));
    }
}

#[test]
fn the_fixed_screen_reads_field_by_field() {
    let (server, pane) = fixed_screen();
    let doc = server.json(&["snapshot", "--json", "--scrollback", &pane]);
    assert_eq!(doc["schema_version"], 3);
    assert_eq!(
        (doc["cols"].as_u64(), doc["rows"].as_u64()),
        (Some(40), Some(6))
    );
    assert_eq!(doc["title"], "golden");
    assert_eq!(
        doc["scrollback"],
        serde_json::json!(["line 1", "line 2", "line 3", "line 4"])
    );
    assert_eq!(doc["lines"][2], "bold and red");
    assert_eq!(doc["lines"][3], "0123456789012345678901234567890123456789");
    assert_eq!(doc["lines"][4], "ABCDE");
    // Row 3 wraps into row 4: soft_wrap is present and says so.
    assert_eq!(doc["soft_wrap"]["lines"], serde_json::json!([3]));
    assert_eq!(
        doc["cursor"],
        serde_json::json!({"x": 0, "y": 5, "visible": true})
    );
    assert!(doc.get("truncated").is_none(), "all history was asked for");
    assert!(doc.get("cells").is_none(), "cells only with --cells");

    let window = server.json(&["snapshot", "--json", "--scrollback", "2", &pane]);
    assert_eq!(
        window["scrollback"],
        serde_json::json!(["line 3", "line 4"])
    );
    assert_eq!(window["truncated"], true);
    assert_eq!(window["truncated_reason"], "row_window");

    let none = server.json(&["snapshot", "--json", &pane]);
    assert_eq!(none["scrollback"], serde_json::json!([]));
}

#[test]
fn cells_carry_bold_and_palette_colours() {
    let (server, pane) = fixed_screen();
    let doc = server.json(&["snapshot", "--json", "--cells", &pane]);
    let cells = doc["cells"].as_array().unwrap();
    let at = |col: u64, row: u64| {
        cells
            .iter()
            .find(|c| c["col"] == col && c["row"] == row)
            .unwrap_or_else(|| panic!("no cell at {col},{row}: {cells:?}"))
    };
    // "bold and red" is on viewport row 2.
    assert_eq!(at(0, 2)["style"]["bold"], true);
    assert_eq!(
        at(0, 2)["style"]["fg"],
        serde_json::json!({"kind": "default"})
    );
    assert_eq!(
        at(9, 2)["style"]["fg"],
        serde_json::json!({"kind": "palette", "index": 1})
    );
    assert!(
        cells.iter().all(|c| c.get("semantic").is_none()),
        "sh emits no marks"
    );
    assert_eq!(cells.len(), 7, "only styled cells: 4 bold + 3 red");
}

#[test]
fn tail_and_unwrap_project_the_one_read() {
    let (server, pane) = fixed_screen();
    let tail = server.json(&["snapshot", "--json", "--tail", "7", &pane]);
    assert_eq!(tail["scrollback"], serde_json::json!(["line 4"]));
    assert_eq!(tail["truncated"], true);
    // The viewport is a floor: a tail narrower than it keeps it whole.
    let floor = server.json(&["snapshot", "--json", "--tail", "2", &pane]);
    assert_eq!(floor["lines"].as_array().map(Vec::len), Some(6));
    assert_eq!(floor["scrollback"], serde_json::json!([]));
    // Bare --tail before TARGET takes the default (80) and leaves TARGET alone.
    let bare = server.json(&["snapshot", "--json", "--tail", &pane]);
    assert_eq!(bare["scrollback"].as_array().map(Vec::len), Some(4));

    let unwrapped = server.json(&["snapshot", "--json", "--unwrap", &pane]);
    assert_eq!(
        unwrapped["lines"][3],
        "0123456789012345678901234567890123456789ABCDE"
    );
    assert_eq!(unwrapped["soft_wrap"]["lines"], serde_json::json!([]));
    let refused = server.run(&["snapshot", "--json", "--unwrap", "--cells", &pane]);
    assert_eq!(refused.status.code(), Some(2));
}

#[test]
fn the_boxed_view_is_pinned() {
    let (server, pane) = fixed_screen();
    let output = server.run(&["snapshot", &pane]);
    assert!(output.status.success());
    golden("e2e/snapshot_boxed.txt", &stdout(&output));
    let with_history = server.run(&["snapshot", "--scrollback", &pane]);
    golden("e2e/snapshot_boxed_history.txt", &stdout(&with_history));
}

#[test]
fn bash_prompt_marks_reach_the_cells() {
    let server = TestServer::start();
    let pane = server.marked_bash("marked");
    server.send_keys(&pane, &["echo typed-not-run"]);
    server.wait_for_text(&pane, "typed-not-run");
    let doc = server.json(&["snapshot", "--json", "--cells", &pane]);
    let row = doc["lines"]
        .as_array()
        .unwrap()
        .iter()
        .position(|l| l.as_str().unwrap_or("").contains("typed-not-run"))
        .unwrap() as u64;
    let cells: Vec<&Value> = doc["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["row"] == row)
        .collect();
    let semantic = |col: u64| {
        cells
            .iter()
            .find(|c| c["col"] == col)
            .map(|c| c["semantic"].clone())
    };
    // "$ " is the prompt, what follows is typed input.
    assert_eq!(semantic(0), Some(Value::from("Prompt")));
    assert_eq!(semantic(1), Some(Value::from("Prompt")));
    assert_eq!(semantic(2), Some(Value::from("Input")));
    assert_eq!(semantic(6), Some(Value::from("Input")));
    assert!(cells
        .iter()
        .all(|c| c["style"]["fg"] == serde_json::json!({"kind": "default"})));
}

#[test]
fn reads_and_follows_never_change_the_active_pane() {
    let server = TestServer::start();
    let first = server.plain_shell("first", "sh");
    let second = server.plain_shell("second", "sh");
    let active = || server.json(&["snapshot", "--json", "."])["pane"].clone();
    let second_id: Value = second
        .trim_start_matches('@')
        .parse::<u64>()
        .unwrap()
        .into();
    assert_eq!(active(), second_id);
    server.run(&["snapshot", &first]);
    server.run(&["wait", "--until", "$", "--timeout", "1", &first]);
    server.run(&["watch", "--timeout", "0.2", &first]);
    assert_eq!(active(), second_id, "a read made {first} active");
    let sized = server.json(&["snapshot", "--json", &first]);
    assert_eq!(
        (sized["cols"].as_u64(), sized["rows"].as_u64()),
        (Some(80), Some(24))
    );
}
