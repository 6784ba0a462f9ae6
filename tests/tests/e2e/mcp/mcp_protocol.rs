//! `phux mcp` driven as JSON-RPC over its stdio against a real server: the four protocol
//! revisions, ping, garbage and unknown methods (the server keeps serving), tool results and
//! `isError` results carrying the JSON error document, the argument limits, `confirm: true`
//! on destructive tools, and `notifications/cancelled` stopping a `phux_wait` in flight.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::time::{Duration, Instant};

use phux_tests::mcp::{clients, text_document, McpProcess, NEWEST};
use phux_tests::{wait_until, TestServer};
use serde_json::{json, Value};

#[test]
fn every_revision_is_answered_with_its_own_and_an_unknown_one_with_the_newest() {
    let server = TestServer::start();
    for revision in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let (mut mcp, init) = McpProcess::initialized(&server.socket, revision);
        assert_eq!(init["protocolVersion"], revision);
        assert_eq!(init["serverInfo"]["name"], "phux");
        assert!(init["capabilities"]["tools"].is_object(), "{init}");
        // structuredContent exists from 2025-06-18 on; the text block always.
        let result = mcp.call("phux_status", json!({}));
        assert_eq!(result["isError"], false);
        let structured = revision >= "2025-06-18";
        assert_eq!(
            result.get("structuredContent").is_some(),
            structured,
            "{revision}: {result}"
        );
        let text = text_document(&result);
        assert_eq!(text["running"], true);
        if structured {
            assert_eq!(result["structuredContent"], text);
        }
    }
    let (_, init) = McpProcess::initialized(&server.socket, "1999-01-01");
    assert_eq!(init["protocolVersion"], NEWEST);
}

