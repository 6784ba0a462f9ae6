//! Answers an agent can trust (issue 32): each test pins a false answer phux once gave with
//! exit 0 — a wait that matched the echo of the typed command, a match composed from a pager's
//! screen and the prompt drawn after it, a prompt whose trailing blank could not be matched,
//! a paste the terminal cut short unseen.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::time::Duration;

use phux_tests::{error_line, json, run_with_deadline, stderr, TestServer};
use serde_json::Value;

/// The typed line sleeps before it prints, and what it prints (`ECHO-TEST-42`) is not in its
/// echo, though `ECHO-TEST` is.
const SLEEPY_LINE: &str = "sleep 2; echo ECHO-TEST-$((40+2))";

/// `phux run ARGS`: its document, whatever status the command mirrored.
fn run_json(server: &TestServer, args: &[&str]) -> Value {
    let mut all = vec!["run", "--json", "--timeout", "60"];
    all.extend_from_slice(args);
    let output = run_with_deadline(&mut server.phux(&all), Duration::from_secs(90));
    json(&output)
}

/// `send-keys --json` the sleepy line, then `wait --after MARK --until ECHO-TEST` (and any
/// `extra` flags): the wait must end on the command's output, never on the echo.
fn wait_after_send_keys_sees_only_output(server: &TestServer, pane: &str, extra: &[&str]) {
    let sent = server.json_slow(&["send-keys", "--json", pane, SLEEPY_LINE, "Enter"]);
    let mark = sent["mark"].as_u64().unwrap().to_string();
    let mut args = vec![
        "wait",
        "--json",
        "--after",
        &mark,
        "--until",
        "ECHO-TEST",
        "--timeout",
        "60",
    ];
    args.extend_from_slice(extra);
    args.push(pane);
    let doc = server.json_slow(&args);
    assert_eq!(doc["met"], true, "{doc}");
    assert_eq!(
        doc["match"]["text"], "ECHO-TEST-42",
        "the wait matched the echo of the typed line, not the output: {doc}"
    );
    let row = doc["match"]["row"].as_u64().expect("a real row") as usize;
    assert_eq!(phux_tests::screen_lines(&doc)[row], "ECHO-TEST-42", "{doc}");
}

#[test]
fn wait_after_never_matches_the_echo_in_a_marked_shell() {
    let server = TestServer::start();
    let pane = server.marked_bash("marked");
    wait_after_send_keys_sees_only_output(&server, &pane, &[]);
    wait_after_send_keys_sees_only_output(&server, &pane, &["--output-only"]);
}

#[test]
fn wait_after_never_matches_the_echo_in_shells_without_marks() {
    let server = TestServer::start();
    for shell in ["sh", "bash"] {
        let pane = server.plain_shell(&format!("plain-{shell}"), shell);
        wait_after_send_keys_sees_only_output(&server, &pane, &[]);
    }
}

#[test]
fn wait_after_never_reports_a_row_composed_from_a_pagers_screen() {
    let server = TestServer::start();
    let pane = server.marked_bash("pager");
    let file = server.dir.path().join("rows.txt");
    let rows: String = (0..200)
        .map(|i| format!("ALT-ROW-{i} udp fspd\n"))
        .collect();
    std::fs::write(&file, rows).unwrap();
    let less = format!("less {}", file.display());
    server.send_keys(&pane, &[&less, "Enter"]);
    server.wait_for_text(&pane, "ALT-ROW-3");
    let mark = server.json_slow(&["snapshot", "--json", &pane])["mark"]
        .as_u64()
        .unwrap()
        .to_string();
    // Less redraws its rows after the mark (a page down), then quits: those rows were only
    // ever on its alternate screen.
    server.send_keys(&pane, &["Space"]);
    server.wait_for_text(&pane, "ALT-ROW-40");
    server.send_keys(&pane, &["q"]);
    let prompt = server.json_slow(&[
        "wait",
        "--json",
        "--after",
        &mark,
        "--until",
        "$",
        "--timeout",
        "30",
        &pane,
    ]);
    let text = prompt["match"]["text"].as_str().unwrap();
    assert!(
        !text.contains("ALT-ROW") && !text.contains("fspd"),
        "a row composed from less's screen and the prompt: {prompt}"
    );
    let row = prompt["match"]["row"].as_u64().expect("a real row") as usize;
    assert_eq!(
        phux_tests::screen_lines(&prompt)[row],
        text.trim_end(),
        "{prompt}"
    );
    // Less's rows are not on the screen as it stands: a wait for them times out.
    let output = run_with_deadline(
        &mut server.phux(&[
            "wait",
            "--json",
            "--after",
            &mark,
            "--until",
            "ALT-ROW-4",
            "--timeout",
            "1",
            &pane,
        ]),
        Duration::from_secs(60),
    );
    assert_eq!(output.status.code(), Some(124), "{}", stderr(&output));
}

