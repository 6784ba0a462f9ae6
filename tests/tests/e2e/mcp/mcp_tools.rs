//! `phux mcp`'s tools doing what their verbs do, against a real server: the pane, session,
//! layout and agent tools, a cancelled `phux_agent_wait`, plugin actions (completed, failing,
//! timed out, cancelled), `phux_config_agents`, `phux_launch`, `phux_doctor` and
//! `phux_workspace`. The protocol itself is `mcp_protocol.rs`.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::time::{Duration, Instant};

use phux_tests::mcp::{clients, text_document, McpProcess, NEWEST};
use phux_tests::plugins::{agent_plugin, plugin_dir, plugins_table};
use phux_tests::{wait_until, TestServer};
use serde_json::{json, Value};

#[test]
fn the_pane_session_and_agent_tools_do_what_their_verbs_do() {
    let server = TestServer::start();
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    let first = server.plain_shell("main", "bash");
    let other = server.plain_shell("side", "bash");

    // Panes: spawn, swap, move, resize, paste.
    let spawned = mcp.ok(
        "phux_spawn",
        json!({"target": first, "split": "vertical", "command": ["sh"]}),
    );
    let second = format!("@{}", spawned["terminal_id"]);
    // Every pane phux runs has a place, so an insert is refused as the verb refuses it (§4.12).
    let inserted = mcp.err(
        "phux_insert_pane",
        json!({"target": first, "new_pane": second, "split": "vertical", "ratio": 0.25}),
    );
    assert_eq!(
        inserted["error"]["code"], "pane_already_in_layout",
        "{inserted}"
    );
    let swapped = mcp.ok("phux_swap_pane", json!({"first": first, "second": second}));
    assert_eq!(swapped["operation"], "swap-pane", "{swapped}");
    let moved = mcp.ok("phux_move_pane", json!({"source": other, "target": first}));
    assert_eq!(moved["cross_session"], true, "{moved}");
    let resized = mcp.ok(
        "phux_resize",
        json!({"target": first, "cols": 100, "rows": 30}),
    );
    assert_eq!(
        resized["requested"],
        json!({"cols": 100, "rows": 30}),
        "{resized}"
    );
    mcp.ok(
        "phux_paste",
        json!({"target": first, "text": "echo pasted-by-mcp"}),
    );
    mcp.ok(
        "phux_send_keys",
        json!({"target": first, "keys": ["Enter"]}),
    );
    let waited = mcp.ok(
        "phux_wait",
        json!({"target": first, "regex": "^pasted-by-mcp$", "timeout_secs": 10}),
    );
    assert_eq!(waited["outcome"], "met");

    // Sessions and tags.
    mcp.ok(
        "phux_rename",
        json!({"session": "main", "new_name": "renamed"}),
    );
    let listing = mcp.ok("phux_ls", json!({}));
    assert!(
        listing["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["name"] == "renamed"),
        "{listing}"
    );
    mcp.ok(
        "phux_tag",
        json!({"action": "add", "target": first, "tags": ["#build"]}),
    );
    let tagged = mcp.ok("phux_tag", json!({"action": "ls", "target": "#build"}));
    assert_eq!(tagged["terminals"][0]["tags"], json!(["build"]), "{tagged}");
    mcp.ok(
        "phux_tag",
        json!({"action": "rm", "target": first, "tags": ["build"]}),
    );
    let gone = mcp.err("phux_tag", json!({"action": "ls", "target": "#build"}));
    assert_eq!(gone["error"]["code"], "no_such_target");
    let refused = mcp.err("phux_tag", json!({"action": "add", "target": first}));
    assert_eq!(refused["error"]["code"], "invalid_argument");
    let detached = mcp.ok("phux_detach", json!({"confirm": true}));
    assert_eq!(detached["detached"], 0);

    // A watch batch sees an ask raised while it runs.
    let watch = mcp.send(
        "tools/call",
        json!({"name": "phux_watch", "arguments": {"target": second, "until": ["asked"], "timeout_secs": 10}}),
    );
    // The watch tool must be subscribed before the ask: the adapter answers only at the end.
    std::thread::sleep(Duration::from_millis(300));
    let asked = mcp.ok(
        "phux_ask",
        json!({"target": second, "id": "q1", "question": "ship it?", "suggestions": ["yes", "no"]}),
    );
    assert_eq!(asked["event"], "asked");
    let batch = text_document(&mcp.reply(watch, Duration::from_secs(15))["result"]);
    assert_eq!(batch["ended"], "until", "{batch}");
    assert_eq!(
        batch["events"].as_array().unwrap().last().unwrap()["event"],
        "asked"
    );

    // Agents: declare, show, list, explain, wait, send keys, prompt, answer, clear.
    let set = mcp.ok(
        "phux_agent_set",
        json!({"target": second, "name": "rev", "kind": "claude", "state": "working"}),
    );
    assert_eq!(set["record"]["name"], "rev", "{set}");
    let shown = mcp.ok("phux_agent_show", json!({"target": second}));
    assert_eq!(shown["agents"][0]["agent"]["label"], "rev", "{shown}");
    let listed = mcp.ok("phux_agent_list", json!({}));
    assert_eq!(listed["agents"].as_array().unwrap().len(), 1, "{listed}");
    let explained = mcp.ok("phux_agent_explain", json!({"target": second}));
    assert!(explained["agents"][0]["sources"].is_array(), "{explained}");
    let waited = mcp.ok(
        "phux_agent_wait",
        json!({"target": second, "until": ["done"], "timeout_secs": 0.3}),
    );
    assert_eq!(waited["satisfied"], false, "{waited}");
    let mismatch = mcp.err(
        "phux_agent_send_keys",
        json!({"target": second, "keys": ["x"], "expect_agent": "someone-else"}),
    );
    assert_eq!(mismatch["error"]["code"], "agent_mismatch");
    let typed = mcp.ok(
        "phux_agent_send_keys",
        json!({"target": second, "keys": ["echo keyed", "Enter"], "expect_agent": "rev"}),
    );
    assert_eq!(typed["verified"], true, "{typed}");
    let prompted = mcp.ok(
        "phux_agent_prompt",
        json!({"target": second, "text": "echo prompted"}),
    );
    assert_eq!(prompted["delivery"], "ok", "{prompted}");
    let cleared = mcp.ok("phux_agent_clear", json!({"target": second}));
    assert_eq!(cleared["cleared"], true);
    let unknown = mcp.err(
        "phux_agent_start",
        json!({"name": "bot", "kind": "no-such-kind", "target": second}),
    );
    assert_eq!(unknown["error"]["code"], "unsupported_agent_kind");
    let offline = mcp.err("phux_agent_explain", json!({"file": "-", "kind": "claude"}));
    assert_eq!(offline["error"]["code"], "invalid_argument");

    // An answer typed for a program asking through its title (a suggestion by number).
    let asker = server.new_session("asker", &["sh", "-c", ASKER]);
    wait_until("the ask is active", Duration::from_secs(10), || {
        server.json(&["agent", "show", "--json", &asker])["agents"][0]["state"] == "blocked"
    });
    let stale = mcp.err(
        "phux_agent_answer",
        json!({"target": asker, "id": "old", "choice": 1}),
    );
    assert_eq!(stale["error"]["code"], "ask_stale", "{stale}");
    let answered = mcp.ok(
        "phux_agent_answer",
        json!({"target": asker, "id": "deploy", "choice": 2}),
    );
    assert_eq!(answered["answer"], "No", "{answered}");
    server.wait_for_text(&asker, "got=No");
}

/// A program asking through the title sentinel and reading its answer from the terminal.
const ASKER: &str = r#"printf '\033]0;phux-ask[deploy]:Deploy?\077s=Yes|No\007'; read -r a; echo "got=$a"; sleep 30"#;

#[test]
fn a_cancelled_agent_wait_lets_go_at_once() {
    let server = TestServer::start();
    let pane = server.plain_shell("agent", "bash");
    let (mut mcp, _) = McpProcess::initialized(&server.socket, NEWEST);
    mcp.ok(
        "phux_agent_set",
        json!({"target": pane, "name": "rev", "state": "working"}),
    );
    // Counted once the earlier calls' connections are gone on the server's side too.
    server.wait_until_alone();
    let before = clients(&server);
    let id = mcp.send(
        "tools/call",
        json!({"name": "phux_agent_wait", "arguments": {"target": pane, "until": ["done"], "timeout_secs": 600}}),
    );
    wait_until(
        "the agent wait is under way",
        Duration::from_secs(10),
        || clients(&server) > before,
    );
    mcp.notify("notifications/cancelled", json!({"requestId": id}));
    wait_until("the agent wait let go", Duration::from_secs(5), || {
        clients(&server) <= before
    });
    assert!(mcp.next_message(Duration::from_millis(300)).is_none());
}

/// A plugin whose actions say hello, fail, and hang (writing the shell's pid first).
const ACTION_PLUGIN: &str = r#"id = "example.tools"
name = "Tools"
version = "0.1.0"

[[actions]]
id = "hello"
command = ["sh", "-c", "echo \"hello $PHUX_PLUGIN_ID $PHUX_PLUGIN_ACTION_ID from $(pwd)\"; echo warned >&2"]

[[actions]]
id = "fail"
command = ["sh", "-c", "echo failing; exit 7"]

[[actions]]
id = "flood"
command = ["sh", "-c", "head -c 2000000 /dev/zero | tr '\\0' x"]

[[actions]]
id = "hang"
command = ["sh", "-c", "echo $$ > \"$PHUX_PLUGIN_ROOT/hang.pid\"; echo started; sleep 60; echo never"]
"#;

/// The error code `phux ARGS --json` fails with, for a tool to match.
fn cli_error_code(server: &TestServer, args: &[&str]) -> Value {
    let output = server.run(args);
    assert!(!output.status.success(), "{args:?} should fail");
    phux_tests::error_line(&output)["error"]["code"].clone()
}

fn process_is_gone(pid: &str) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Gone, or a zombie nobody has reaped yet.
    stat.is_empty()
        || stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
}

