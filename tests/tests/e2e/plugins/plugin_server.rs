//! Config and plugins meeting a real server: `[defaults]` shaping new panes, event hooks that
//! run on `pane.exited` with the event on stdin, `launch` declaring the pane's record, and
//! `config agents` merging it.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::time::Duration;

use phux_tests::plugins::{agent_plugin, plugin_dir, plugins_table};
use phux_tests::{stderr, wait_until, TestServer};

#[test]
fn defaults_shape_new_panes() {
    let config = "[defaults]\nterm = \"xterm-phux-test\"\ncwd-inheritance = \"home\"\n";
    let server = TestServer::start_with_config(Some(config), &[]);
    let pane = server.new_session("d", &["sh"]);
    server.send_keys(&pane, &["echo T=$TERM", "Enter"]);
    server.wait_for_text(&pane, "T=xterm-phux-test");
    // A spawned pane starts at $HOME, not in the directory of the pane it joins.
    let spawned = server.run(&["spawn", "--target", &pane, "--", "sh"]);
    assert!(spawned.status.success(), "{}", stderr(&spawned));
    let new_pane = String::from_utf8_lossy(&spawned.stdout).trim().to_string();
    server.send_keys(&new_pane, &["echo D=$(pwd)", "Enter"]);
    let want = format!("D={}", std::env::var("HOME").unwrap());
    server.wait_for_text(&new_pane, &want);
}

#[test]
fn an_event_hook_runs_on_pane_exited_with_the_event_on_stdin() {
    let plugins = tempfile::tempdir().unwrap();
    let log = plugins.path().join("hook.log");
    let off_log = plugins.path().join("off.log");
    let manifest = format!(
        "id = \"test.hooks\"\n[[events]]\nid = \"record-exit\"\non = \"pane.exited\"\n\
         command = [\"sh\", \"-c\", \"cat > {log}.tmp; echo \\\"$PHUX_PLUGIN_ID $PHUX_PLUGIN_EVENT_ID $PHUX_TERMINAL_ID $PHUX_SOCKET\\\" >> {log}.tmp; mv {log}.tmp {log}\"]\n\
         [[events]]\nid = \"hang\"\non = \"pane.spawned\"\ncommand = [\"sleep\", \"60\"]\n",
        log = log.display()
    );
    let on = plugin_dir(plugins.path(), "on", &manifest);
    let off = plugin_dir(
        plugins.path(),
        "off",
        &format!(
            "id = \"test.off\"\n[[events]]\nid = \"never\"\non = \"pane.exited\"\ncommand = [\"touch\", \"{}\"]\n",
            off_log.display()
        ),
    );
    let config = plugins_table(&[(&on, true), (&off, false)]);
    let server = TestServer::start_with_config(Some(&config), &[]);
    // Another pane keeps the server up when the hooked one ends.
    server.new_session("keep", &["sh"]);
    let pane = server.new_session("h", &["sh", "-c", "sleep 0.3"]);
    wait_until("the hook wrote its log", Duration::from_secs(15), || {
        log.exists()
    });
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines = text.lines();
    let event: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(event["event"], "pane.exited", "{event}");
    assert_eq!(event["terminal"], pane.as_str());
    assert_eq!(
        event["session"], "h",
        "an exited pane's event names its session: {event}"
    );
    assert_eq!(event["watch"]["event"], "pane_closed");
    let id = pane.trim_start_matches('@');
    assert_eq!(
        lines.next().unwrap(),
        format!("test.hooks record-exit {id} {}", server.socket.display())
    );
    // The disabled plugin's hook never ran; the hanging one did not hold anything up.
    std::thread::sleep(Duration::from_millis(300));
    assert!(!off_log.exists(), "a disabled plugin's hook ran");
}

#[test]
fn a_hook_past_its_time_limit_is_killed_and_logged() {
    let plugins = tempfile::tempdir().unwrap();
    let dir = plugin_dir(
        plugins.path(),
        "slow",
        "id = \"test.slow\"\n[[events]]\nid = \"hang\"\non = \"pane.spawned\"\ncommand = [\"sleep\", \"60\"]\n",
    );
    // PHUX_HOOK_TIMEOUT reaches the server through the environment of the `new` that
    // auto-starts it, so this test starts its own server that way.
    let own = AutostartedServer::with_plugin(&dir);
    let started = own.run(
        &["new", "-d", "slow", "--", "sh"],
        &[("PHUX_HOOK_TIMEOUT", "0.5")],
    );
    assert!(started.status.success());
    let log = own.socket.with_extension("log");
    wait_until("the hook was killed", Duration::from_secs(15), || {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .contains("hook test.slow/hang (pane.spawned) was killed after 0.5s")
    });
    let _ = own.run(&["kill", "--server"], &[]);
}

