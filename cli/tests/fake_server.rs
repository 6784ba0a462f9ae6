//! Each verb against a fake server: pins the requests it sends (what the real server must
//! accept), what it does with the answers, and its exit codes.

#![allow(clippy::expect_used, clippy::unwrap_used)] // test helpers fail loudly by design

mod support;

use serde_json::{json, Value};
use support::{error_doc, phux, state, stderr, stdout, Answer, FakeServer};

fn handler(request: &Value) -> Answer {
    let kind = request["type"].as_str().unwrap_or_default();
    match kind {
        "get_state" | "get_fleet" => Ok(state()),
        "status" => Ok(
            json!({"pid": 4242, "socket": "/run/fake.sock", "since_unix_secs": 1700000000,
            "protocol": {"major": 1, "minor": 0}, "clients": 2, "log": "/var/log/phux/server.log"}),
        ),
        "new_session" if request["name"] == "work" => {
            Err(("invalid_selector", "session work already exists".into()))
        }
        "new_session" => Ok(json!({"session": request["name"].as_str().unwrap_or("0"),
            "session_id": 3, "pane": 9})),
        "spawn" => Ok(json!({"pane": 10, "session": "work"})),
        "rename_session" if request["from"] == "nope" => {
            Err(("no_such_target", "no such session: nope".into()))
        }
        // Something else owns the width past 100 columns.
        "resize" => Ok(json!({"cols": request["cols"].as_u64().map(|c| c.min(100)),
            "rows": request["rows"]})),
        "tags_get" | "tags_add" | "tags_remove" => {
            let rows: Vec<Value> = request["panes"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| json!({"pane": p, "tags": if kind == "tags_remove" { json!([]) } else { json!(["build", "ci"]) }}))
                .collect();
            Ok(json!({"panes": rows}))
        }
        "insert_pane" => Ok(
            json!({"schema_version": 1, "operation": "insert-pane", "session_id": 1,
            "target_terminal_id": request["target"], "new_terminal_id": request["new_pane"],
            "direction": request["split"], "ratio": request["ratio"]}),
        ),
        "move_pane" => Ok(
            json!({"schema_version": 1, "operation": "move-pane", "session_id": 2,
            "source_terminal_id": request["source"], "target_terminal_id": request["target"],
            "direction": request["split"], "ratio": request["ratio"],
            "source_session_id": 1, "cross_session": true}),
        ),
        "swap_pane" => Ok(
            json!({"schema_version": 1, "operation": "swap-pane", "session_id": 1,
            "first_terminal_id": request["first"], "second_terminal_id": request["second"]}),
        ),
        _ => Ok(json!({})),
    }
}

fn run(server: &FakeServer, args: &[&str]) -> std::process::Output {
    phux(&server.socket, args, None)
}

fn json_stdout(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}{}", stdout(out), stderr(out)))
}

