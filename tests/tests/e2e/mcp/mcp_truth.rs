//! What `phux mcp` tells a host is true (issue 54): annotations that say which tools type into
//! or start programs, output schemas the results fit, remedies that work when followed, results
//! too large to return kept in a private file, the user's server found from a host's bare
//! environment, stale pane ids refused after a restart, and overload, disconnects and oversized
//! requests answered as the protocol says — each through the real `phux mcp` on its stdio.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};
use std::time::Duration;

use phux_tests::mcp::{text_document, McpProcess, NEWEST};
use phux_tests::{phux_bin, wait_until, TestServer};
use serde_json::{json, Value};

/// What a tool does to the world, as a host must be told it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Does {
    /// Only reads.
    Reads,
    /// Types into a pane or starts (or signals) a program.
    RunsPrograms,
    /// Changes phux's own layout, names, tags or records.
    Edits,
    /// Ends people's attached views.
    Ends,
}

/// Every tool, stated once.
#[rustfmt::skip]
const TOOLS: &[(&str, Does)] = &[
    ("phux_ls", Does::Reads), ("phux_status", Does::Reads), ("phux_snapshot", Does::Reads),
    ("phux_wait", Does::Reads), ("phux_watch", Does::Reads), ("phux_job", Does::Reads),
    ("phux_agent_show", Does::Reads), ("phux_agent_list", Does::Reads),
    ("phux_agent_explain", Does::Reads), ("phux_agent_wait", Does::Reads),
    ("phux_config_agents", Does::Reads), ("phux_doctor", Does::Reads),
    ("phux_send_keys", Does::RunsPrograms), ("phux_paste", Does::RunsPrograms),
    ("phux_run", Does::RunsPrograms), ("phux_new", Does::RunsPrograms),
    ("phux_spawn", Does::RunsPrograms), ("phux_kill", Does::RunsPrograms),
    ("phux_signal", Does::RunsPrograms), ("phux_rec", Does::RunsPrograms),
    ("phux_play", Does::RunsPrograms), ("phux_agent_send_keys", Does::RunsPrograms),
    ("phux_agent_prompt", Does::RunsPrograms), ("phux_agent_answer", Does::RunsPrograms),
    ("phux_agent_start", Does::RunsPrograms), ("phux_plugin_action", Does::RunsPrograms),
    ("phux_launch", Does::RunsPrograms), ("phux_workspace", Does::RunsPrograms),
    ("phux_ask", Does::Edits), ("phux_agent_set", Does::Edits), ("phux_agent_clear", Does::Edits),
    ("phux_resize", Does::Edits), ("phux_rename", Does::Edits), ("phux_tag", Does::Edits),
    ("phux_insert_pane", Does::Edits), ("phux_move_pane", Does::Edits),
    ("phux_swap_pane", Does::Edits),
    ("phux_detach", Does::Ends),
];