#[test]
fn malformed_messages_get_standard_errors_and_the_server_keeps_serving() {
    let server = TestServer::start();
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    let limit = Duration::from_secs(10);

    mcp.write_line("this is not json {");
    let reply = mcp.next_message(limit).expect("a parse error");
    assert_eq!(reply["error"]["code"], -32700, "{reply}");
    assert_eq!(reply["id"], Value::Null);

    mcp.write_line(r#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#);
    let reply = mcp.next_message(limit).expect("an invalid request");
    assert_eq!(reply["error"]["code"], -32600, "{reply}");
    assert_eq!(reply["id"], 7);

    mcp.write_line(r#"{"jsonrpc":"2.0","id":8}"#);
    let reply = mcp.next_message(limit).expect("an invalid request");
    assert_eq!(reply["error"]["code"], -32600, "{reply}");

    let reply = mcp.exchange("resources/list", json!({}));
    assert_eq!(reply["error"]["code"], -32601, "{reply}");

    let reply = mcp.exchange("tools/call", json!({"name": "phux_nope", "arguments": {}}));
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    let reply = mcp.exchange("tools/call", json!({"arguments": {}}));
    assert_eq!(reply["error"]["code"], -32602, "{reply}");

    // A batch: the ping answered, the notification not.
    mcp.write_line(
        r#"[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]"#,
    );
    let reply = mcp.next_message(limit).expect("a batch reply");
    assert_eq!(reply, json!([{"jsonrpc": "2.0", "id": "b1", "result": {}}]));

    // And after all that, it still answers.
    assert_eq!(mcp.request("ping", json!({})), json!({}));
    let tools = mcp.request("tools/list", json!({}));
    assert!(tools["tools"].as_array().unwrap().len() >= 30);
}

#[test]
fn every_tool_schema_is_strict_and_takes_no_socket() {
    let server = TestServer::start();
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    let tools = mcp.request("tools/list", json!({}));
    for tool in tools["tools"].as_array().unwrap() {
        let schema = &tool["inputSchema"];
        assert_eq!(schema["type"], "object", "{tool}");
        assert_eq!(schema["additionalProperties"], false, "{tool}");
        // The socket is the adapter's own option (`phux mcp --socket`), not an argument.
        assert!(schema["properties"]["socket"].is_null(), "{tool}");
        assert!(!tool["description"].as_str().unwrap().is_empty());
    }
    // `--schema` prints the same list, offline.
    let offline = phux_tests::run(&mut phux_tests::phux(&[
        "mcp", "--tools", "all", "--schema",
    ]));
    assert!(offline.status.success());
    let offline: Value = serde_json::from_slice(&offline.stdout).unwrap();
    assert_eq!(&offline, &tools["tools"]);
}

#[test]
fn a_session_is_created_driven_read_and_waited_on() {
    let server = TestServer::start();
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    let created = mcp.ok(
        "phux_new",
        json!({"name": "work", "command": ["env", "PS1=$ ", "bash", "--norc", "--noprofile", "-i"]}),
    );
    let pane = format!("@{}", created["terminal_id"]);
    assert_eq!(created["session"], "work");
    let waited = mcp.ok(
        "phux_wait",
        json!({"target": pane, "until": "$", "timeout_secs": 10}),
    );
    assert_eq!(waited["outcome"], "met", "{waited}");

    let ran = mcp.ok(
        "phux_run",
        json!({"target": pane, "command": "echo mcp-$((6 * 7)); false"}),
    );
    assert_eq!(ran["output"], "mcp-42");
    // A command's own failure is a result, not an error.
    assert_eq!(ran["exit_code"], 1);

    mcp.ok(
        "phux_send_keys",
        json!({"target": pane, "keys": ["echo typed-by-mcp", "Enter"]}),
    );
    let waited = mcp.ok(
        "phux_wait",
        json!({"target": pane, "regex": "^typed-by-mcp$", "timeout_secs": 10}),
    );
    assert_eq!(waited["met"], true);
    assert_eq!(waited["match"]["text"], "typed-by-mcp");

    let snapshot = mcp.ok("phux_snapshot", json!({"target": pane}));
    assert_eq!(snapshot["schema_version"], 3);
    let lines: Vec<&str> = snapshot["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(lines.contains(&"typed-by-mcp"), "{lines:?}");

    let timed_out = mcp.ok(
        "phux_wait",
        json!({"target": pane, "until": "never-shown", "timeout_secs": 0.3}),
    );
    assert_eq!(timed_out["outcome"], "timed_out");
    assert_eq!(timed_out["met"], false);

    let listing = mcp.ok("phux_ls", json!({}));
    assert_eq!(listing["sessions"][0]["name"], "work");
}

#[test]
fn failures_are_error_results_carrying_the_error_document() {
    let server = TestServer::start();
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    let missing = mcp.call("phux_snapshot", json!({"target": "@999"}));
    assert_eq!(missing["isError"], true);
    let doc = text_document(&missing);
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["error"]["code"], "no_such_target");
    assert_eq!(doc["exit_code"], 1);
    assert!(!doc["remedy"].as_str().unwrap().is_empty());
    assert_eq!(missing["structuredContent"], doc);

    // A run that gives up is run_timed_out with run's 125.
    let pane = server.plain_shell("slow", "bash");
    let gave_up = mcp.err(
        "phux_run",
        json!({"target": pane, "command": "sleep 30", "timeout_secs": 1}),
    );
    assert_eq!(gave_up["error"]["code"], "run_timed_out");
    assert_eq!(gave_up["exit_code"], 125);

    // No server at the adapter's socket.
    let elsewhere = server.dir.path().join("nobody.sock");
    let (mut nowhere, _) = McpProcess::initialized(&elsewhere, NEWEST);
    let none = nowhere.err("phux_ls", json!({}));
    assert_eq!(none["error"]["code"], "no_server");
    // status is no error then: running false.
    let status = nowhere.ok("phux_status", json!({}));
    assert_eq!(status["running"], false);
}

#[test]
fn arguments_are_held_to_the_schema_and_its_limits() {
    let server = TestServer::start();
    let pane = server.plain_shell("limits", "bash");
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    let refused = |mcp: &mut McpProcess, name: &str, args: Value, says: &str| {
        let doc = mcp.err(name, args);
        assert_eq!(doc["error"]["code"], "invalid_argument", "{doc}");
        assert_eq!(doc["exit_code"], 2);
        let message = doc["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{message:?} should say {says:?}");
    };
    let long = "x".repeat(4097);
    refused(
        &mut mcp,
        "phux_paste",
        json!({"target": pane, "text": long}),
        "4097 bytes",
    );
    let fits = "y".repeat(4096);
    mcp.ok("phux_paste", json!({"target": pane, "text": fits}));
    let keys: Vec<&str> = vec!["a"; 65];
    refused(
        &mut mcp,
        "phux_send_keys",
        json!({"target": pane, "keys": keys}),
        "65 items",
    );
    refused(
        &mut mcp,
        "phux_snapshot",
        json!({"target": pane, "colour": true}),
        "unknown argument colour",
    );
    refused(
        &mut mcp,
        "phux_send_keys",
        json!({"target": pane}),
        "keys is required",
    );
    refused(
        &mut mcp,
        "phux_run",
        json!({"target": pane, "command": "true", "timeout_secs": 0}),
        "between 1 and 3600",
    );
    refused(
        &mut mcp,
        "phux_snapshot",
        // (An integer is a pane id, `@5`; a boolean is nothing.)
        json!({"target": true}),
        "must be a string",
    );
    refused(
        &mut mcp,
        "phux_signal",
        json!({"target": pane, "signal": "hup"}),
        "one of",
    );

    // A result over 1 MiB is refused, not cut: a wide pane with a long history.
    let pane = server.plain_shell("big", "bash");
    mcp.ok(
        "phux_resize",
        json!({"target": pane, "cols": 1000, "rows": 50}),
    );
    let printing = "for i in $(seq 1500); do printf '%0999d\\n' $i; done; echo done-printing";
    mcp.ok(
        "phux_send_keys",
        json!({"target": pane, "keys": [printing, "Enter"]}),
    );
    let waited = mcp.ok(
        "phux_wait",
        json!({"target": pane, "regex": "^done-printing$", "timeout_secs": 20}),
    );
    assert_eq!(waited["outcome"], "met", "{:?}", &waited["lines"]);
    let big = mcp.err("phux_snapshot", json!({"target": pane, "scrollback": true}));
    assert_eq!(big["error"]["code"], "output_too_large", "{big}");
    let small = mcp.ok("phux_snapshot", json!({"target": pane, "tail": 10}));
    assert!(small["lines"].is_array());
}

#[test]
fn destructive_tools_need_confirm_true() {
    let server = TestServer::start();
    let pane = server.plain_shell("doomed", "bash");
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    for args in [
        json!({"target": pane}),
        json!({"target": pane, "confirm": false}),
    ] {
        let refused = mcp.err("phux_kill", args);
        assert_eq!(
            refused["error"]["code"], "confirmation_required",
            "{refused}"
        );
        assert_eq!(refused["exit_code"], 2);
    }
    let refused = mcp.err("phux_signal", json!({"target": pane, "signal": "kill"}));
    assert_eq!(refused["error"]["code"], "confirmation_required");
    let refused = mcp.err("phux_detach", json!({}));
    assert_eq!(refused["error"]["code"], "confirmation_required");
    // Nothing happened: the pane is still there.
    mcp.ok("phux_snapshot", json!({"target": pane}));
    // freeze and resume stop nothing for good: no confirm needed.
    mcp.ok("phux_signal", json!({"target": pane, "signal": "freeze"}));
    mcp.ok("phux_signal", json!({"target": pane, "signal": "resume"}));

    let killed = mcp.ok("phux_kill", json!({"target": pane, "confirm": true}));
    assert_eq!(
        killed["killed"]["panes"].as_array().unwrap().len(),
        1,
        "{killed}"
    );
    wait_until("the pane is gone", Duration::from_secs(10), || {
        mcp.call("phux_snapshot", json!({"target": pane}))["isError"] == true
    });
}

#[test]
fn a_cancelled_wait_stops_at_once_and_is_never_answered() {
    let server = TestServer::start();
    let pane = server.plain_shell("waiting", "bash");
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    // Counted once the earlier calls' connections are gone on the server's side too.
    server.wait_until_alone();
    let before = clients(&server);
    let id = mcp.send(
        "tools/call",
        json!({"name": "phux_wait", "arguments": {"target": pane, "until": "never-shown", "timeout_secs": 600}}),
    );
    // The wait holds its connections while it runs...
    wait_until("the wait is under way", Duration::from_secs(10), || {
        clients(&server) > before
    });
    let cancelled = Instant::now();
    mcp.notify(
        "notifications/cancelled",
        json!({"requestId": id, "reason": "the test moved on"}),
    );
    // ...and lets them go as soon as it is cancelled, not at its 600 s timeout.
    wait_until(
        "the wait let go of the server",
        Duration::from_secs(5),
        || clients(&server) <= before,
    );
    assert!(cancelled.elapsed() < Duration::from_secs(5));
    // Never answered; the server goes on serving.
    let ping = mcp.send("ping", json!({}));
    let reply = mcp.reply(ping, Duration::from_secs(10));
    assert_eq!(reply["result"], json!({}));
    assert!(
        mcp.next_message(Duration::from_millis(500)).is_none(),
        "a cancelled call was answered"
    );
    // A later wait on the same pane still works.
    mcp.ok(
        "phux_send_keys",
        json!({"target": pane, "keys": ["echo after-cancel", "Enter"]}),
    );
    let waited = mcp.ok(
        "phux_wait",
        json!({"target": pane, "until": "after-cancel", "timeout_secs": 10}),
    );
    assert_eq!(waited["outcome"], "met");
}

/// A client may write its last request and close its input while it still reads: the call
/// in flight runs to its own end and is answered with what it found, then the adapter exits.
#[test]
fn closing_stdin_ends_the_adapter_after_answering_what_is_in_flight() {
    let server = TestServer::start();
    let pane = server.plain_shell("closing", "bash");
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    let id = mcp.send(
        "tools/call",
        json!({"name": "phux_wait", "arguments": {"target": pane, "until": "never-shown", "timeout_secs": 1}}),
    );
    mcp.close();
    let reply = mcp.reply(id, Duration::from_secs(10));
    // Its own timeout passed: the answer says so, truly.
    assert_eq!(text_document(&reply["result"])["outcome"], "timed_out");
    let start = Instant::now();
    while mcp.child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "phux mcp did not exit"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_command_is_recorded_to_a_cast_and_played_back_in_a_pane() {
    let server = TestServer::start();
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    let cast = server.dir.path().join("hello.cast");
    let recorded = mcp.ok(
        "phux_rec",
        json!({
            "out": cast,
            "duration_secs": 10,
            "command": ["sh", "-c", "echo recorded-by-mcp; sleep 0.2"],
        }),
    );
    assert_eq!(recorded["format"], "cast", "{recorded}");
    assert_eq!(recorded["exit_status"], 0);
    assert!(std::fs::read_to_string(&cast)
        .unwrap()
        .contains("recorded-by-mcp"));
    // The verb's own checks hold: an existing file is refused without overwrite.
    let again = mcp.err(
        "phux_rec",
        json!({"out": cast, "duration_secs": 1, "command": ["true"]}),
    );
    assert_eq!(again["error"]["code"], "output_exists");

    let pane = server.plain_shell("stage", "sh");
    let played = mcp.ok("phux_play", json!({"file": cast, "target": pane}));
    let player = format!("@{}", played["terminal_id"]);
    assert_ne!(player, pane);
    let waited = mcp.ok(
        "phux_wait",
        json!({"target": player, "until": "recorded-by-mcp", "timeout_secs": 10}),
    );
    assert_eq!(waited["outcome"], "met");
}

#[test]
fn a_cancelled_run_stops_waiting_and_the_command_goes_on() {
    let server = TestServer::start();
    let pane = server.plain_shell("running", "bash");
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    // Counted once the earlier calls' connections are gone on the server's side too.
    server.wait_until_alone();
    let before = clients(&server);
    let id = mcp.send(
        "tools/call",
        json!({"name": "phux_run", "arguments": {"target": pane, "command": "sleep 600"}}),
    );
    wait_until("the run is under way", Duration::from_secs(10), || {
        clients(&server) > before
    });
    mcp.notify("notifications/cancelled", json!({"requestId": id}));
    wait_until(
        "the run let go of the server",
        Duration::from_secs(5),
        || clients(&server) <= before,
    );
    assert!(
        mcp.next_message(Duration::from_millis(500)).is_none(),
        "a cancelled call was answered"
    );
    // Like Ctrl-C on `phux run`: the command itself goes on until someone stops it.
    let busy = mcp.err("phux_run", json!({"target": pane, "command": "true"}));
    assert_eq!(busy["error"]["code"], "target_not_shell", "{busy}");
    mcp.ok(
        "phux_signal",
        json!({"target": pane, "signal": "interrupt", "confirm": true}),
    );
}

/// `phux_send_keys` with `wait_until` types and waits in one call (issue 54), as `send-keys
/// --wait-until` does: the document is phux_wait's, the delivery under `sent`, and the line
/// matched is the command's output, never its echo.
#[test]
fn send_keys_waits_in_the_same_call() {
    let server = TestServer::start();
    let pane = server.plain_shell("p", "sh");
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    let doc = mcp.ok(
        "phux_send_keys",
        json!({"target": pane, "keys": ["echo ONE-$((40+2))", "Enter"],
               "wait_until": "ONE-42", "timeout_secs": 30}),
    );
    assert_eq!(doc["outcome"], "met", "{doc}");
    assert_eq!(doc["match"]["text"], "ONE-42", "{doc}");
    assert_eq!(doc["sent"]["delivery"], "ok", "{doc}");
    let doc = mcp.ok(
        "phux_send_keys",
        json!({"target": pane, "keys": ["true", "Enter"], "wait_until": "NEVER-SHOWN",
               "timeout_secs": 1}),
    );
    assert_eq!(doc["outcome"], "timed_out", "{doc}");
}