#[test]
fn launch_declares_the_record_and_config_agents_merges_it() {
    let plugins = tempfile::tempdir().unwrap();
    let dir = agent_plugin(plugins.path());
    let root = std::fs::canonicalize(&dir).unwrap();
    let server = TestServer::start_with_config(Some(&plugins_table(&[(&dir, true)])), &[]);

    let list = server.json(&["launch", "--list", "--json"]);
    assert_eq!(list["integrations"][0]["id"], "fake");
    assert_eq!(list["integrations"][0]["plugin"], "com.example.agent-tools");

    let printed = server.json(&["launch", "fake", "--print", "--json"]);
    let argv = printed["argv"].as_array().unwrap();
    assert_eq!(argv[1], format!("{}/agent.sh", root.display()));
    assert_eq!(argv[2], "--session-id");
    assert_eq!(
        argv[3].as_str().unwrap().len(),
        36,
        "a fresh uuid: {printed}"
    );
    assert_eq!(printed["cwd"], root.display().to_string());
    assert_eq!(printed["working_directory"], "plugin");

    let offline = server.json(&["config", "agents", "--json"]);
    assert_eq!(offline["live"], true);
    assert_eq!(offline["agents"][0]["source"], "manifest");

    let base = server.new_session("base", &["sh"]);
    let launched = server.json(&[
        "launch", "fake", "--target", &base, "--split", "vertical", "--json",
    ]);
    let pane = format!("@{}", launched["terminal_id"]);
    let session_id = launched["argv"][3].as_str().unwrap().to_string();
    server.wait_for_text(&pane, &format!("agent args: --session-id {session_id}"));
    server.wait_for_text(&pane, &format!("agent cwd: {}", root.display()));

    let shown = server.json(&["agent", "show", &pane, "--json"]);
    assert_eq!(shown["agents"][0]["agent"]["label"], "fakeagent", "{shown}");

    let merged = server.json(&["config", "agents", "--json"]);
    let row = &merged["agents"][0];
    assert_eq!(row["source"], "runtime", "{merged}");
    assert_eq!(row["runtime"]["terminal"], pane.as_str());
    assert_eq!(row["runtime"]["kind"], "fakeagent");
    assert_eq!(row["declared"]["state"], "idle");

    // Saved and restored on another server, the agent resumes through the integration and
    // its pane is declared again, so a second save archives the same agent session.
    let archive = server.dir.path().join("agents.json");
    let archive_text = archive.display().to_string();
    let saved = server.run(&["workspace", "save", "-o", &archive_text]);
    assert!(saved.status.success(), "{}", stderr(&saved));
    let other = TestServer::start_with_config(Some(&plugins_table(&[(&dir, true)])), &[]);
    let restored = other.json(&["workspace", "restore", "--json", &archive_text]);
    assert_eq!(
        restored["restored"],
        serde_json::json!(["base"]),
        "{restored}"
    );
    let again = other.json(&["workspace", "save"]);
    let panes = again["sessions"][0]["windows"][0]["panes"]
        .as_array()
        .unwrap();
    let agent = panes
        .iter()
        .find_map(|p| p["agent_session"].as_object())
        .unwrap_or_else(|| panic!("no agent_session after the restore: {again}"));
    assert_eq!(agent["native_id"], session_id.as_str(), "{again}");
    assert_eq!(agent["integration_id"], "fake");
    let resumed = other.json(&["agent", "list", "--json"]);
    let terminal = resumed["agents"][0]["terminal"].as_str().unwrap();
    other.wait_for_text(terminal, &format!("agent args: --resume {session_id}"));
}

