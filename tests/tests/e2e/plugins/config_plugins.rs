//! The config file and the plugin registry end to end, through the real binary: a plugin
//! directory written here, linked, validated, listed, enabled and disabled, its actions run
//! (completed, failing, timed out), every bad manifest refused with nothing written, and two
//! links at once both landing. No server is involved (these verbs never contact one).

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::path::{Path, PathBuf};

use phux_tests::plugins::PluginHome as Home;
use phux_tests::{error_line, json, stderr, stdout};

const TOOLS: &str = r#"id = "example.tools"
name = "Tools"
version = "0.1.0"
min_phux_version = "0.0.2"

[[actions]]
id = "hello"
title = "Say hello"
command = ["sh", "-c", "echo \"hello $PHUX_PLUGIN_ID $PHUX_PLUGIN_ACTION_ID from $(pwd)\"; echo warned >&2"]

[[actions]]
id = "fail"
command = ["sh", "-c", "echo failing; exit 7"]

[[actions]]
id = "hang"
command = ["sh", "-c", "echo started; sleep 60"]

[[events]]
id = "on-exit"
on = "pane.exited"
command = ["true"]
"#;

fn path_str(path: &Path) -> String {
    path.display().to_string()
}

#[test]
fn a_plugin_is_linked_validated_listed_toggled_and_unlinked() {
    let home = Home::new();
    let dir = home.plugin("tools", TOOLS);
    let root = std::fs::canonicalize(&dir).unwrap();

    let linked = home.ok(&["plugin", "link", &path_str(&dir), "--json"]);
    assert_eq!(linked["plugin"]["id"], "example.tools");
    assert_eq!(linked["plugin"]["enabled"], true);
    assert_eq!(linked["plugin"]["plugin_root"], path_str(&root));
    assert_eq!(linked["plugin"]["actions"][0]["id"], "hello");
    assert_eq!(linked["plugin"]["events"][0]["on"], "pane.exited");

    let valid = home.ok(&["plugin", "validate", "--json"]);
    assert_eq!(valid["valid"], true);
    assert_eq!(valid["plugins"][0]["id"], "example.tools");

    let list = home.ok(&["plugin", "list", "--json"]);
    assert_eq!(list["schema_version"], 1);
    assert!(list.get("valid").is_none(), "{list}");
    assert_eq!(list["plugins"].as_array().unwrap().len(), 1);
    let prose = stdout(&home.run(&["plugin", "list"]));
    assert!(
        prose.starts_with("example.tools\tenabled\t0.1.0\t"),
        "{prose}"
    );

    let off = home.ok(&["plugin", "disable", "example.tools", "--json"]);
    assert_eq!(off["plugin"]["enabled"], false);
    let text = std::fs::read_to_string(home.config()).unwrap();
    assert!(text.contains("enabled = false"), "{text}");
    let refused = home.run(&["config", "run", "example.tools", "hello", "--json"]);
    assert_eq!(error_line(&refused)["error"]["code"], "registry");
    let on = home.ok(&["plugin", "enable", "example.tools", "--json"]);
    assert_eq!(on["plugin"]["enabled"], true);

    let again = home.run(&["plugin", "link", &path_str(&dir), "--json"]);
    assert!(error_line(&again)["error"]["message"]
        .as_str()
        .unwrap()
        .contains("already registered"));

    let removed = home.ok(&["plugin", "unlink", "example.tools", "--json"]);
    assert_eq!(removed["removed"]["id"], "example.tools");
    assert_eq!(
        home.ok(&["plugin", "list", "--json"])["plugins"],
        serde_json::json!([])
    );
}