#[test]
fn plugin_actions_complete_fail_time_out_and_die_when_cancelled() {
    let plugins = tempfile::tempdir().unwrap();
    let dir = plugin_dir(plugins.path(), "tools", ACTION_PLUGIN);
    let root = std::fs::canonicalize(&dir).unwrap().display().to_string();
    let server = TestServer::start_with_config(Some(&plugins_table(&[(&dir, true)])), &[]);
    let (mut mcp, _) = McpProcess::for_server(&server, NEWEST);
    let action = |plugin: &str, action: &str| json!({"plugin_id": plugin, "action_id": action});

    let hello = mcp.ok("phux_plugin_action", action("example.tools", "hello"));
    assert_eq!(hello["schema_version"], 1, "{hello}");
    assert_eq!(hello["outcome"], "completed");
    assert_eq!(hello["exit_code"], 0);
    assert_eq!(
        hello["stdout"],
        format!("hello example.tools hello from {root}\n")
    );
    assert_eq!(hello["stderr"], "warned\n");
    assert_eq!(hello["cwd"], root);
    // The same document the verb prints, but for the time it took.
    let mut verb = server.json(&["config", "run", "example.tools", "hello", "--json"]);
    let mut tool = hello.clone();
    verb["duration_ms"] = json!(0);
    tool["duration_ms"] = json!(0);
    assert_eq!(tool, verb);

    let elsewhere = plugins.path().canonicalize().unwrap().display().to_string();
    let moved = mcp.ok(
        "phux_plugin_action",
        json!({"plugin_id": "example.tools", "action_id": "hello", "cwd": elsewhere}),
    );
    assert!(
        moved["stdout"]
            .as_str()
            .unwrap()
            .ends_with(&format!("from {elsewhere}\n")),
        "{moved}"
    );

    // The action's own failure is a result.
    let failed = mcp.ok("phux_plugin_action", action("example.tools", "fail"));
    assert_eq!(failed["exit_code"], 7);
    assert_eq!(failed["stdout"], "failing\n");

    // More output than a tool may return: kept whole in a private file, saying how the action
    // ended, and never to be run again.
    let flood = mcp.err("phux_plugin_action", action("example.tools", "flood"));
    assert_eq!(flood["error"]["code"], "output_too_large", "{flood}");
    let message = flood["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("example.tools/flood ran (exit code 0) and printed 2000000 bytes"),
        "{message}"
    );
    let kept = message.rsplit(' ').next().unwrap();
    let whole: Value = serde_json::from_str(&std::fs::read_to_string(kept).unwrap()).unwrap();
    assert_eq!(whole["stdout"].as_str().unwrap().len(), 2_000_000);
    assert!(
        flood["remedy"]
            .as_str()
            .unwrap()
            .contains("do not repeat it"),
        "{flood}"
    );

    // Past timeout_secs it is killed: an outcome too.
    let started = Instant::now();
    let timed_out = mcp.ok(
        "phux_plugin_action",
        json!({"plugin_id": "example.tools", "action_id": "hang", "timeout_secs": 0.5}),
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(timed_out["outcome"], "timed_out", "{timed_out}");
    assert_eq!(timed_out["exit_code"], Value::Null);
    assert_eq!(timed_out["stdout"], "started\n");
    let pid = std::fs::read_to_string(dir.join("hang.pid")).unwrap();
    assert!(
        process_is_gone(pid.trim()),
        "the action outlived its timeout"
    );

    // Unknown plugins and actions fail as the verb fails.
    let no_action = mcp.err("phux_plugin_action", action("example.tools", "nope"));
    assert_eq!(
        no_action["error"]["code"],
        cli_error_code(
            &server,
            &["config", "run", "example.tools", "nope", "--json"]
        )
    );
    assert!(no_action["error"]["message"]
        .as_str()
        .unwrap()
        .contains("nope"));
    let no_plugin = mcp.err("phux_plugin_action", action("example.nobody", "hello"));
    assert_eq!(
        no_plugin["error"]["code"],
        cli_error_code(
            &server,
            &["config", "run", "example.nobody", "hello", "--json"]
        )
    );
    let too_short = mcp.err(
        "phux_plugin_action",
        json!({"plugin_id": "example.tools", "action_id": "hang", "timeout_secs": 0}),
    );
    assert_eq!(too_short["error"]["code"], "invalid_argument");

    // A cancelled call kills the action at once, and is never answered.
    std::fs::remove_file(dir.join("hang.pid")).unwrap();
    let id = mcp.send(
        "tools/call",
        json!({"name": "phux_plugin_action", "arguments": {"plugin_id": "example.tools", "action_id": "hang", "timeout_secs": 600}}),
    );
    wait_until("the action is running", Duration::from_secs(10), || {
        std::fs::read_to_string(dir.join("hang.pid")).is_ok_and(|p| p.ends_with('\n'))
    });
    let pid = std::fs::read_to_string(dir.join("hang.pid")).unwrap();
    mcp.notify("notifications/cancelled", json!({"requestId": id}));
    wait_until(
        "the cancelled action is dead",
        Duration::from_secs(5),
        || process_is_gone(pid.trim()),
    );
    assert!(
        mcp.next_message(Duration::from_millis(500)).is_none(),
        "a cancelled call was answered"
    );
    assert_eq!(mcp.request("ping", json!({})), json!({}));
}

#[test]
fn config_agents_launch_and_doctor_tools_do_what_their_verbs_do() {
    let plugins = tempfile::tempdir().unwrap();
    let dir = agent_plugin(plugins.path());
    let root = std::fs::canonicalize(&dir).unwrap().display().to_string();
    let server = TestServer::start_with_config(Some(&plugins_table(&[(&dir, true)])), &[]);
    let (mut mcp, _) = McpProcess::for_server(&server, NEWEST);

    let agents = mcp.ok("phux_config_agents", json!({}));
    assert_eq!(agents, server.json(&["config", "agents", "--json"]));
    assert_eq!(agents["live"], true);
    assert_eq!(agents["agents"][0]["id"], "fakeagent");
    assert_eq!(agents["agents"][0]["source"], "manifest");

    let list = mcp.ok("phux_launch", json!({"list": true}));
    assert_eq!(list, server.json(&["launch", "--list", "--json"]));
    assert_eq!(list["integrations"][0]["id"], "fake");

    // A dry run resolves a fresh session id and spawns nothing.
    let printed = mcp.ok("phux_launch", json!({"id": "fake", "print": true}));
    assert_eq!(printed["argv"][1], format!("{root}/agent.sh"), "{printed}");
    assert_eq!(printed["argv"][2], "--session-id");
    assert_eq!(printed["argv"][3].as_str().unwrap().len(), 36);
    assert_eq!(printed["cwd"], root);
    assert_eq!(
        mcp.ok("phux_ls", json!({}))["sessions"],
        json!([]),
        "print spawned something"
    );

    let base = server.new_session("base", &["sh"]);
    let launched = mcp.ok(
        "phux_launch",
        json!({"id": "fake", "target": base, "split": "vertical"}),
    );
    assert_eq!(launched["integration"], "fake", "{launched}");
    let pane = format!("@{}", launched["terminal_id"]);
    let session_id = launched["argv"][3].as_str().unwrap().to_string();
    server.wait_for_text(&pane, &format!("agent args: --session-id {session_id}"));
    let shown = mcp.ok("phux_agent_show", json!({"target": pane}));
    assert_eq!(shown["agents"][0]["agent"]["label"], "fakeagent", "{shown}");
    let merged = mcp.ok("phux_config_agents", json!({}));
    assert_eq!(merged["agents"][0]["source"], "runtime", "{merged}");
    assert_eq!(merged["agents"][0]["runtime"]["terminal"], pane.as_str());
    let resumed = mcp.ok(
        "phux_launch",
        json!({"id": "fake", "print": true, "resume": "abc"}),
    );
    assert_eq!(resumed["argv"][2], "--resume", "{resumed}");
    assert_eq!(resumed["argv"][3], "abc");

    // Bad calls: no id, an id nobody offers, list with an id.
    let no_id = mcp.err("phux_launch", json!({}));
    assert_eq!(no_id["error"]["code"], "invalid_argument");
    assert!(no_id["error"]["message"].as_str().unwrap().contains("id"));
    let unknown = mcp.err("phux_launch", json!({"id": "nobody"}));
    assert_eq!(
        unknown["error"]["code"],
        cli_error_code(&server, &["launch", "nobody", "--json"])
    );
    let both = mcp.err("phux_launch", json!({"list": true, "id": "fake"}));
    assert_eq!(both["error"]["code"], "invalid_argument");
    let ratio = mcp.err("phux_launch", json!({"id": "fake", "ratio": 1.5}));
    assert_eq!(ratio["error"]["code"], "invalid_argument");

    // Doctor: a result whatever it finds; the server check sees the socket it is given.
    let doctor = mcp.ok("phux_doctor", json!({}));
    let check = |doc: &Value, name: &str| -> Value {
        doc["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("no {name} check: {doc}"))
            .clone()
    };
    assert_eq!(check(&doctor, "server")["status"], "pass", "{doctor}");
    assert_eq!(check(&doctor, "plugins")["status"], "pass", "{doctor}");
    assert!(check(&doctor, "plugins")["detail"]
        .as_str()
        .unwrap()
        .starts_with("1 registered, 1 enabled"));
    let verb = server.json(&["doctor", "--json"]);
    let names = |doc: &Value| -> Vec<Value> {
        doc["checks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].clone())
            .collect()
    };
    assert_eq!(names(&doctor), names(&verb));
    let nobody = server.dir.path().join("nobody.sock");
    let (mut alone_mcp, _) = McpProcess::initialized(&nobody, NEWEST);
    let alone = alone_mcp.ok("phux_doctor", json!({}));
    assert_eq!(check(&alone, "server")["status"], "warn", "{alone}");
}

#[test]
fn workspaces_are_inspected_saved_and_restored() {
    let server = TestServer::start();
    let (mut mcp, _) = McpProcess::for_server(&server, NEWEST);
    server.new_session("alpha", &["sh"]);
    let beta = server.new_session("beta", &["sh"]);
    let split = server.run(&[
        "spawn", "--target", &beta, "--split", "vertical", "--", "sh",
    ]);
    assert!(split.status.success(), "{}", phux_tests::stderr(&split));

    let archive = mcp.ok("phux_workspace", json!({"action": "save"}));
    assert_eq!(archive["schema_version"], 2, "{archive}");
    assert_eq!(archive, server.json(&["workspace", "save"]));
    let names: Vec<&str> = archive["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["alpha", "beta"]);
    assert_eq!(
        archive["sessions"][1]["windows"][0]["panes"]
            .as_array()
            .unwrap()
            .len(),
        2
    );

    // To a file: written; replacing it needs confirm.
    let out = server.dir.path().join("saved.json");
    let out_text = out.display().to_string();
    let written = mcp.ok("phux_workspace", json!({"action": "save", "out": out_text}));
    assert_eq!(written["path"], out_text.as_str());
    assert_eq!(written["sessions"], json!(["alpha", "beta"]));
    let on_disk: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(on_disk, archive);
    std::fs::write(&out, "keep me").unwrap();
    let refused = mcp.err("phux_workspace", json!({"action": "save", "out": out_text}));
    assert_eq!(
        refused["error"]["code"], "confirmation_required",
        "{refused}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me");
    mcp.ok(
        "phux_workspace",
        json!({"action": "save", "out": out_text, "confirm": true}),
    );
    assert_eq!(
        serde_json::from_str::<Value>(&std::fs::read_to_string(&out).unwrap()).unwrap(),
        archive
    );

    // Restored on another server (the adapter started with its socket): both sessions, then
    // none again.
    let other = TestServer::start();
    let (mut other_mcp, _) = McpProcess::initialized(&other.socket, NEWEST);
    let restored = other_mcp.ok(
        "phux_workspace",
        json!({"action": "restore", "archive": out_text}),
    );
    assert_eq!(restored["restored"], json!(["alpha", "beta"]), "{restored}");
    let listed = other.json(&["ls", "--json"]);
    assert_eq!(listed["sessions"].as_array().unwrap().len(), 2);
    let again = other_mcp.ok(
        "phux_workspace",
        json!({"action": "restore", "archive": out_text}),
    );
    assert_eq!(again["restored"], json!([]));
    assert_eq!(again["skipped_existing"], json!(["alpha", "beta"]));

    // A repository's worktrees, as the verb shows them.
    let repo = tempfile::tempdir().unwrap();
    let git = |args: &[&str]| {
        let done = std::process::Command::new("git")
            .args(args)
            .current_dir(repo.path())
            .output()
            .expect("git");
        assert!(
            done.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&done.stderr)
        );
    };
    git(&["init", "-q", "-b", "main"]);
    git(&[
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "one",
    ]);
    let repo_path = repo.path().display().to_string();
    let inspected = mcp.ok(
        "phux_workspace",
        json!({"action": "inspect", "path": repo_path}),
    );
    assert_eq!(
        inspected,
        server.json(&["workspace", "inspect", &repo_path, "--json"])
    );
    assert_eq!(inspected["repo"]["branch"], "main", "{inspected}");

    // Bad calls fail as the verb fails, or name the argument.
    let plain = tempfile::tempdir().unwrap();
    let plain_path = plain.path().display().to_string();
    let not_repo = mcp.err(
        "phux_workspace",
        json!({"action": "inspect", "path": plain_path}),
    );
    assert_eq!(
        not_repo["error"]["code"],
        cli_error_code(&server, &["workspace", "inspect", &plain_path, "--json"])
    );
    let missing = server.dir.path().join("missing.json").display().to_string();
    let no_file = mcp.err(
        "phux_workspace",
        json!({"action": "restore", "archive": missing}),
    );
    assert!(
        no_file["error"]["message"]
            .as_str()
            .unwrap()
            .contains("missing.json"),
        "{no_file}"
    );
    for (args, says) in [
        (json!({"action": "restore"}), "archive"),
        (json!({"action": "restore", "archive": "-"}), "stdin"),
        (json!({"action": "inspect", "out": out_text}), "out"),
        (json!({"action": "save", "archive": out_text}), "archive"),
        (json!({"action": "vacuum"}), "one of"),
    ] {
        let doc = mcp.err("phux_workspace", args.clone());
        assert_eq!(doc["error"]["code"], "invalid_argument", "{args}: {doc}");
        let message = doc["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(says),
            "{args}: {message:?} should say {says:?}"
        );
    }
}