/// A continuum-style plugin: `workspace save` on every `session.changed` and `pane.idle`,
/// through the socket its hook environment names, keeps an archive of the live sessions.
#[test]
fn a_continuum_style_autosave_hook_keeps_an_archive() {
    let plugins = tempfile::tempdir().unwrap();
    let archive = plugins.path().join("last.json");
    let phux = phux_tests::phux_bin();
    let save = format!("{} workspace save -o {}", phux.display(), archive.display());
    let manifest = format!(
        "id = \"example.continuum\"\n\
         [[events]]\nid = \"save-on-change\"\non = \"session.changed\"\ncommand = [\"sh\", \"-c\", \"{save}\"]\n\
         [[events]]\nid = \"save-on-idle\"\non = \"pane.idle\"\ncommand = [\"sh\", \"-c\", \"{save}\"]\n"
    );
    let dir = plugin_dir(plugins.path(), "continuum", &manifest);
    let server = TestServer::start_with_config(Some(&plugins_table(&[(&dir, true)])), &[]);
    server.new_session("alpha", &["sh"]);
    let beta = server.new_session("beta", &["sh"]);
    server.send_keys(&beta, &["echo idle-soon", "Enter"]);
    let names = || -> Vec<String> {
        let text = std::fs::read_to_string(&archive).unwrap_or_default();
        serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|doc| {
                doc["sessions"].as_array().map(|s| {
                    s.iter()
                        .filter_map(|s| s["name"].as_str().map(str::to_string))
                        .collect()
                })
            })
            .unwrap_or_default()
    };
    wait_until(
        "the archive names both sessions",
        Duration::from_secs(15),
        || names() == ["alpha", "beta"],
    );
    // A rename is a session change too.
    let renamed = server.run(&["rename", "beta", "gamma"]);
    assert!(renamed.status.success(), "{}", stderr(&renamed));
    wait_until(
        "the archive follows the rename",
        Duration::from_secs(15),
        || names() == ["alpha", "gamma"],
    );
}

/// `PHUX_NO_HOOKS=1` in the server's environment arms no hook at all.
#[test]
fn no_hooks_turns_every_hook_off() {
    let plugins = tempfile::tempdir().unwrap();
    let dir = plugin_dir(
        plugins.path(),
        "hooks",
        "id = \"test.nohooks\"\n[[events]]\nid = \"e\"\non = \"pane.spawned\"\ncommand = [\"true\"]\n",
    );
    let own = AutostartedServer::with_plugin(&dir);
    let started = own.run(
        &["new", "-d", "quiet", "--", "sh"],
        &[("PHUX_NO_HOOKS", "1")],
    );
    assert!(started.status.success());
    let log = std::fs::read_to_string(own.socket.with_extension("log")).unwrap_or_default();
    let _ = own.run(&["kill", "--server"], &[]);
    assert!(log.contains("listening"), "{log}");
    assert!(!log.contains("hook"), "hooks were armed: {log}");
}

/// `new` that starts a server with a config file it cannot read says so on the terminal: the
/// server falls back to the built-in defaults, and its log was the only trace.
#[test]
fn an_autostart_with_a_broken_config_warns() {
    let plugins = tempfile::tempdir().unwrap();
    let own = AutostartedServer::with_plugin(&agent_plugin(plugins.path()));
    std::fs::write(&own.config, "[defaults]\nshell = \n").unwrap();
    let started = own.run(&["new", "-s", "broken", "--json", "--", "sleep", "60"], &[]);
    let said = stderr(&started);
    let _ = own.run(&["kill", "--server"], &[]);
    assert!(started.status.success(), "{said}");
    assert!(
        said.contains("warning") && said.contains("config.toml:2:"),
        "{said}"
    );
    assert!(said.contains("built-in defaults"), "{said}");
}

/// A server started by the `new` it is given (so that command's environment reaches it), on
/// a socket in a private directory, with a config enabling one plugin.
struct AutostartedServer {
    _home: tempfile::TempDir,
    config: std::path::PathBuf,
    socket: std::path::PathBuf,
}

impl AutostartedServer {
    fn with_plugin(dir: &std::path::Path) -> AutostartedServer {
        let home = tempfile::tempdir().unwrap();
        std::fs::set_permissions(
            home.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o700),
        )
        .unwrap();
        let config = home.path().join("config.toml");
        std::fs::write(&config, plugins_table(&[(dir, true)])).unwrap();
        let socket = home.path().join("phux.sock");
        AutostartedServer {
            _home: home,
            config,
            socket,
        }
    }

    /// Runs `phux ARGS` against this server with `env` added.
    fn run(&self, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
        let mut command = phux_tests::phux(args);
        command
            .env("PHUX_SOCKET", &self.socket)
            .env("PHUX_CONFIG", &self.config)
            .env("SHELL", phux_tests::PANE_SHELL)
            .envs(env.iter().copied());
        phux_tests::run_with_deadline(&mut command, Duration::from_secs(15))
    }
}
