//! The agent's loop without pitfalls, through the CLI against a real server: a watcher that
//! starts late replays what it missed (`watch --since`), a pane's open question stays in
//! `status --json` and its `snapshot --json` until it is answered, and a pane's history is
//! bounded by its limit (`new --history-limit`), a transcript that hit it saying `truncated`.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::time::Duration;

use phux_tests::{golden, stderr, stdout, wait_until, TestServer};
use serde_json::Value;

/// The NDJSON lines a `watch --json` printed.
fn lines_of(output: &std::process::Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// A watch line with what varies from run to run (the times, the pane) zeroed.
fn steady(mut line: Value) -> Value {
    line["t"] = 0.into();
    line["ts"] = 0.into();
    line["terminal"] = "@0".into();
    line
}

/// Waits until `ls --json` lists `pane` under `exited`.
fn wait_ended(server: &TestServer, pane: &str) {
    let id: u64 = pane.trim_start_matches('@').parse().unwrap();
    wait_until(&format!("{pane} ended"), Duration::from_secs(10), || {
        let ls = server.json(&["ls", "--json"]);
        ls["exited"]
            .as_array()
            .is_some_and(|list| list.iter().any(|e| e["id"] == id))
    });
}

/// The agent started watching after the job had finished and after the REPL had asked: a
/// plain `watch` waited out its timeout for events that had already happened. `--since`
/// replays them (stamped in the past, `t` negative) and `--until` counts them.
#[test]
fn watch_since_replays_the_ask_and_the_exit_a_late_watcher_missed() {
    let server = TestServer::start();
    let repl = server.new_session("repl", &["python3", "-q"]);
    server.wait_for_text(&repl, ">>>");
    let job = server.new_session("job", &["sh", "-c", "echo working; sleep 0.2; exit 3"]);
    let asked = server.run(&[
        "ask",
        "--id",
        "overwrite",
        "--suggest",
        "yes",
        "--suggest",
        "no",
        &repl,
        "Overwrite results.csv?",
    ]);
    assert!(asked.status.success(), "{}", stderr(&asked));
    wait_ended(&server, &job);

    // Without --since the watch can only say the pane is gone, not what it said on its way.
    let late = server.run(&[
        "watch",
        "--json",
        "--until",
        "pane_closed",
        "--timeout",
        "1",
        &job,
    ]);
    assert_eq!(late.status.code(), Some(1), "{}", stderr(&late));
    assert_eq!(
        phux_tests::error_line(&late)["error"]["code"],
        "pane_exited"
    );

    // With it, the exit is replayed at once, with the job's status, from the past.
    let replayed = server.run(&[
        "watch",
        "--json",
        "--since",
        "1m",
        "--until",
        "pane_closed",
        "--timeout",
        "5",
        &job,
    ]);
    assert_eq!(replayed.status.code(), Some(0), "{}", stderr(&replayed));
    let lines = lines_of(&replayed);
    let closed = lines.last().unwrap();
    assert_eq!(closed["event"], "pane_closed", "{lines:?}");
    assert_eq!(closed["exit_status"], 3, "{closed}");
    assert!(
        closed["t"].as_f64().unwrap() < 0.0,
        "replayed, so before the watch: {closed}"
    );
    assert_eq!(
        lines[0]["event"], "pane_spawned",
        "the job's whole life: {lines:?}"
    );

    // The ask, over every pane.
    let ask = server.run(&[
        "watch",
        "--json",
        "--since",
        "1m",
        "--until",
        "asked",
        "--timeout",
        "5",
    ]);
    assert_eq!(ask.status.code(), Some(0), "{}", stderr(&ask));
    let line = lines_of(&ask).pop().unwrap();
    assert_eq!(line["terminal"], repl.as_str());
    golden("e2e/watch_since_asked.json", &format!("{}\n", steady(line)));

    // A window that ends before the events replays none of them.
    let short = server.run(&[
        "watch",
        "--json",
        "--since",
        "1ms",
        "--until",
        "asked",
        "--timeout",
        "1",
    ]);
    assert_eq!(short.status.code(), Some(124), "{}", stdout(&short));
}

/// Two jobs run at once in a bash pane each; the agent comes back after both ended and asks
/// for both ends at once.
#[test]
fn watch_since_all_sees_two_jobs_that_ended_before_it_began() {
    let server = TestServer::start();
    let keeper = server.plain_shell("keeper", "bash");
    let first = server.new_session("jobs", &["bash", "-c", "sleep 0.2; exit 5"]);
    let second = server.new_session("jobs2", &["bash", "-c", "sleep 0.4; exit 0"]);
    wait_ended(&server, &first);
    wait_ended(&server, &second);
    let output = server.run(&[
        "watch",
        "--json",
        "--since",
        "30s",
        "--until",
        "pane_closed",
        "--all",
        "--timeout",
        "5",
        &first,
        &second,
        &keeper,
    ]);
    // The keeper is still open: --all over it cannot hold, so this times out, but only after
    // both jobs' ends were printed.
    assert_eq!(output.status.code(), Some(124), "{}", stderr(&output));
    let closed: Vec<(String, Value)> = lines_of(&output)
        .into_iter()
        .filter(|l| l["event"] == "pane_closed")
        .map(|l| {
            (
                l["terminal"].as_str().unwrap().to_owned(),
                l["exit_status"].clone(),
            )
        })
        .collect();
    assert_eq!(
        closed,
        vec![
            (first.clone(), Value::from(5)),
            (second.clone(), Value::from(0))
        ]
    );
    let both = server.run(&[
        "watch",
        "--json",
        "--since",
        "30s",
        "--until",
        "pane_closed",
        "--all",
        "--timeout",
        "5",
        &first,
        &second,
    ]);
    assert_eq!(both.status.code(), Some(0), "{}", stderr(&both));
}

#[test]
fn watch_since_refuses_a_duration_it_cannot_read() {
    let server = TestServer::start();
    let output = server.run(&["watch", "--json", "--since", "soon"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let line = phux_tests::error_line(&output);
    assert!(
        line["error"]["message"].as_str().unwrap().contains("soon"),
        "{line}"
    );
}

/// The agent missed an `asked` event and had no way to see the open question again. It is in
/// `status --json` and the pane's `snapshot --json` until `agent answer` answers it.
#[test]
fn an_ask_stays_in_status_and_snapshot_until_it_is_answered() {
    let server = TestServer::start();
    let repl = server.new_session("repl", &["python3", "-q"]);
    server.wait_for_text(&repl, ">>>");
    let asked = server.run(&[
        "ask",
        "--id",
        "n",
        "--suggest",
        "6*7",
        "--suggest",
        "0",
        &repl,
        "Which product?",
    ]);
    assert!(asked.status.success(), "{}", stderr(&asked));

    let status = server.json(&["status", "--json"]);
    let mut asks = status["asks"].clone();
    assert_eq!(asks[0]["pane"].to_string(), repl.trim_start_matches('@'));
    asks[0]["pane"] = 0.into();
    golden("e2e/status_asks.json", &format!("{asks}\n"));
    let prose = stdout(&server.run(&["status"]));
    assert!(
        prose.contains(&format!("{repl} asks: Which product? [6*7/0]")),
        "{prose}"
    );
    let mut snapshot = server.json(&["snapshot", "--json", &repl]);
    snapshot["ask"]["pane"] = 0.into();
    golden("e2e/snapshot_ask.json", &format!("{}\n", snapshot["ask"]));

    let answered = server.run(&["agent", "answer", "--id", "n", "--choice", "1", &repl]);
    assert!(answered.status.success(), "{}", stderr(&answered));
    server.wait_for_text(&repl, "42");
    let status = server.json(&["status", "--json"]);
    assert!(status.get("asks").is_none(), "answered, so gone: {status}");
    let snapshot = server.json(&["snapshot", "--json", &repl]);
    assert!(snapshot.get("ask").is_none(), "{snapshot}");
}

/// A program's own question, in its title, is listed while the title asks it.
#[test]
fn a_title_ask_is_listed_while_the_title_asks() {
    let server = TestServer::start();
    let pane = server.plain_shell("titled", "bash");
    server.send_keys(
        &pane,
        &[
            "printf '\\033]2;phux-ask[go]:Continue??s=y|n\\007'; read answer; printf '\\033]2;done\\007'",
            "Enter",
        ],
    );
    let mut asks = Value::Null;
    wait_until("the title's ask is listed", Duration::from_secs(10), || {
        asks = server.json(&["status", "--json"])["asks"].clone();
        !asks.is_null()
    });
    assert_eq!(asks[0]["source"], "title", "{asks}");
    assert_eq!(asks[0]["question"], "Continue", "{asks}");
    server.send_keys(&pane, &["y", "Enter"]);
    wait_until(
        "the ask is gone with the title",
        Duration::from_secs(10),
        || server.json(&["status", "--json"]).get("asks").is_none(),
    );
}

/// `rows` of history `--scrollback` returns for `pane`, and its `truncated_reason`.
fn transcript(server: &TestServer, pane: &str) -> (Vec<String>, Option<String>) {
    let doc = server.json(&["snapshot", "--json", "--scrollback", pane]);
    let rows = doc["scrollback"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        doc["truncated"] == true,
        doc["truncated_reason"].is_string(),
        "{doc}"
    );
    (rows, doc["truncated_reason"].as_str().map(str::to_owned))
}

/// The agent printed a 3000-line transcript and could not tell whether the top was cut. A pane
/// keeps 10000 rows by default, exactly its limit when it has more, and says when it hit it.
#[test]
fn history_keeps_its_limit_and_a_transcript_that_hit_it_says_truncated() {
    let server = TestServer::start();
    let whole = server.new_session("whole", &["sh", "-c", "seq 1 3000; exec sleep 600"]);
    server.wait_for_text(&whole, "3000");
    let (rows, reason) = transcript(&server, &whole);
    assert_eq!(rows.first().map(String::as_str), Some("1"));
    assert_eq!(reason, None, "3000 rows fit in the default 10000");

    let capped = server.json(&[
        "new",
        "-s",
        "capped",
        "--history-limit",
        "1000",
        "--json",
        "--",
        "sh",
        "-c",
        "seq 1 3000; exec sleep 600",
    ]);
    let capped = format!("@{}", capped["terminal_id"]);
    server.wait_for_text(&capped, "3000");
    let (rows, reason) = transcript(&server, &capped);
    assert_eq!(rows.len(), 1000, "exactly the limit");
    let viewport_top: u32 = server.lines(&capped)[0].parse().unwrap();
    assert_eq!(
        rows.last().unwrap(),
        &(viewport_top - 1).to_string(),
        "the newest rows"
    );
    assert_eq!(reason.as_deref(), Some("history_limit"));
    let doc = server.json(&["snapshot", "--json", "--scrollback", &capped]);
    golden(
        "e2e/snapshot_history_limit.json",
        &format!(
            "{}\n",
            serde_json::json!({
                "scrollback_rows": doc["scrollback"].as_array().unwrap().len(),
                "truncated": doc["truncated"],
                "truncated_reason": doc["truncated_reason"],
            })
        ),
    );
    // A window inside the limit is cut by the window, not the limit.
    let tail = server.json(&["snapshot", "--json", "--scrollback", "20", &capped]);
    assert_eq!(tail["truncated_reason"], "row_window", "{tail}");

    let refused = server.run(&["new", "-s", "zero", "--history-limit", "0", "--json"]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert_eq!(
        phux_tests::error_line(&refused)["error"]["code"],
        "invalid_argument"
    );
}

/// A server's own default (`phux server --history-limit`, or `$PHUX_HISTORY_LIMIT` for one
/// started on demand) applies to panes that do not name one.
#[test]
fn the_server_default_history_limit_applies_to_new_panes() {
    let server = TestServer::start_with(&["--history-limit", "200"]);
    let pane = server.new_session("short", &["sh", "-c", "seq 1 1000; exec sleep 600"]);
    server.wait_for_text(&pane, "1000");
    let (rows, reason) = transcript(&server, &pane);
    assert_eq!(rows.len(), 200);
    assert_eq!(reason.as_deref(), Some("history_limit"));
}

/// Two jobs in one session (`new`, then `spawn --target`): the first ended before the agent
/// began to watch the session, the second after, and the session itself is gone by the time
/// the watch ends. `--since` counts both jobs.
#[test]
fn watch_since_over_a_session_counts_the_job_that_ended_before_the_watch() {
    let server = TestServer::start();
    let _keeper = server.plain_shell("keeper", "bash");
    let started = std::time::Instant::now();
    let quick = server.new_session("jobs", &["bash", "-c", "sleep 1.5; echo a; exit 0"]);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "`bash -c` runs a script: new does not wait for a prompt ({:?})",
        started.elapsed()
    );
    let slow = server.json(&[
        "spawn",
        "--json",
        "--target",
        "jobs",
        "--",
        "bash",
        "-c",
        "sleep 3; echo b; exit 7",
    ]);
    let slow = format!("@{}", slow["terminal_id"]);
    wait_ended(&server, &quick);
    let output = server.run(&[
        "watch",
        "--json",
        "--since",
        "1m",
        "--until",
        "pane_closed",
        "--all",
        "--timeout",
        "10",
        "jobs",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let closed: Vec<(String, Value)> = lines_of(&output)
        .into_iter()
        .filter(|l| l["event"] == "pane_closed")
        .map(|l| {
            (
                l["terminal"].as_str().unwrap().to_owned(),
                l["exit_status"].clone(),
            )
        })
        .collect();
    assert_eq!(
        closed,
        vec![(quick, Value::from(0)), (slow, Value::from(7))]
    );
    // Both gone now, the session with them: its past still answers.
    let again = server.run(&[
        "watch",
        "--json",
        "--since",
        "1m",
        "--until",
        "pane_closed",
        "--all",
        "--timeout",
        "5",
        "jobs",
    ]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    // Without --since an ended session has nothing live to watch: its name reaches the kept
    // pane, which has exited (exit 1).
    let plain = server.run(&["watch", "--json", "--timeout", "1", "jobs"]);
    assert_eq!(plain.status.code(), Some(1), "{}", stderr(&plain));
}