#[test]
fn actions_complete_fail_and_time_out() {
    let home = Home::new();
    let dir = home.plugin("tools", TOOLS);
    home.ok(&["plugin", "link", &path_str(&dir), "--json"]);
    let root = path_str(&std::fs::canonicalize(&dir).unwrap());

    let done = home.run(&["config", "run", "example.tools", "hello", "--json"]);
    assert_eq!(done.status.code(), Some(0), "{}", stderr(&done));
    let doc = json(&done);
    assert_eq!(doc["outcome"], "completed");
    assert_eq!(doc["exit_code"], 0);
    assert_eq!(doc["cwd"], root);
    assert_eq!(
        doc["stdout"],
        format!("hello example.tools hello from {root}\n")
    );
    assert_eq!(doc["stderr"], "warned\n");

    // Without --json the output streams through; phux mirrors the status.
    let failing = home.run(&["config", "run", "example.tools", "fail"]);
    assert_eq!(failing.status.code(), Some(7));
    assert_eq!(stdout(&failing), "failing\n");

    let hung = home.run(&[
        "config",
        "run",
        "example.tools",
        "hang",
        "--timeout",
        "0.5",
        "--json",
    ]);
    assert_eq!(hung.status.code(), Some(125), "{}", stderr(&hung));
    let doc = json(&hung);
    assert_eq!(doc["outcome"], "timed_out");
    assert_eq!(doc["exit_code"], serde_json::Value::Null);
    assert_eq!(doc["stdout"], "started\n");

    let elsewhere = home.dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let doc = home.ok(&[
        "config",
        "run",
        "example.tools",
        "hello",
        "--cwd",
        &path_str(&elsewhere),
        "--json",
    ]);
    assert!(doc["stdout"]
        .as_str()
        .unwrap()
        .ends_with(&format!("from {}\n", path_str(&elsewhere))));

    let missing = home.run(&["config", "run", "example.tools", "nope", "--json"]);
    let line = error_line(&missing);
    assert_eq!(line["error"]["code"], "registry");
    assert!(line["error"]["message"]
        .as_str()
        .unwrap()
        .contains("hello, fail, hang"));
}

/// Each bad manifest: exit 1, stdout empty, the message names the file and the problem, and
/// the config file is not written.
#[test]
fn bad_manifests_are_refused_and_nothing_is_written() {
    let home = Home::new();
    let cases: &[(&str, &str, &str)] = &[
        ("no-id", "name = \"x\"\n", "missing `id`"),
        (
            "dup-action",
            "id = \"a.b\"\n[[actions]]\nid = \"x\"\ncommand = [\"true\"]\n[[actions]]\nid = \"x\"\ncommand = [\"true\"]\n",
            ":5: [[actions]] id \"x\" - duplicate id (first at line 2)",
        ),
        (
            "empty-argv",
            "id = \"a.b\"\n[[actions]]\nid = \"x\"\ncommand = []\n",
            "[[actions]] id \"x\" - `command` is empty",
        ),
        (
            "wrong-type",
            "id = \"a.b\"\n[[workspaces]]\nid = \"w\"\ncontexts = \"pane\"\n",
            "invalid type",
        ),
        ("path-like-id", "id = \"a/b\"\n", "`id` \"a/b\" must be"),
        (
            "future",
            "id = \"a.b\"\nmin_phux_version = \"99.0.0\"\n",
            "needs phux 99.0.0 or newer",
        ),
        ("not-toml", "id = \n", ":1: column 6: not valid TOML"),
    ];
    for (name, manifest, expected) in cases {
        let dir = home.plugin(name, manifest);
        let output = home.run(&["plugin", "link", &path_str(&dir), "--json"]);
        assert_eq!(output.status.code(), Some(1), "{name}");
        let line = error_line(&output);
        assert_eq!(line["error"]["code"], "registry", "{name}");
        let message = line["error"]["message"].as_str().unwrap();
        assert!(message.contains("phux-plugin.toml"), "{name}: {message}");
        assert!(message.contains(expected), "{name}: {message}");
        assert!(!home.config().exists(), "{name}: the config was written");
    }
    let nowhere = home.run(&["plugin", "link", "/nonexistent/plugin", "--json"]);
    let line = error_line(&nowhere);
    assert!(line["error"]["message"]
        .as_str()
        .unwrap()
        .contains("/nonexistent/plugin/phux-plugin.toml"));

    // A manifest that breaks after linking fails every registry read, naming it.
    let dir = home.plugin("later", "id = \"later.one\"\n");
    home.ok(&["plugin", "link", &path_str(&dir), "--json"]);
    std::fs::write(
        dir.join("phux-plugin.toml"),
        "id = \"later.one\"\nname = 1\n",
    )
    .unwrap();
    let listed = home.run(&["plugin", "list", "--json"]);
    assert!(error_line(&listed)["error"]["message"]
        .as_str()
        .unwrap()
        .contains("invalid type"));
    let validated = home.run(&["plugin", "validate"]);
    assert_eq!(validated.status.code(), Some(1));
    assert!(stdout(&validated).is_empty());
    // ...and can still be unlinked by its path.
    home.ok(&["plugin", "unlink", &path_str(&dir), "--json"]);
}