#[test]
fn a_pattern_may_end_in_the_blank_before_the_cursor() {
    let server = TestServer::start();
    let pane = server.new_session("repl", &["python3", "-q"]);
    let doc = server.json_slow(&[
        "wait",
        "--json",
        "--until",
        ">>> ",
        "--timeout",
        "30",
        &pane,
    ]);
    assert_eq!(
        doc["match"]["text"], ">>> ",
        "the text the pattern saw: {doc}"
    );
    let sent = server.json_slow(&[
        "send-keys",
        "--json",
        &pane,
        "import time; time.sleep(1)",
        "Enter",
    ]);
    let mark = sent["mark"].as_u64().unwrap().to_string();
    let doc = server.json_slow(&[
        "wait",
        "--json",
        "--after",
        &mark,
        "--until",
        ">>> ",
        "--timeout",
        "30",
        &pane,
    ]);
    assert_eq!(
        doc["match"]["text"], ">>> ",
        "the text the pattern saw: {doc}"
    );
}

#[test]
fn paste_refuses_a_line_longer_than_a_program_reading_lines_keeps() {
    let server = TestServer::start();
    let pane = server.new_session("cat", &["cat"]);
    let long = "y".repeat(5000);
    let output = server.run(&["paste", "--json", &pane, &long]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let line = error_line(&output);
    assert_eq!(line["error"]["code"], "canonical_limit_exceeded", "{line}");
    // Nothing was written: a short paste after it is all the terminal holds.
    let doc = server.json_slow(&["paste", "--json", &pane, "short"]);
    assert_eq!(doc["bracketed"], false, "{doc}");
    server.wait_for_text(&pane, "short");
    assert!(!server.lines(&pane).concat().contains("yyy"));
}

#[test]
fn paste_json_says_whether_the_text_was_bracketed() {
    let server = TestServer::start();
    let pane = server.plain_shell("rl", "bash");
    // Readline turns bracketed paste on at its prompt.
    let doc = server.json_slow(&["paste", "--json", &pane, "echo pasted"]);
    assert_eq!(doc["bracketed"], true, "{doc}");
}

#[test]
fn a_second_run_on_a_pane_is_refused_while_the_first_is_in_flight() {
    let server = TestServer::start();
    for (name, pane) in [
        ("marked", server.marked_bash("marked")),
        ("plain", server.plain_shell("plain", "sh")),
    ] {
        let mut first = server.phux(&[
            "run",
            "--json",
            "--timeout",
            "60",
            &pane,
            "(sleep 2; exit 3)",
        ]);
        let first = first
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // The first run has typed its line once the pane shows it.
        server.wait_for_text(&pane, "sleep 2");
        let second = server.run(&["run", "--json", "--timeout", "60", &pane, "sleep 1"]);
        assert_eq!(second.status.code(), Some(2), "{name}: {}", stderr(&second));
        let line = error_line(&second);
        assert_eq!(line["error"]["code"], "target_busy", "{name}: {line}");
        assert!(
            line["error"]["message"]
                .as_str()
                .unwrap()
                .contains("(sleep 2; exit 3)"),
            "{name}: the refusal names the run in flight: {line}"
        );
        let first = first.wait_with_output().unwrap();
        assert_eq!(first.status.code(), Some(3), "{name}: {}", stderr(&first));
        let doc = json(&first);
        assert_eq!(doc["exit_code"], 3, "{name}: {doc}");
        assert_eq!(doc["output"], "", "{name}: {doc}");
        // The slot is free again once the first run returned.
        let third = server.json_slow(&["run", "--json", "--timeout", "60", &pane, "echo again"]);
        assert_eq!(third["output"], "again", "{name}: {third}");
    }
}

#[test]
fn a_multi_line_command_runs_as_one_unit() {
    let server = TestServer::start();
    let pane = server.marked_bash("lines");
    let doc = run_json(&server, &[&pane, "echo a\necho b\n(exit 4)"]);
    assert_eq!(doc["output"], "a\nb", "{doc}");
    assert_eq!(doc["exit_code"], 4, "{doc}");
    // Nothing of it runs afterwards, unreported.
    let after = server.json_slow(&["run", "--json", "--timeout", "60", &pane, "echo next"]);
    assert_eq!(after["output"], "next", "{after}");
}

#[test]
fn run_output_is_what_the_program_printed_not_the_wrapped_rows() {
    let server = TestServer::start();
    let pane = server.marked_bash("wide");
    let doc = server.json_slow(&[
        "run",
        "--json",
        "--timeout",
        "60",
        &pane,
        "python3 -c \"print('x'*500)\"",
    ]);
    assert_eq!(doc["output"], "x".repeat(500), "{doc}");
}

#[test]
fn run_tail_and_output_file_keep_a_large_output_and_its_exit_code() {
    let server = TestServer::start();
    let pane = server.marked_bash("big");
    let doc = run_json(&server, &["--tail", "3", &pane, "seq 1 20000; (exit 5)"]);
    assert_eq!(doc["output"], "19998\n19999\n20000", "{doc}");
    assert_eq!(doc["truncated"], true, "{doc}");
    assert_eq!(doc["exit_code"], 5, "{doc}");
    let file = server.dir.path().join("out.txt");
    let doc = server.json_slow(&[
        "run",
        "--json",
        "--output",
        file.to_str().unwrap(),
        "--timeout",
        "60",
        &pane,
        "seq 1 20000",
    ]);
    assert_eq!(doc["output_file"], file.to_str().unwrap(), "{doc}");
    assert_eq!(doc["output"], "", "{doc}");
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(written.lines().count(), 20000);
    assert_eq!(written.lines().last(), Some("20000"));
}

#[test]
fn a_wait_that_times_out_keeps_its_document_and_says_why_on_stderr() {
    let server = TestServer::start();
    let pane = server.plain_shell("quiet", "sh");
    let output = server.run(&[
        "wait",
        "--json",
        "--until",
        "never-printed",
        "--timeout",
        "0.5",
        &pane,
    ]);
    assert_eq!(output.status.code(), Some(124), "{}", stderr(&output));
    let doc = json(&output);
    assert_eq!(doc["met"], false, "{doc}");
    let text = stderr(&output);
    let line: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(line["error"]["code"], "wait_timed_out", "{line}");
    assert_eq!(line["exit_code"], 124, "{line}");
    assert!(
        line["remedy"].as_str().unwrap().contains("snapshot"),
        "{line}"
    );
    // The prose form says what to do next, too.
    let output = server.run(&[
        "wait",
        "--until",
        "never-printed",
        "--timeout",
        "0.5",
        &pane,
    ]);
    assert_eq!(output.status.code(), Some(124));
    assert!(
        stderr(&output).contains("phux snapshot"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_key_name_with_a_slip_is_refused_and_nothing_is_typed() {
    let server = TestServer::start();
    let pane = server.plain_shell("keys", "sh");
    let output = server.run(&["send-keys", "--json", &pane, "echo hi", "Entr"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let line = error_line(&output);
    assert_eq!(line["error"]["code"], "invalid_key_spec", "{line}");
    assert!(
        line["error"]["message"]
            .as_str()
            .unwrap()
            .contains("did you mean Enter?"),
        "{line}"
    );
    assert!(!server.lines(&pane).concat().contains("echo hi"));
    // -l types it as text.
    server.json_slow(&["send-keys", "--json", "-l", &pane, "Entr"]);
    server.wait_for_text(&pane, "Entr");
}

#[test]
fn an_ask_says_who_raised_it_and_a_title_ask_drops_its_sentinel() {
    let server = TestServer::start();
    let reported = server.plain_shell("reported", "sh");
    server.json_slow(&["ask", "--json", &reported, "Proceed?", "--suggest", "yes"]);
    let titled = server.plain_shell("titled", "sh");
    server.send_keys(
        &titled,
        &[r"printf '\033]2;phux-ask[x]:Ship it??\007'", "Enter"],
    );
    phux_tests::wait_until("the title ask is pending", Duration::from_secs(20), || {
        server.json(&["status", "--json"])["asks"]
            .as_array()
            .is_some_and(|a| a.len() == 2)
    });
    let asks = server.json(&["status", "--json"])["asks"].clone();
    let by_pane = |pane: &str| {
        let id: u64 = pane.trim_start_matches('@').parse().unwrap();
        asks.as_array()
            .unwrap()
            .iter()
            .find(|a| a["pane"] == id)
            .cloned()
            .unwrap()
    };
    assert_eq!(by_pane(&reported)["source"], "report", "{asks}");
    assert_eq!(by_pane(&titled)["source"], "title", "{asks}");
    assert_eq!(by_pane(&titled)["question"], "Ship it", "{asks}");
    // The `asked` events say the same.
    let output = server.run(&[
        "watch", "--json", "--since", "1m", "--until", "asked", &reported,
    ]);
    let asked: Value = stdout_lines(&output)
        .into_iter()
        .find(|e| e["event"] == "asked")
        .expect("an asked event");
    assert_eq!(asked["source"], "report", "{asked}");
}

#[test]
fn agent_list_with_no_agent_says_so() {
    let server = TestServer::start();
    server.plain_shell("none", "sh");
    let output = server.run(&["agent", "list"]);
    assert!(output.status.success());
    assert!(output.stdout.is_empty());
    assert!(
        stderr(&output).contains("no pane holds an agent"),
        "{}",
        stderr(&output)
    );
}

fn stdout_lines(output: &std::process::Output) -> Vec<Value> {
    phux_tests::stdout(output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `agent answer --json --id ID --text T PANE`, run as a child.
fn answer(server: &TestServer, pane: &str, id: &str, text: &str) -> std::process::Output {
    server.run(&[
        "agent", "answer", "--json", "--id", id, "--text", text, pane,
    ])
}

/// Issue 54: an answered ask is over, whatever raised it. A title ask keeps its sentinel while
/// the program reads the answer; a second answer used to be typed into the shell as a command.
#[test]
fn an_ask_is_answered_once_and_a_second_answer_types_nothing() {
    let server = TestServer::start();
    let titled = server.plain_shell("titled", "bash");
    server.send_keys(
        &titled,
        &[
            r#"printf '\033]2;phux-ask[t1]:Continue with step 2??\007'; read a; echo "got:$a""#,
            "Enter",
        ],
    );
    phux_tests::wait_until("the title ask is pending", Duration::from_secs(20), || {
        server.json(&["status", "--json"])["asks"]
            .as_array()
            .is_some_and(|a| a.len() == 1)
    });
    let first = answer(&server, &titled, "t1", "sure");
    assert!(first.status.success(), "{}", stderr(&first));
    assert_eq!(json(&first)["delivered"], true);
    server.wait_for_text(&titled, "got:sure");
    // The title still carries the sentinel: the ask must not come back.
    std::thread::sleep(Duration::from_millis(800));
    let status = server.json(&["status", "--json"]);
    assert!(
        status["asks"].as_array().is_none_or(Vec::is_empty),
        "the answered ask is still listed: {status}"
    );
    let second = answer(&server, &titled, "t1", "again");
    assert_eq!(second.status.code(), Some(2), "{}", stderr(&second));
    assert!(second.stdout.is_empty());
    assert_eq!(error_line(&second)["error"]["code"], "no_active_ask");
    server.send_keys(&titled, &["echo END-OF-TEST", "Enter"]);
    server.wait_for_text(&titled, "END-OF-TEST");
    let screen = server.json(&["snapshot", "--json", &titled]);
    let text = phux_tests::screen_lines(&screen).join("\n");
    assert!(
        !text.contains("again"),
        "the second answer was typed:\n{text}"
    );

    // A reported ask: two answers at once, one is typed, the other refused.
    let reported = server.plain_shell("reported", "sh");
    server.json_slow(&["ask", "--json", "--id", "r1", &reported, "Go?"]);
    let racers: Vec<_> = ["one", "two"]
        .iter()
        .map(|text| {
            server
                .phux(&[
                    "agent", "answer", "--json", "--id", "r1", "--text", text, &reported,
                ])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let outcomes: Vec<_> = racers
        .into_iter()
        .map(|child| child.wait_with_output().unwrap())
        .collect();
    let delivered = outcomes.iter().filter(|o| o.status.success()).count();
    assert_eq!(delivered, 1, "exactly one answer is delivered");
    let refused = outcomes.iter().find(|o| !o.status.success()).unwrap();
    assert_eq!(error_line(refused)["error"]["code"], "no_active_ask");
}

/// Issue 54: the `agent_state` event a `phux ask` raises names the same raiser as its `asked`
/// event (`report`), not the title sentinel.
#[test]
fn a_reported_asks_state_event_names_the_report() {
    let server = TestServer::start();
    let pane = server.plain_shell("reported", "sh");
    assert!(server
        .run(&["agent", "set", "--name", "helper", &pane])
        .status
        .success());
    server.json_slow(&["ask", "--json", "--id", "q", &pane, "Proceed?"]);
    let output = server.run(&[
        "watch", "--json", "--since", "1m", "--until", "asked", &pane,
    ]);
    let events = stdout_lines(&output);
    let state = events
        .iter()
        .find(|e| e["event"] == "agent_state" && e["state"] == "blocked")
        .unwrap_or_else(|| panic!("a blocked agent_state event: {events:?}"));
    assert_eq!(state["source"], "reported_ask", "{state}");
}