fn listed_tools(mcp: &mut McpProcess) -> Vec<Value> {
    mcp.request("tools/list", json!({}))["tools"]
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn every_tool_is_annotated_as_what_it_does_and_the_list_is_pinned() {
    let server = TestServer::start();
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    let tools = listed_tools(&mut mcp);
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    let stated: Vec<&str> = TOOLS.iter().map(|(n, _)| *n).collect();
    let mut sorted_names = names.clone();
    sorted_names.sort_unstable();
    let mut sorted_stated = stated.clone();
    sorted_stated.sort_unstable();
    assert_eq!(
        sorted_names, sorted_stated,
        "the table must state every tool"
    );
    for tool in &tools {
        let name = tool["name"].as_str().unwrap();
        let does = TOOLS.iter().find(|(n, _)| *n == name).unwrap().1;
        let hints = &tool["annotations"];
        let (read_only, destructive, open_world) = match does {
            Does::Reads => (true, false, false),
            Does::RunsPrograms => (false, true, true),
            Does::Edits => (false, false, false),
            Does::Ends => (false, true, false),
        };
        assert_eq!(hints["readOnlyHint"], read_only, "{name}: {hints}");
        assert_eq!(hints["destructiveHint"], destructive, "{name}: {hints}");
        assert_eq!(hints["openWorldHint"], open_world, "{name}: {hints}");
        assert!(hints["idempotentHint"].is_boolean(), "{name}");
        // A real output schema: the document's fields, not a bare object.
        let output = &tool["outputSchema"];
        assert_eq!(output["type"], "object", "{name}");
        assert!(
            output["properties"]["schema_version"].is_object(),
            "{name}: {output}"
        );
        println!(
            "{name:22} {:5} bytes  readOnly={read_only:5} destructive={destructive:5} openWorld={open_world}",
            tool.to_string().len()
        );
    }
    // Enums and defaults a host can read.
    let schema = |name: &str| {
        tools
            .iter()
            .find(|t| t["name"] == name)
            .unwrap()
            .get("inputSchema")
            .cloned()
            .unwrap()
    };
    let until = &schema("phux_watch")["properties"]["until"]["items"]["enum"];
    for event in [
        "command_finished",
        "bell",
        "pane_closed",
        "asked",
        "agent_state",
    ] {
        assert!(until.as_array().unwrap().contains(&json!(event)), "{until}");
    }
    assert_eq!(
        schema("phux_wait")["properties"]["timeout_secs"]["default"],
        30
    );
    assert_eq!(
        schema("phux_run")["properties"]["timeout_secs"]["default"],
        600
    );
    assert_eq!(
        schema("phux_spawn")["properties"]["split"]["default"],
        "horizontal"
    );
    assert_eq!(
        schema("phux_agent_wait")["properties"]["until"]["default"],
        json!(["idle", "blocked", "done"])
    );
    let pretty = serde_json::to_string_pretty(&Value::Array(tools.clone())).unwrap();
    println!(
        "tools/list (all): {} tools, {} bytes compact",
        tools.len(),
        Value::Array(tools.clone()).to_string().len()
    );
    phux_tests::golden("mcp/tools.json", &format!("{pretty}\n"));
}

/// Each result a walk of real calls gets fits the output schema its tool lists.
#[test]
fn results_fit_the_output_schemas_listed() {
    let server = TestServer::start();
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    let tools = listed_tools(&mut mcp);
    let fits = |mcp: &mut McpProcess, name: &str, arguments: Value| -> Value {
        let result = mcp.call(name, arguments);
        assert_eq!(result["isError"], false, "{name}: {result}");
        let document = result["structuredContent"].clone();
        let schema = &tools.iter().find(|t| t["name"] == name).unwrap()["outputSchema"];
        phux_cli::mcp::schema::validate(schema, &document, "")
            .unwrap_or_else(|e| panic!("{name}: {e}: {document}"));
        document
    };
    fits(&mut mcp, "phux_status", json!({}));
    let created = fits(
        &mut mcp,
        "phux_new",
        json!({"name": "fit", "command": ["env", "PS1=$ ", "bash", "--norc", "--noprofile", "-i"]}),
    );
    let pane = created["target"].as_str().unwrap().to_owned();
    fits(&mut mcp, "phux_ls", json!({}));
    fits(
        &mut mcp,
        "phux_wait",
        json!({"target": pane, "until": "$", "timeout_secs": 10}),
    );
    fits(
        &mut mcp,
        "phux_run",
        json!({"target": pane, "command": "echo fit"}),
    );
    fits(
        &mut mcp,
        "phux_send_keys",
        json!({"target": pane, "keys": ["true", "Enter"]}),
    );
    fits(&mut mcp, "phux_paste", json!({"target": pane, "text": "x"}));
    fits(
        &mut mcp,
        "phux_snapshot",
        json!({"target": pane, "tail": 5}),
    );
    fits(
        &mut mcp,
        "phux_watch",
        json!({"target": pane, "timeout_secs": 0.2}),
    );
    fits(
        &mut mcp,
        "phux_resize",
        json!({"target": pane, "cols": 90, "rows": 30}),
    );
    fits(&mut mcp, "phux_tag", json!({"action": "ls"}));
    fits(&mut mcp, "phux_agent_list", json!({}));
    fits(&mut mcp, "phux_doctor", json!({}));
    let spawned = fits(&mut mcp, "phux_spawn", json!({"target": pane}));
    fits(
        &mut mcp,
        "phux_signal",
        json!({"target": spawned["target"], "signal": "freeze"}),
    );
    fits(
        &mut mcp,
        "phux_kill",
        json!({"target": spawned["target"], "confirm": true}),
    );
    let timed_out = fits(
        &mut mcp,
        "phux_wait",
        json!({"target": pane, "until": "never-shown", "timeout_secs": 0.2}),
    );
    assert_eq!(timed_out["outcome"], "timed_out");
}

/// The remedies of a busy pane — wait for it, or interrupt it — are calls that work as given.
#[test]
fn the_remedies_of_a_busy_pane_work_when_followed() {
    let server = TestServer::start();
    let pane = server.plain_shell("busy", "bash");
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    // A background run holds the pane (answered once `sleep` is typed).
    let job = mcp.ok(
        "phux_run",
        json!({"target": pane, "command": "sleep 600", "background": true}),
    );
    assert_eq!(job["state"], "running");
    // The shell is running `sleep`: a run is refused, with remedies naming tools.
    let refused = mcp.err("phux_run", json!({"target": pane, "command": "true"}));
    assert!(
        refused["error"]["code"] == "target_not_shell" || refused["error"]["code"] == "target_busy",
        "{refused}"
    );
    let remedy = refused["remedy"].as_str().unwrap().to_owned();
    println!("remedy: {remedy}");
    let calls = tool_calls(&remedy);
    assert!(
        calls
            .iter()
            .any(|(tool, arguments)| tool == "phux_wait" && arguments["target"] == json!(pane)),
        "{remedy}: {calls:?}"
    );
    for (tool, mut arguments) in calls {
        if tool == "phux_signal" {
            arguments["confirm"] = json!(true);
        }
        if tool == "phux_wait" {
            arguments["timeout_secs"] = json!(1);
        }
        if tool == "phux_send_keys" && arguments.get("keys").is_none() {
            // The remedy elides what to type (`...`): that part is the caller's.
            arguments["keys"] = json!(["Enter"]);
        }
        // Followed as said: every call is accepted (no invalid_argument, no unknown tool).
        let result = mcp.call(&tool, arguments.clone());
        let document = text_document(&result);
        assert_ne!(
            document["error"]["code"], "invalid_argument",
            "{tool} {arguments}: {document}"
        );
        println!("followed {tool} {arguments}: isError {}", result["isError"]);
    }
    // The remedy of a run that gave up names the interrupt: followed, it frees the pane.
    let other = server.plain_shell("slow", "bash");
    let gave_up = mcp.err(
        "phux_run",
        json!({"target": other, "command": "sleep 600", "timeout_secs": 1}),
    );
    assert_eq!(gave_up["error"]["code"], "run_timed_out", "{gave_up}");
    let remedy = gave_up["remedy"].as_str().unwrap().to_owned();
    println!("remedy: {remedy}");
    let (tool, mut arguments) = tool_calls(&remedy)
        .into_iter()
        .find(|(tool, _)| tool == "phux_signal")
        .unwrap_or_else(|| panic!("no phux_signal in {remedy}"));
    arguments["confirm"] = json!(true);
    mcp.ok(&tool, arguments);
    wait_until("the pane is free", Duration::from_secs(10), || {
        mcp.call("phux_run", json!({"target": other, "command": "echo free"}))["isError"] == false
    });
}

/// `` `phux_x` with a: 1, b: "c" `` in a remedy, as (tool, arguments).
fn tool_calls(remedy: &str) -> Vec<(String, Value)> {
    let mut calls = Vec::new();
    for (i, piece) in remedy.split('`').enumerate() {
        if i % 2 == 0 || !piece.starts_with("phux_") {
            continue;
        }
        let after = remedy.split('`').nth(i + 1).unwrap_or_default();
        let mut arguments = serde_json::Map::new();
        if let Some(list) = after.strip_prefix(" with ") {
            let list = list.split(')').next().unwrap_or(list);
            for pair in list.split(", ") {
                let Some((key, value)) = pair.split_once(": ") else {
                    break;
                };
                // The value is the JSON that starts here; prose may follow it.
                match serde_json::Deserializer::from_str(value)
                    .into_iter::<Value>()
                    .next()
                {
                    Some(Ok(value)) => arguments.insert(key.trim().to_owned(), value),
                    _ => break,
                };
            }
        }
        calls.push((piece.to_owned(), Value::Object(arguments)));
    }
    calls
}

#[test]
fn output_too_large_keeps_the_output_in_a_private_file() {
    let server = TestServer::start();
    let state = server.dir.path().join("state");
    let mut command = Command::new(phux_bin());
    command.env("XDG_STATE_HOME", &state);
    let (mut mcp, _) = McpProcess::with_command(command, &server.socket, NEWEST);
    let pane = server.plain_shell("big", "bash");
    // Wide enough that no line wraps: the run reads its output from the pane's history.
    mcp.ok(
        "phux_resize",
        json!({"target": pane, "cols": 1000, "rows": 50}),
    );
    // 1200 lines of 1000 characters: 1.2 MB of output, from a command that has run.
    let ran = mcp.ok(
        "phux_run",
        json!({"target": pane, "command": "for i in $(seq 1200); do printf '%0999d\\n' $i; done"}),
    );
    assert_eq!(ran["exit_code"], 0, "the exit code reaches the caller");
    assert_eq!(ran["truncated"], true);
    let file = ran["output_file"].as_str().unwrap();
    let kept = std::fs::read_to_string(file).unwrap();
    assert_eq!(kept.lines().count(), 1200, "the whole output is kept");
    assert!(kept.lines().last().unwrap().ends_with("1200"));
    assert!(ran["output"]
        .as_str()
        .unwrap()
        .ends_with(&format!("{:0999}", 1200)));
    let mode = std::fs::metadata(file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{file}");
    let dir_mode = std::fs::metadata(std::path::Path::new(file).parent().unwrap())
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(dir_mode, 0o700);
    assert!(file.starts_with(state.to_str().unwrap()), "{file}");

    // A read too large: the error names the file holding the whole result.
    mcp.ok(
        "phux_resize",
        json!({"target": pane, "cols": 1000, "rows": 50}),
    );
    let big = mcp.err("phux_snapshot", json!({"target": pane, "scrollback": true}));
    assert_eq!(big["error"]["code"], "output_too_large", "{big}");
    let message = big["error"]["message"].as_str().unwrap();
    let path = message.rsplit(' ').next().unwrap();
    let whole: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(whole["schema_version"], 3, "the whole ScreenState is kept");
    assert_eq!(
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777,
        0o600
    );
    assert!(big["remedy"].as_str().unwrap().contains(path), "{big}");
    println!("run kept in {file}; snapshot: {message}");
}

/// A host starts `phux mcp` with a bare environment; `--socket` in its config names the
/// user's server, and the adapter talks to it.
#[test]
fn a_host_with_a_bare_environment_reaches_the_server_named_by_socket() {
    let server = TestServer::start();
    let mut command = Command::new(phux_bin());
    command
        .env_clear()
        .env("HOME", server.dir.path())
        .env("PATH", "/usr/bin:/bin");
    let (mut mcp, _) = McpProcess::with_command(command, &server.socket, NEWEST);
    let status = mcp.ok("phux_status", json!({}));
    assert_eq!(status["running"], true, "{status}");
    assert_eq!(status["socket"], server.socket.to_str().unwrap());
}

/// A server that starts afresh numbers its panes from @1 again: an id held from before is
/// refused until the panes are listed again; a takeover of kept panes keeps the ids valid.
#[test]
fn a_pane_id_from_before_a_server_restart_is_refused() {
    let server = TestServer::start();
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    let old = mcp.ok("phux_new", json!({"name": "before", "command": ["cat"]}));
    let pane = old["target"].as_str().unwrap().to_owned();
    mcp.ok("phux_snapshot", json!({"target": pane}));

    // The server stops with its panes; another starts at the same socket, with a new session.
    assert!(server.run(&["kill", "--server"]).status.success());
    let mut second = Command::new(phux_bin())
        .args(["server", "--no-seed", "--socket"])
        .arg(&server.socket)
        .env("PHUX_CONFIG", server.config_path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_until("the second server answers", Duration::from_secs(15), || {
        server.run(&["status"]).status.success()
    });
    let other = server.new_session("after", &["cat"]);
    assert_eq!(
        other, pane,
        "the new server gave the same id to another pane"
    );

    let stale = mcp.err("phux_snapshot", json!({"target": pane}));
    assert_eq!(stale["error"]["code"], "server_restarted", "{stale}");
    println!("stale {pane}: {}", stale["error"]["message"]);
    assert!(stale["remedy"].as_str().unwrap().contains("`phux_ls`"));
    let typed = mcp.err("phux_send_keys", json!({"target": pane, "keys": ["x"]}));
    assert_eq!(typed["error"]["code"], "server_restarted");
    // Listing the panes again takes the new server's ids.
    let listed = mcp.ok("phux_ls", json!({}));
    assert_eq!(listed["panes"][0]["session"], "after");
    let read = mcp.ok("phux_snapshot", json!({"target": pane}));
    assert_eq!(
        read["pane"],
        json!(pane.trim_start_matches('@').parse::<u64>().unwrap())
    );
    assert!(server.run(&["kill", "--server"]).status.success());
    let _ = second.wait();
}

#[test]
fn a_crash_whose_panes_are_taken_over_keeps_the_ids_valid() {
    let mut server = TestServer::start();
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    let pane = server.plain_shell("kept", "bash");
    mcp.ok("phux_snapshot", json!({"target": pane}));
    // Give the server a moment's state file: it is what the next server reads the ids from.
    wait_until("the state file is written", Duration::from_secs(10), || {
        let mut state = server.socket.as_os_str().to_os_string();
        state.push(".state");
        std::fs::read_to_string(state).is_ok_and(|text| text.contains("\"panes\":[{"))
    });
    server.crash();
    // The next call's connection starts a server that takes the panes over: same pane, same
    // instance, no refusal.
    let read = mcp.ok("phux_snapshot", json!({"target": pane}));
    assert_eq!(read["schema_version"], 3);
    // And once the new server answers, it is the instance the id came from.
    let again = mcp.ok("phux_snapshot", json!({"target": pane}));
    assert_eq!(again["pane"], read["pane"]);
}

/// 100 waits at once: the adapter runs 64; every other one is a tool result with a typed code.
#[test]
fn calls_past_the_limit_are_tool_results_with_a_typed_code() {
    let server = TestServer::start();
    let pane = server.plain_shell("crowd", "bash");
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    let ids: Vec<u64> = (0..100)
        .map(|_| {
            mcp.send(
                "tools/call",
                json!({"name": "phux_wait", "arguments": {"target": pane, "until": "never-shown", "timeout_secs": 3}}),
            )
        })
        .collect();
    let (mut busy, mut waited, mut rpc_errors) = (0, 0, 0);
    for id in ids {
        let reply = mcp.reply(id, Duration::from_secs(60));
        if reply.get("error").is_some() {
            rpc_errors += 1;
            continue;
        }
        let document = text_document(&reply["result"]);
        if reply["result"]["isError"] == true {
            assert_eq!(document["error"]["code"], "too_many_calls", "{document}");
            busy += 1;
        } else {
            assert_eq!(document["outcome"], "timed_out");
            waited += 1;
        }
    }
    println!("100 concurrent waits: {waited} waited, {busy} too_many_calls, {rpc_errors} JSON-RPC errors");
    assert_eq!(rpc_errors, 0);
    assert!(busy > 0 && waited >= 64, "{waited} waited, {busy} busy");
}

/// An input line past the 16 MiB limit is answered under its own id, and serving goes on.
#[test]
fn an_oversized_request_is_answered_under_its_own_id() {
    let server = TestServer::start();
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    let text = "y".repeat(17 << 20);
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":4242,"method":"tools/call","params":{{"name":"phux_paste","arguments":{{"target":"@1","text":"{text}"}}}}}}"#
    );
    mcp.write_line(&line);
    let reply = mcp.reply(4242, Duration::from_secs(60));
    assert_eq!(reply["error"]["code"], -32600, "{reply}");
    assert!(reply["error"]["message"]
        .as_str()
        .unwrap()
        .contains("16 MiB"));
    // The id at the end (the message's last member) is read too.
    let line = format!(
        r#"{{"jsonrpc":"2.0","method":"ping","params":{{"pad":"{text}"}},"id":"tail-id"}}"#
    );
    mcp.write_line(&line);
    let reply = mcp.next_message(Duration::from_secs(60)).unwrap();
    assert_eq!(reply["id"], "tail-id", "{reply}");
    assert_eq!(mcp.request("ping", json!({})), json!({}));
}

/// A client that writes its request and closes its input, still reading, gets the true
/// answer when the command ends — not a timeout it never reached.
#[test]
fn a_client_done_writing_gets_the_real_answer_of_a_run() {
    let server = TestServer::start();
    let pane = server.plain_shell("half", "bash");
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    let id = mcp.send(
        "tools/call",
        json!({"name": "phux_run", "arguments": {"target": pane, "command": "sleep 1.5; echo finished"}}),
    );
    mcp.close();
    let reply = mcp.reply(id, Duration::from_secs(30));
    let document = text_document(&reply["result"]);
    assert_eq!(reply["result"]["isError"], false, "{document}");
    assert_eq!(document["output"], "finished");
    assert_eq!(document["exit_code"], 0);
    wait_until("phux mcp exits", Duration::from_secs(10), || {
        mcp.child.try_wait().unwrap().is_some()
    });
}

/// A client that goes away (input and output closed) stops the calls in flight: the adapter
/// lets go of the server and exits, writing to no one.
#[test]
fn a_client_that_goes_away_stops_the_calls_in_flight() {
    let server = TestServer::start();
    let pane = server.plain_shell("gone", "bash");
    server.wait_until_alone();
    let before = phux_tests::mcp::clients(&server);
    let mut child = Command::new(phux_bin())
        .args(["mcp", "--socket"])
        .arg(&server.socket)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{NEWEST}","capabilities":{{}},"clientInfo":{{"name":"t","version":"0"}}}}}}"#).unwrap();
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"phux_wait","arguments":{{"target":"{pane}","until":"never-shown","timeout_secs":600}}}}}}"#).unwrap();
    wait_until("the wait is under way", Duration::from_secs(10), || {
        phux_tests::mcp::clients(&server) > before
    });
    drop(stdin);
    drop(stdout);
    wait_until("phux mcp exits", Duration::from_secs(15), || {
        child.try_wait().unwrap().is_some()
    });
    wait_until(
        "the wait let go of the server",
        Duration::from_secs(10),
        || phux_tests::mcp::clients(&server) <= before,
    );
}