/// A manifest shaped like upstream's examples (`contexts` on `[[workspaces]]`) plus keys phux does
/// not know: linked and validated, each unknown key a warning with file:line in `plugin
/// validate` (stderr and `warnings`), `config check` and `doctor`; never a refusal.
#[test]
fn unknown_manifest_keys_are_warnings_with_file_and_line_never_refusals() {
    let home = Home::new();
    let manifest = r#"id = "example.agent-bench"
name = "Agent bench"
version = "0.1.0"
min_phux_version = "0.0.1"
homepage = "https://example.com/bench"

[[actions]]
id = "review"
title = "Review"
contexts = ["workspace"]
command = ["true"]

[[agents]]
id = "reviewer"
label = "Reviewer"
contexts = ["pane"]

[[workspaces]]
id = "agent-bench"
title = "Agent bench"
contexts = ["workspace"]
agents = ["reviewer"]
actions = ["review"]
layout = "tiled"
"#;
    let dir = home.plugin("bench", manifest);
    let file = path_str(&std::fs::canonicalize(dir.join("phux-plugin.toml")).unwrap());
    let linking = home.run(&["plugin", "link", &path_str(&dir), "--json"]);
    assert_eq!(linking.status.code(), Some(0), "{}", stderr(&linking));
    assert_eq!(json(&linking)["plugin"]["id"], "example.agent-bench");
    assert!(
        stderr(&linking).contains(&format!("{file}:5: unknown key `homepage` (ignored)")),
        "{}",
        stderr(&linking)
    );

    let output = home.run(&["plugin", "validate"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("ok\t"), "{}", stdout(&output));
    let err = stderr(&output);
    assert!(
        err.contains(&format!("{file}:5: unknown key `homepage` (ignored)")),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "{file}:24: [[workspaces]] id \"agent-bench\" - unknown key `layout` (ignored)"
        )),
        "{err}"
    );
    let valid = home.ok(&["plugin", "validate", "--json"]);
    assert_eq!(valid["valid"], true);
    let warnings = valid["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 2, "{valid}");
    assert_eq!(warnings[1]["file"], file.as_str());
    assert_eq!(warnings[1]["line"], 24);
    // `plugin list` keeps its document as it was.
    let list = home.ok(&["plugin", "list", "--json"]);
    assert!(list.get("warnings").is_none(), "{list}");

    let check = home.run(&["config", "check", "--json"]);
    let doc = json(&check);
    let problems = doc["problems"].as_array().unwrap();
    assert!(
        problems.iter().any(|p| p["severity"] == "warning"
            && p["file"] == file.as_str()
            && p["line"] == 5
            && p["message"]
                .as_str()
                .unwrap()
                .contains("unknown key `homepage`")),
        "{doc}"
    );
    assert!(problems.iter().all(|p| p["severity"] == "warning"), "{doc}");

    let doctor = json(&home.run(&["doctor", "--json"]));
    let plugins = &doctor["checks"][4];
    assert_eq!(plugins["status"], "warn", "{doctor}");
    assert!(
        plugins["detail"]
            .as_str()
            .unwrap()
            .contains(&format!("{file}:24:")),
        "{doctor}"
    );
}

