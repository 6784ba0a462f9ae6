//! MCP for agent hosts (issue 39): a small default tool set with titles and annotations,
//! compact answers, ids a host can feed back, remedies in tool terms, background runs that
//! cannot race, and recordings named by absolute paths.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_tests::mcp::{McpProcess, NEWEST};
use phux_tests::TestServer;
use serde_json::{json, Value};

#[test]
fn the_default_set_is_the_terminal_loop_with_annotations() {
    let server = TestServer::start();
    let (mut core, _) = McpProcess::with_tools(&server.socket, None, NEWEST);
    let listed = core.request("tools/list", json!({}));
    let tools = listed["tools"].as_array().unwrap();
    assert!(tools.len() <= 15, "{} tools by default", tools.len());
    let bytes = listed.to_string().len();
    let (mut all, _) = McpProcess::with_tools(&server.socket, Some("all"), NEWEST);
    let everything = all.request("tools/list", json!({}));
    let all_bytes = everything.to_string().len();
    assert!(bytes * 2 < all_bytes, "core {bytes} bytes, all {all_bytes}");
    for tool in tools {
        assert!(tool["title"].is_string(), "{tool}");
        let annotations = &tool["annotations"];
        for hint in [
            "readOnlyHint",
            "destructiveHint",
            "idempotentHint",
            "openWorldHint",
        ] {
            assert!(annotations[hint].is_boolean(), "{hint}: {tool}");
        }
        assert_eq!(tool["outputSchema"]["type"], "object", "{tool}");
    }
    let named = |name: &str| tools.iter().find(|t| t["name"] == name).cloned().unwrap();
    assert_eq!(named("phux_snapshot")["annotations"]["readOnlyHint"], true);
    assert_eq!(named("phux_kill")["annotations"]["destructiveHint"], true);
    // A tool of another group is not served until its group is listed, and the error says how.
    let reply = core.exchange(
        "tools/call",
        json!({"name": "phux_doctor", "arguments": {}}),
    );
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--tools core,workspace"),
        "{reply}"
    );
}

#[test]
fn ids_feed_back_answers_are_compact_and_remedies_name_tools() {
    let server = TestServer::start();
    let (mut mcp, _) = McpProcess::with_tools(&server.socket, None, NEWEST);
    let created = mcp.call("phux_new", json!({"name": "host"}));
    let text = created["content"][0]["text"].as_str().unwrap();
    assert!(!text.contains('\n'), "compact JSON: {text}");
    let document: Value = serde_json::from_str(text).unwrap();
    let id = document["terminal_id"].as_u64().unwrap();
    assert_eq!(document["target"], format!("@{id}"), "{document}");
    // The integer is a target too.
    let screen = mcp.ok("phux_snapshot", json!({"target": id}));
    assert_eq!(screen["pane"], id);
    // phux_ls says which session holds each pane.
    let listed = mcp.ok("phux_ls", json!({}));
    assert_eq!(listed["panes"][0]["session"], "host", "{listed}");
    assert_eq!(listed["panes"][0]["target"], format!("@{id}"));
    // A remedy names tools and arguments, not verbs and flags.
    let missing = mcp.err("phux_snapshot", json!({"target": "@999"}));
    let remedy = missing["remedy"].as_str().unwrap();
    assert!(!remedy.contains("phux ls"), "{remedy}");
    assert!(remedy.contains("phux_ls"), "{remedy}");
}

#[test]
fn a_background_run_is_typed_before_its_answer_and_collected_with_its_exit_code() {
    let server = TestServer::start();
    let pane = server.marked_bash("jobs");
    let (mut mcp, _) = McpProcess::with_tools(&server.socket, None, NEWEST);
    let started = mcp.ok(
        "phux_run",
        json!({"target": pane, "command": "sleep 1; echo JOB-$((6*7)); (exit 3)", "background": true}),
    );
    assert_eq!(started["state"], "running", "{started}");
    let job = started["job"].as_str().unwrap().to_owned();
    // The run holds the pane when the answer comes: a second run is refused at once, and the
    // typed line (in the PTY already) is echoed.
    let busy = mcp.err("phux_run", json!({"target": pane, "command": "true"}));
    assert_eq!(busy["error"]["code"], "target_busy", "{busy}");
    server.wait_for_text(&pane, "JOB-$((6*7))");
    let done = mcp.ok("phux_job", json!({"job": job, "wait_secs": 60}));
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["result"]["exit_code"], 3, "{done}");
    assert_eq!(done["result"]["output"], "JOB-42", "{done}");
}

#[test]
fn a_past_only_recording_needs_no_duration_and_names_an_absolute_path() {
    let server = TestServer::start();
    let pane = server.plain_shell("rec", "sh");
    server.send_keys(&pane, &["echo recorded-past", "Enter"]);
    server.wait_for_text(&pane, "recorded-past");
    let (mut mcp, _) = McpProcess::with_tools(&server.socket, None, NEWEST);
    let relative = format!("past-{}.cast", std::process::id());
    let recorded = mcp.ok(
        "phux_rec",
        json!({"target": pane, "since": "60s", "out": relative, "overwrite": true}),
    );
    let path = recorded["path"].as_str().unwrap();
    assert!(std::path::Path::new(path).is_absolute(), "{recorded}");
    let cast = std::fs::read_to_string(path).unwrap();
    std::fs::remove_file(path).unwrap();
    assert!(cast.contains("recorded-past"));
    let neither = mcp.err("phux_rec", json!({"target": pane, "out": relative}));
    assert_eq!(neither["error"]["code"], "invalid_argument", "{neither}");
}

#[test]
fn a_watch_resumes_from_its_cursor_without_losing_an_event() {
    let server = TestServer::start();
    let pane = server.plain_shell("events", "sh");
    let (mut mcp, _) = McpProcess::with_tools(&server.socket, None, NEWEST);
    let first = mcp.ok("phux_watch", json!({"target": pane, "timeout_secs": 0.2}));
    let cursor = first["cursor"].as_u64().expect("a cursor");
    // Between two calls (nobody watching), the pane asks and runs a command.
    let asked = server.run(&["ask", &pane, "Ship it?"]);
    assert!(asked.status.success());
    server.send_keys(&pane, &["echo between-calls", "Enter"]);
    server.wait_for_text(&pane, "between-calls");
    let resumed = mcp.ok(
        "phux_watch",
        json!({"target": pane, "after": cursor, "until": ["asked"], "timeout_secs": 5}),
    );
    assert_eq!(resumed["ended"], "until", "{resumed}");
    let asks = |batch: &Value| {
        batch["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["event"] == "asked")
            .count()
    };
    assert_eq!(asks(&resumed), 1, "{resumed}");
    // From the new cursor, the ask is not reported again.
    let next = mcp.ok(
        "phux_watch",
        json!({"target": pane, "after": resumed["cursor"], "timeout_secs": 0.5}),
    );
    assert_eq!(asks(&next), 0, "{next}");
}
