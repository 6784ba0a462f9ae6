//! Issue 55: no Rust spelling reaches a user. A representative session (a family emoji on
//! screen, a pane killed by SIGHUP, a wait and a watch that time out, misses, a usage error, the
//! log inventory) is run through the real CLI, and everything it prints, and the server's log,
//! is checked for `Some(`, `None` and `\u{`. (Every other server of the suite has its log
//! checked too, when its `TestServer` is dropped.)

#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::time::Duration;

use phux_tests::spelling::rust_spellings;
use phux_tests::{stderr, stdout, wait_until, TestServer};

const FAMILY: &str = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}";

#[test]
fn what_a_representative_session_prints_and_logs_is_in_words() {
    let server = TestServer::start();
    let pane = server.plain_shell("words", "sh");
    server.send_keys(&pane, &[&format!("echo {FAMILY}"), "Enter"]);
    wait_until(
        "the shell prints the family",
        Duration::from_secs(10),
        || server.lines(&pane).iter().any(|line| line.trim() == FAMILY),
    );
    let hup = server.new_session("hup", &["sh", "-c", "sleep 0.3; kill -HUP $$"]);
    let log_path = server.socket.parent().unwrap().join("server.log");
    wait_until(
        "the pane is killed by SIGHUP",
        Duration::from_secs(10),
        || std::fs::read_to_string(&log_path).is_ok_and(|log| log.contains("killed by SIGHUP")),
    );

    let commands: Vec<Vec<&str>> = vec![
        vec!["snapshot", &pane],
        vec!["snapshot", &hup],
        vec!["send-keys", &hup, "x"],
        vec!["ls"],
        vec!["status"],
        vec!["logs"],
        vec!["wait", "--until", "never-shown", "--timeout", "0.2", &pane],
        vec!["watch", "--timeout", "0.3", &pane],
        vec!["watch", "--json", "--timeout", "0.3", &pane],
        vec!["snapshot", "@999"],
        vec!["kill", "@999"],
        vec!["snapshot", "--jsn", &pane],
        vec!["snapshtot"],
        vec!["give", &pane],
    ];
    let mut found = Vec::new();
    let mut boxed = String::new();
    for args in &commands {
        let output = server.run(args);
        let text = format!("{}{}", stdout(&output), stderr(&output));
        if args[..] == ["snapshot", &pane] {
            boxed = text.clone();
        }
        found.extend(
            rust_spellings(&text)
                .into_iter()
                .map(|line| format!("phux {}: {line}", args.join(" "))),
        );
    }
    let log = std::fs::read_to_string(&log_path).unwrap();
    found.extend(
        rust_spellings(&log)
            .into_iter()
            .map(|l| format!("log: {l}")),
    );
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The family is printed as itself, the joiners included.
    assert!(boxed.contains(FAMILY), "{boxed}");
    assert!(log.contains("its program was killed by SIGHUP"), "{log}");
}