/// Two `plugin link` at once never lose an entry: the config file's lock serializes them.
#[test]
fn concurrent_links_all_land() {
    let home = Home::new();
    let dirs: Vec<PathBuf> = (0..8)
        .map(|i| home.plugin(&format!("p{i}"), &format!("id = \"test.p{i}\"\n")))
        .collect();
    std::thread::scope(|scope| {
        for dir in &dirs {
            let home = &home;
            scope.spawn(move || {
                let output = home.run(&["plugin", "link", &path_str(dir)]);
                assert!(output.status.success(), "{}", stderr(&output));
            });
        }
    });
    let list = home.ok(&["plugin", "list", "--json"]);
    let mut ids: Vec<String> = list["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_string())
        .collect();
    ids.sort();
    let want: Vec<String> = (0..8).map(|i| format!("test.p{i}")).collect();
    assert_eq!(ids, want);
}

#[test]
fn config_init_path_check_and_show() {
    let home = Home::new();
    assert_eq!(
        stdout(&home.run(&["config", "path"])).trim(),
        path_str(&home.config())
    );
    assert!(home.run(&["config", "init"]).status.success());
    let again = home.run(&["config", "init"]);
    assert_eq!(again.status.code(), Some(1), "an existing file is kept");
    let check = home.ok(&["config", "check", "--json"]);
    assert_eq!(check["ok"], true, "{check}");

    // The writers keep the starter file's comments.
    let dir = home.plugin("tools", TOOLS);
    home.ok(&["plugin", "link", &path_str(&dir), "--json"]);
    let text = std::fs::read_to_string(home.config()).unwrap();
    assert!(text.starts_with("# phux config."), "{text}");
    assert!(text.contains("# history-limit = 10000"), "{text}");

    let bad = home.dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        "[defaults]\nshel = \"x\"\nhistory-limit = 5\n\n[colours]\na = 1\n",
    )
    .unwrap();
    let output = home.run(&["config", "check", &path_str(&bad), "--json"]);
    assert_eq!(output.status.code(), Some(1));
    let doc = json(&output);
    let lines: Vec<i64> = doc["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["line"].as_i64().unwrap())
        .collect();
    assert_eq!(lines, vec![2, 5], "{doc}");

    let worse = home.dir.path().join("worse.toml");
    std::fs::write(&worse, "[defaults]\nshell = \n").unwrap();
    let output = home.run(&["config", "check", &path_str(&worse), "--json"]);
    assert_eq!(output.status.code(), Some(2));
    let line = error_line(&output);
    assert_eq!(line["error"]["code"], "invalid_config");
    assert!(line["error"]["message"]
        .as_str()
        .unwrap()
        .contains("worse.toml:2:9"));

    // Well-formed TOML with a bad value is a problem of the file, not a file it cannot check.
    let typed = home.dir.path().join("typed.toml");
    std::fs::write(&typed, "[defaults]\nhistory-limit = \"lots\"\n").unwrap();
    let output = home.run(&["config", "check", &path_str(&typed), "--json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let doc = json(&output);
    assert_eq!(doc["ok"], false, "{doc}");
    assert_eq!(doc["problems"][0]["severity"], "error", "{doc}");
    assert_eq!(doc["problems"][0]["line"], 2, "{doc}");

    let keys = home.dir.path().join("keys.toml");
    std::fs::write(&keys, "[keybindings]\n\"x\" = \"no-such-action\"\n").unwrap();
    let output = home.run(&["config", "check", &path_str(&keys), "--json"]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "an action the TUI would ignore is a problem"
    );
    let doc = json(&output);
    assert!(
        doc["problems"][0]["message"]
            .as_str()
            .unwrap()
            .contains("no-such-action"),
        "{doc}"
    );

    let missing = home.dir.path().join("missing.toml");
    let output = home.run(&["config", "check", &path_str(&missing), "--json"]);
    assert_eq!(
        output.status.code(),
        Some(2),
        "a file that is not there cannot be checked"
    );
    assert!(output.stdout.is_empty());
    let line = error_line(&output);
    assert_eq!(line["error"]["code"], "invalid_config");
    assert!(line["error"]["message"]
        .as_str()
        .unwrap()
        .ends_with("missing.toml: no such file"));

    std::fs::write(
        home.config(),
        "[defaults]\nhistory-limit = 123\nterm = \"xterm\"\n",
    )
    .unwrap();
    let shown = home.ok(&["config", "show", "--json"]);
    assert_eq!(shown["defaults"]["history-limit"], 123);
    assert_eq!(shown["defaults"]["term"], "xterm");
    assert_eq!(shown["defaults"]["window-size"], "smallest");
    assert_eq!(
        shown["defaults"]["line-height"], 1.4,
        "as written, not widened"
    );
    let text = home.run(&["config", "show"]);
    assert!(
        stdout(&text).contains("line-height = 1.4\n"),
        "{}",
        stdout(&text)
    );
    let defaults = home.ok(&["config", "show", "--default", "--json"]);
    assert_eq!(
        defaults["exists"], true,
        "the file is there, though not shown"
    );
    assert_eq!(defaults["defaults"]["history-limit"], 10000);
}

#[test]
fn config_agents_without_a_server_reports_the_manifests() {
    let home = Home::new();
    let dir = home.plugin(
        "agents",
        "id = \"example.agents\"\n[[agents]]\nid = \"codex\"\nlabel = \"Codex\"\nstate = \"working\"\ncontexts = [\"pane\"]\n",
    );
    home.ok(&["plugin", "link", &path_str(&dir), "--json"]);
    let doc = home.ok(&["config", "agents", "--json"]);
    assert_eq!(doc["schema_version"], 2);
    assert_eq!(doc["live"], false);
    let row = &doc["agents"][0];
    assert_eq!(row["source"], "manifest");
    assert_eq!(row["state"], "working");
    assert_eq!(row["attention"], "normal");
    assert_eq!(row["runtime"], serde_json::Value::Null);
    assert_eq!(row["declared"]["state"], "working");
}

#[test]
fn completion_scripts_are_generated() {
    let home = Home::new();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let output = home.run(&["completion", shell]);
        assert!(output.status.success(), "{shell}");
        assert!(stdout(&output).contains("workspace"), "{shell}");
    }
    assert_eq!(home.run(&["completion", "tcsh"]).status.code(), Some(2));
}

#[test]
fn doctor_reports_each_check() {
    let home = Home::new();
    let output = home.run(&["doctor", "--json"]);
    let doc = json(&output);
    assert_eq!(doc["schema_version"], 1);
    let names: Vec<&str> = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "engine",
            "socket directory",
            "server",
            "config",
            "plugins",
            "shell integration",
            "git",
            "ssh",
            "remote",
            "emoji font",
            "web assets"
        ]
    );
    let server = &doc["checks"][2];
    assert_eq!(server["status"], "warn", "no server runs here: {server}");
    assert_eq!(doc["ok"], doc["failed"] == 0);
    assert_eq!(
        output.status.code(),
        Some(if doc["ok"] == true { 0 } else { 1 })
    );

    // A broken manifest is a failed check, and exit 1.
    let dir = home.plugin("bad", "id = \"x.y\"\n");
    home.ok(&["plugin", "link", &path_str(&dir), "--json"]);
    std::fs::write(dir.join("phux-plugin.toml"), "name = \"no id\"\n").unwrap();
    let output = home.run(&["doctor", "--json"]);
    assert_eq!(output.status.code(), Some(1));
    let doc = json(&output);
    assert_eq!(doc["checks"][4]["status"], "fail");
    assert!(doc["checks"][4]["detail"]
        .as_str()
        .unwrap()
        .contains("missing `id`"));
}