#[test]
fn ls_json_is_session_list_v3() {
    let server = FakeServer::start(handler);
    let out = run(&server, &["ls", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(server.request_types(), ["get_fleet"]);
    assert_eq!(
        json_stdout(&out),
        json!({"schema_version": 3,
            "sessions": [
                {"name": "play", "windows": 1, "attached": false, "attached_clients": 0},
                {"name": "work", "windows": 2, "attached": true, "attached_clients": 1}],
            "terminals": ["@1", "@2", "@3", "@4"],
            "unreachable": []})
    );
    let out = run(&server, &["ls"]);
    assert_eq!(stdout(&out), "play: 1 window\nwork: 2 windows (attached)\n");
}

#[test]
fn status_json_combines_status_and_state() {
    let server = FakeServer::start(handler);
    let out = run(&server, &["status", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(server.request_types(), ["status", "get_fleet"]);
    assert_eq!(
        json_stdout(&out),
        json!({"schema_version": 1, "running": true, "pid": 4242, "socket": "/run/fake.sock",
            "since_unix_secs": 1700000000, "protocol": {"major": 1, "minor": 0, "patch": 0},
            "clients": 2,
            "sessions": [{"name": "work", "windows": 2, "attached_clients": 1},
                         {"name": "play", "windows": 1, "attached_clients": 0}],
            "satellite_terminals": [], "unreachable": [],
            "logs": {"server": "/var/log/phux/server.log", "client_dir": "/var/log/phux"}})
    );
}

#[test]
fn new_sends_new_session_and_prints_new_json() {
    let server = FakeServer::start(handler);
    let out = run(
        &server,
        &[
            "new", "--json", "-s", "demo", "-c", "/repo", "-e", "K=a=b", "--", "sh", "-c",
            "echo hi",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        server.last("new_session"),
        json!({"type": "new_session", "name": "demo", "cwd": "/repo", "env": [["K", "a=b"]],
            "command": ["sh", "-c", "echo hi"]})
    );
    assert_eq!(
        json_stdout(&out),
        json!({"schema_version": 1, "session": "demo", "terminal_id": 9})
    );
}

#[test]
fn new_without_json_prints_the_pane_and_sends_the_callers_cwd() {
    let server = FakeServer::start(handler);
    let out = run(&server, &["new"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "@9\n");
    let request = server.last("new_session");
    assert!(request.get("name").is_none());
    let cwd = std::env::current_dir().unwrap().display().to_string();
    assert_eq!(request["cwd"], cwd);
}

#[test]
fn new_with_a_taken_name_exits_1_whatever_the_code() {
    let server = FakeServer::start(handler);
    let out = run(&server, &["new", "--json", "-s", "work"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let doc = error_doc(&out);
    assert_eq!(doc["exit_code"], 1);
    assert_eq!(doc["remedy"], "fake remedy");
}

#[test]
fn spawn_resolves_the_target_and_prints_spawn_json() {
    let server = FakeServer::start(handler);
    let out = run(
        &server,
        &[
            "spawn", "--json", "--target", "work:0", "--split", "vertical", "--ratio", "0.3", "-e",
            "A=1", "--", "htop",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(server.request_types(), ["get_state", "spawn"]);
    // work:0 holds @1 and @2; @2 is focused.
    assert_eq!(
        server.last("spawn"),
        json!({"type": "spawn", "target": 2, "split": "vertical", "ratio": 0.3,
            "command": ["htop"], "env": [["A", "1"]]})
    );
    assert_eq!(
        json_stdout(&out),
        json!({"schema_version": 1, "terminal_id": 10, "satellite": null})
    );
}

#[test]
fn spawn_into_a_session_sends_its_name_and_without_target_sends_none() {
    let server = FakeServer::start(handler);
    let out = run(&server, &["spawn", "--target", "play"]);
    assert_eq!(stdout(&out), "@10\n");
    assert_eq!(server.last("spawn")["target"], "play");
    let out = run(&server, &["spawn"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(server.last("spawn").get("target").is_none());
    assert_eq!(
        server.request_types().last().map(String::as_str),
        Some("spawn")
    );
}

#[test]
fn kill_picks_pane_window_session_or_tag_by_selector_form() {
    let server = FakeServer::start(handler);
    for args in [["kill", "@3"], ["kill", "work:0.1"], ["kill", "#ci"]] {
        let out = run(&server, &args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    let kills: Vec<Value> = server
        .requests()
        .into_iter()
        .filter(|r| r["type"] == "kill")
        .collect();
    assert_eq!(kills[0]["panes"], json!([3]));
    assert_eq!(kills[1]["panes"], json!([2]));
    assert_eq!(kills[2]["panes"], json!([1, 3]));
    run(&server, &["kill", "work:1"]);
    assert_eq!(
        server.last("kill_window"),
        json!({"type": "kill_window", "window": 11})
    );
    run(&server, &["kill", "play"]);
    assert_eq!(
        server.last("kill_session"),
        json!({"type": "kill_session", "session": "play"})
    );
    // This server answers and runs on (it is the test's own process): `kill --server` waits
    // for its end, and says it did not come.
    std::env::set_var("PHUX_STOP_TIMEOUT", "0.2");
    let still = phux(&server.socket, &["kill", "--server"], None);
    assert_eq!(server.last("kill_server"), json!({"type": "kill_server"}));
    assert_eq!(still.status.code(), Some(1));
    let said = stderr(&still);
    assert!(
        said.contains("was told to stop, but still runs after 0.2 s"),
        "{said}"
    );
}

#[test]
fn kill_of_a_missing_target_is_exit_1() {
    let server = FakeServer::start(handler);
    let out = run(&server, &["kill", "@99"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("phux: no such target: @99"));
    assert!(!server.request_types().contains(&"kill".to_owned()));
}

#[test]
fn rename_sends_from_and_to_and_refusals_exit_2() {
    let server = FakeServer::start(handler);
    let out = run(&server, &["rename", "work", "job"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        server.last("rename_session"),
        json!({"type": "rename_session", "from": "work", "to": "job"})
    );
    let out = run(&server, &["rename", "nope", "job"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&server, &["rename", "work", "a:b"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn resize_reads_back_the_applied_size() {
    let server = FakeServer::start(handler);
    let out = run(&server, &["resize", "--json", "@3", "80x30"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        server.last("resize"),
        json!({"type": "resize", "pane": 3, "cols": 80, "rows": 30})
    );
    assert_eq!(
        json_stdout(&out),
        json!({"schema_version": 1, "terminal_id": 3, "requested": {"cols": 80, "rows": 30},
            "applied": {"cols": 80, "rows": 30}, "held": true})
    );
    // Not held: the document is still printed, and the exit code is 1.
    let out = run(&server, &["resize", "--json", "@3", "120x40"]);
    assert_eq!(out.status.code(), Some(1));
    let doc = json_stdout(&out);
    assert_eq!(doc["held"], false);
    assert_eq!(doc["applied"], json!({"cols": 100, "rows": 40}));
    let out = run(&server, &["resize", "@3", "120x40"]);
    assert_eq!(stdout(&out), "100x40\n");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn signal_sends_the_name() {
    let server = FakeServer::start(handler);
    let out = run(&server, &["signal", "@4", "interrupt"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    assert_eq!(
        server.last("signal"),
        json!({"type": "signal", "pane": 4, "signal": "interrupt"})
    );
}

#[test]
fn tag_rows_come_from_the_server() {
    let server = FakeServer::start(handler);
    let out = run(&server, &["tag", "add", "--json", "work:0", "#build", "ci"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        server.last("tags_add"),
        json!({"type": "tags_add", "panes": [1, 2], "tags": ["build", "ci"]})
    );
    assert_eq!(
        json_stdout(&out),
        json!({"schema_version": 1, "terminals": [
            {"terminal": "@1", "tags": ["build", "ci"]},
            {"terminal": "@2", "tags": ["build", "ci"]}]})
    );
    let out = run(&server, &["tag", "remove", "@3", "ci", "--json"]);
    assert_eq!(
        json_stdout(&out),
        json!({"schema_version": 1, "terminals": [{"terminal": "@3", "tags": []}]})
    );
    let out = run(&server, &["tag", "ls"]);
    assert_eq!(server.last("tags_get")["panes"], json!([1, 2, 3, 4]));
    assert_eq!(stdout(&out).lines().next(), Some("@1\tbuild ci"));
}

#[test]
fn tag_miss_is_no_such_target_exit_1() {
    let server = FakeServer::start(handler);
    let out = run(&server, &["tag", "ls", "#nothing", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(error_doc(&out)["error"]["code"], "no_such_target");
}

/// The request with its operation id taken out, after checking it is a fresh 128-bit id in hex
/// (every CLI write is acknowledged).
fn without_operation_id(mut request: serde_json::Value) -> serde_json::Value {
    let id = request["operation_id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()),
        "{request}"
    );
    request.as_object_mut().map(|o| o.remove("operation_id"));
    request
}

#[test]
fn send_keys_sends_validated_keys_for_the_server_to_plan() {
    let server = FakeServer::start(handler);
    let out = run(&server, &["send-keys", "work", "Up", "echo hi", "Enter"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        without_operation_id(server.last("input")),
        json!({"type": "input", "pane": 2, "actions": [], "keys": ["Up", "echo hi", "Enter"]})
    );
}

#[test]
fn paste_sends_text_or_stdin() {
    let server = FakeServer::start(handler);
    let out = run(&server, &["paste", "@1", "ls -la"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        without_operation_id(server.last("paste")),
        json!({"type": "paste", "pane": 1, "text": "ls -la"})
    );
    let out = phux(
        &server.socket,
        &["paste", "@1"],
        Some("def f():\n    pass\n"),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(server.last("paste")["text"], "def f():\n    pass\n");
}

#[test]
fn spatial_edits_send_pane_ids_and_print_the_servers_document() {
    let server = FakeServer::start(handler);
    let out = run(
        &server,
        &[
            "insert-pane",
            "--json",
            "@3",
            "@4",
            "--split",
            "vertical",
            "--ratio",
            "0.3",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        server.last("insert_pane"),
        json!({"type": "insert_pane", "target": 3, "new_pane": 4, "split": "vertical", "ratio": 0.3})
    );
    assert_eq!(
        json_stdout(&out),
        json!({"schema_version": 1, "operation": "insert-pane", "session_id": 1,
            "target_terminal_id": 3, "new_terminal_id": 4, "direction": "vertical", "ratio": 0.3})
    );
    let out = run(&server, &["move-pane", "--json", "@1", "play:0.0"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        server.last("move_pane"),
        json!({"type": "move_pane", "source": 1, "target": 4, "split": "horizontal", "ratio": 0.5})
    );
    assert_eq!(json_stdout(&out)["cross_session"], true);
    let out = run(&server, &["swap-pane", "@1", "@2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    assert_eq!(
        server.last("swap_pane"),
        json!({"type": "swap_pane", "first": 1, "second": 2})
    );
}

#[test]
fn spatial_preflight_refusals_are_exit_2_and_send_nothing() {
    let server = FakeServer::start(handler);
    for (args, code) in [
        (&["swap-pane", "--json", "@1", "work:0.0"][..], "same_pane"),
        (
            &["swap-pane", "--json", "work", "@4"][..],
            "selector_not_single",
        ),
        (&["insert-pane", "--json", "@1", "@99"][..], "selector_miss"),
        (
            &["move-pane", "--json", "box/@1", "@2"][..],
            "satellite_target",
        ),
    ] {
        let out = run(&server, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty());
        assert_eq!(error_doc(&out)["error"]["code"], code, "{args:?}");
    }
    assert!(server.request_types().iter().all(|t| t == "get_state"));
}

#[test]
fn server_errors_keep_their_code_and_remedy() {
    fn refuse(request: &Value) -> Answer {
        match request["type"].as_str() {
            Some("get_state") => Ok(state()),
            _ => Err((
                "input_lease_held",
                "another client holds the input lease".into(),
            )),
        }
    }
    let server = FakeServer::start(refuse);
    let out = run(&server, &["resize", "--json", "@1", "80x24"]);
    assert_eq!(out.status.code(), Some(2));
    let doc = error_doc(&out);
    assert_eq!(doc["error"]["code"], "input_lease_held");
    assert_eq!(
        doc["error"]["message"],
        "another client holds the input lease"
    );
    assert_eq!(doc["remedy"], "fake remedy");
    assert_eq!(doc["exit_code"], 2);
}

#[test]
fn a_major_version_mismatch_is_a_typed_error() {
    let server = FakeServer::start_with_major(2, handler);
    let out = run(&server, &["ls", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let doc = error_doc(&out);
    assert_eq!(doc["error"]["code"], "server_too_old");
    assert!(doc["error"]["message"]
        .as_str()
        .is_some_and(|m| m.contains("version mismatch")));
}

#[test]
fn a_server_that_hangs_up_mid_request_is_server_disconnected() {
    fn hang_up(_: &Value) -> Answer {
        // The fake server's thread dies here, closing the connection without an answer.
        panic!("hang up")
    }
    let server = FakeServer::start(hang_up);
    let out = run(&server, &["ls", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(error_doc(&out)["error"]["code"], "server_disconnected");
}
