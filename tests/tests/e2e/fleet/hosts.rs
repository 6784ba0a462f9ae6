//! Many machines: a hub dials satellites through a stand-in ssh (`PHUX_SSH`) running `phux
//! proxy` against a second real server, merges their panes into `ls` as `NAME/@N`, and routes
//! every TARGET verb there; unreachable satellites are reported, not waited for.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::time::Duration;

use phux_tests::fleet::Fleet;
use phux_tests::{error_line, json, run_with_deadline, stderr, stdout, wait_until};

/// A satellite `devbox` with one `sh` pane, listed by the hub; returns the pane's `devbox/@N`.
fn fleet_with_devbox() -> (Fleet, String) {
    let mut fleet = Fleet::start();
    let satellite = fleet.add_satellite("devbox");
    let local = satellite.plain_shell("work", "sh");
    let remote = format!("devbox/{local}");
    fleet.wait_listed(&remote);
    (fleet, remote)
}

#[test]
fn the_hub_lists_satellite_panes_and_routes_the_target_verbs() {
    let (fleet, remote) = fleet_with_devbox();
    let hub_pane = fleet.hub.new_session("home", &["sh"]);
    let listing = fleet.listing();
    assert_eq!(listing["schema_version"], 3);
    assert_eq!(listing["terminals"], serde_json::json!([hub_pane, remote]));
    assert_eq!(listing["unreachable"], serde_json::json!([]));
    // Satellite sessions are not merged (their ids would collide with the hub's).
    assert_eq!(listing["sessions"].as_array().unwrap().len(), 1);

    let status = json(&fleet.run(&["status", "--json"]));
    assert_eq!(status["satellite_terminals"], serde_json::json!([remote]));

    // send-keys, then snapshot shows the satellite's screen.
    let output = fleet.run(&["send-keys", &remote, "echo from-the-satellite", "Enter"]);
    assert!(output.status.success(), "send-keys: {}", stderr(&output));
    let output = fleet.run(&[
        "wait",
        "--json",
        "--until",
        "from-the-satellite",
        "--timeout",
        "10",
        &remote,
    ]);
    assert!(output.status.success(), "wait: {}", stderr(&output));
    let snapshot = json(&fleet.run(&["snapshot", "--json", &remote]));
    let text = snapshot["lines"].to_string();
    assert!(text.contains("from-the-satellite"), "{text}");

    // run mirrors the satellite command's exit code.
    let output = fleet.run(&["run", "--json", &remote, "echo ran-there; (exit 3)"]);
    assert_eq!(output.status.code(), Some(3), "run: {}", stderr(&output));
    assert!(json(&output)["output"].to_string().contains("ran-there"));
    // ... and ran there, not in the hub's own pane of the same number.
    let hub_text = json(&fleet.run(&["snapshot", "--json", &hub_pane]))["lines"].to_string();
    assert!(!hub_text.contains("ran-there"), "{hub_text}");

    // paste, resize, tag (rows name the pane as the hub addresses it), signal.
    let output = fleet.run(&["paste", &remote, "echo pasted-there\n"]);
    assert!(output.status.success(), "paste: {}", stderr(&output));
    let resized = json(&fleet.run(&["resize", "--json", &remote, "100x30"]));
    assert_eq!(
        resized["applied"],
        serde_json::json!({"cols": 100, "rows": 30})
    );
    // The id is the satellite's: the document says whose (the hub's own @N is another pane).
    assert_eq!(resized["satellite"], "devbox", "{resized}");
    let tagged = json(&fleet.run(&["tag", "add", "--json", &remote, "far"]));
    assert_eq!(
        tagged["terminals"],
        serde_json::json!([{"terminal": remote, "tags": ["far"]}])
    );

    // ask names the pane as the hub addresses it.
    let asked = json(&fleet.run(&["ask", "--json", &remote, "proceed?"]));
    assert_eq!(asked["terminal"], remote.as_str());

    // rec records the satellite pane at the hub (with the satellite's read timestamps).
    let cast = fleet.dir.path().join("far.cast");
    let rec = fleet
        .phux(&[
            "rec",
            &remote,
            "-o",
            cast.to_str().unwrap(),
            "--duration",
            "2",
            "--json",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The recording must be under way (through the hub and the link) before the line is typed.
    std::thread::sleep(Duration::from_millis(500));
    let output = fleet.run(&["send-keys", &remote, "echo recorded-far-away", "Enter"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let recorded = wait_output("rec", rec, Duration::from_secs(20));
    assert!(recorded.status.success(), "rec: {}", stderr(&recorded));
    let text = std::fs::read_to_string(&cast).unwrap();
    assert!(text.contains("recorded-far-away"), "{text}");

    // play runs the cast in a pane on the satellite (the file at the same path there).
    let played = json(&fleet.run(&["play", "--json", cast.to_str().unwrap(), &remote]));
    assert_eq!(played["satellite"], "devbox", "{played}");
    let player = format!("devbox/@{}", played["terminal_id"]);
    fleet.wait_listed(&player);
    let output = fleet.run(&[
        "wait",
        "--json",
        "--until",
        "recorded-far-away",
        "--timeout",
        "10",
        &player,
    ]);
    assert!(output.status.success(), "play: {}", stderr(&output));
    // In prose, play names the new pane by the pair too.
    let prose = fleet.run(&["play", cast.to_str().unwrap(), &remote]);
    let named = stdout(&prose);
    assert!(
        named.trim().starts_with("devbox/@"),
        "play printed {named:?}: {}",
        stderr(&prose)
    );

    // spawn --satellite creates a pane there, addressed by the pair.
    let spawned = json(&fleet.run(&[
        "spawn",
        "--satellite",
        "devbox",
        "--json",
        "--",
        "sleep",
        "600",
    ]));
    assert_eq!(spawned["satellite"], "devbox");
    let new_remote = format!("devbox/@{}", spawned["terminal_id"]);
    fleet.wait_listed(&new_remote);
    let output = fleet.run(&["signal", &new_remote, "terminate"]);
    assert!(output.status.success(), "signal: {}", stderr(&output));
    wait_until(
        "the signalled pane is gone",
        Duration::from_secs(10),
        || {
            !fleet.listing()["terminals"]
                .to_string()
                .contains(&new_remote)
        },
    );

    // The readable snapshot names the pane as the hub addresses it.
    let prose = stdout(&fleet.run(&["snapshot", &remote]));
    assert!(prose.starts_with(&format!("┌─ {remote} ")), "{prose}");

    // A miss on a reachable satellite is no_such_target, exit 1, naming NAME/@N.
    let output = fleet.run(&["snapshot", "--json", "devbox/@999"]);
    assert!(output.stdout.is_empty());
    assert_eq!(error_line(&output)["error"]["code"], "no_such_target");
    assert!(
        stderr(&output).contains("devbox/@999"),
        "{}",
        stderr(&output)
    );
    assert_eq!(output.status.code(), Some(1));
    let output = fleet.run(&["kill", "devbox/@999"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));

    // Agent records and layout edits are hub-local: satellite_target, exit 2, nothing read.
    for args in [
        vec!["agent", "wait", "--json", "--timeout", "1", remote.as_str()],
        vec!["agent", "send-keys", "--json", remote.as_str(), "x"],
        vec!["insert-pane", "--json", remote.as_str(), hub_pane.as_str()],
    ] {
        let output = fleet.run(&args);
        assert!(output.stdout.is_empty(), "{args:?}");
        assert_eq!(
            error_line(&output)["error"]["code"],
            "satellite_target",
            "{args:?}"
        );
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
    // The refusal names the verb that was run.
    for verb in ["show", "explain"] {
        let output = fleet.run(&["agent", verb, "--json", remote.as_str()]);
        let message = error_line(&output)["error"]["message"].to_string();
        assert!(
            message.contains(&format!("agent {verb} reads")),
            "{message}"
        );
    }

    // kill removes the satellite pane.
    let output = fleet.run(&["kill", &remote]);
    assert!(output.status.success(), "kill: {}", stderr(&output));
    assert!(!fleet.listing()["terminals"].to_string().contains(&remote));
}

/// `#tag` is a search over every pane of the fleet: `tag ls` and `kill` act on the matches on
/// every server, a single-pane verb reaches a tagged pane that lives only on a satellite.
#[test]
fn a_tag_is_a_search_over_the_whole_fleet() {
    let (fleet, remote) = fleet_with_devbox();
    let hub_pane = fleet.hub.new_session("home", &["sh"]);
    let spare = fleet.hub.new_session("spare", &["sh"]);
    for (pane, tag) in [(&remote, "build"), (&hub_pane, "build"), (&remote, "far")] {
        let output = fleet.run(&["tag", "add", pane, tag]);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    let every = json(&fleet.run(&["tag", "ls", "--json"]));
    assert_eq!(
        every["terminals"],
        serde_json::json!([
            {"terminal": hub_pane, "tags": ["build"]},
            {"terminal": spare, "tags": []},
            {"terminal": remote, "tags": ["build", "far"]},
        ])
    );
    let built = json(&fleet.run(&["tag", "ls", "--json", "#build"]));
    assert_eq!(
        built["terminals"],
        serde_json::json!([
            {"terminal": hub_pane, "tags": ["build"]},
            {"terminal": remote, "tags": ["build", "far"]},
        ])
    );

    // No hub pane is tagged far: the one on the satellite is found there.
    let output = fleet.run(&["send-keys", "#far", "echo found-by-tag", "Enter"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = fleet.run(&["wait", "--until", "found-by-tag", "--timeout", "10", "#far"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let snapshot = json(&fleet.run(&["snapshot", "--json", "#far"]));
    assert!(snapshot["lines"].to_string().contains("found-by-tag"));

    // A tag nobody has is a plain miss against a complete fleet.
    let output = fleet.run(&["tag", "ls", "--json", "#nobody"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(error_line(&output)["error"]["code"], "no_such_target");

    let output = fleet.run(&["kill", "#build"]);
    assert!(output.status.success(), "{}", stderr(&output));
    wait_until(
        "both tagged panes are gone",
        Duration::from_secs(10),
        || fleet.listing()["terminals"] == serde_json::json!([spare]),
    );
}

#[test]
fn an_unreachable_satellite_is_reported_and_a_miss_is_a_partial_view() {
    let (mut fleet, remote) = fleet_with_devbox();
    let hub_pane = fleet.hub.new_session("home", &["sh"]);
    fleet.set_down("devbox", true);
    fleet.satellites.get_mut("devbox").unwrap().crash();
    wait_until("the hub sees devbox go", Duration::from_secs(20), || {
        !fleet.listing()["unreachable"]
            .as_array()
            .unwrap()
            .is_empty()
    });
    let output = fleet.run(&["ls", "--json"]);
    assert_eq!(output.status.code(), Some(0));
    let listing = json(&output);
    assert_eq!(listing["terminals"], serde_json::json!([hub_pane]));
    let unreachable = listing["unreachable"].as_array().unwrap();
    assert_eq!(unreachable.len(), 1);
    assert!(unreachable[0]
        .as_str()
        .unwrap()
        .contains("satellite devbox is unreachable"));
    assert!(stderr(&output).contains("partial"), "ls warns on stderr");

    // kill and tag spend exit 3; the shared-resolver verbs keep 1 with the partial_view code.
    for (args, exit) in [
        (vec!["kill", remote.as_str()], 3),
        (vec!["kill", "@999"], 3),
        (vec!["tag", "ls", "--json", remote.as_str()], 3),
        (vec!["tag", "ls", "--json", "#nobody"], 3),
        (vec!["kill", "#nobody"], 3),
        // The agent record verbs spend 3 alike for a `#tag` and an `@N` (issue 54's audit).
        (vec!["agent", "set", "--name", "x", "#nobody"], 3),
        (vec!["agent", "set", "--name", "x", "@99"], 3),
        (vec!["agent", "clear", "#nobody"], 3),
        (vec!["snapshot", "--json", "#nobody"], 1),
        (vec!["snapshot", "--json", remote.as_str()], 1),
        (vec!["snapshot", "--json", "@999"], 1),
        (vec!["send-keys", remote.as_str(), "x"], 1),
        // §5.2 holds for the stream verbs too (they once answered no_such_target).
        (vec!["agent", "wait", "--json", "--timeout", "1", "@99"], 1),
        (vec!["watch", "--json", "--timeout", "1", "@99"], 1),
        (vec!["wait", "--json", "--timeout", "1", "@99"], 1),
    ] {
        let output = fleet.run(&args);
        assert_eq!(
            output.status.code(),
            Some(exit),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(output.stdout.is_empty(), "{args:?}");
        let message = stderr(&output);
        assert!(!message.contains("no such target"), "{args:?}: {message}");
        if args.contains(&"--json") {
            assert_eq!(
                error_line(&output)["error"]["code"],
                "partial_view",
                "{args:?}"
            );
        }
    }
    // Sessions are the hub's own: a miss of one keeps its confident answer, with the warning.
    let output = fleet.run(&["rename", "nosuch", "other"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("no session named nosuch"),
        "{}",
        stderr(&output)
    );
    assert!(stderr(&output).contains("partial"), "{}", stderr(&output));
    // A local pane still resolves, with a warning.
    let output = fleet.run(&["snapshot", &hub_pane]);
    assert!(output.status.success());
    // A tag the hub's pane has may be on the satellite's too: the answer warns that it is
    // partial (§4.17), ahead of the document.
    assert!(fleet
        .run(&["tag", "add", &hub_pane, "build"])
        .status
        .success());
    let output = fleet.run(&["tag", "ls", "--json", "#build"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("partial"), "{}", stderr(&output));
    assert_eq!(
        json(&output)["terminals"][0]["tags"],
        serde_json::json!(["build"])
    );
}

/// Starts `phux watch --json TARGET` and says whether it reported an event of the pane while
/// the test typed into it for a few seconds.
fn watch_hears(fleet: &Fleet, target: &str) -> (std::process::Child, bool) {
    let mut watch = fleet
        .phux(&["watch", "--json", target])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut events = std::io::BufReader::new(watch.stdout.take().unwrap());
    let (seen_tx, seen_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        // Keep reading to the end: a closed pipe would end the watch with exit 0.
        let mut line = String::new();
        while std::io::BufRead::read_line(&mut events, &mut line).unwrap_or(0) > 0 {
            let _ = seen_tx.send(std::mem::take(&mut line));
        }
    });
    // `dirty` fires on the first output after the pane settled and `idle` IDLE_SETTLE after
    // the last: wait longer than that between keys, or keys sent faster keep the pane dirty and a
    // watch that subscribed after the first output hears nothing (the pane is never idle).
    let heard = (0..20).any(|_| {
        let _ = fleet.run(&["send-keys", target, "echo tick", "Enter"]);
        seen_rx
            .recv_timeout(
                phux_core::documents::watch_event::IDLE_SETTLE * 2 + Duration::from_millis(200),
            )
            .is_ok()
    });
    (watch, heard)
}

/// A watch of a satellite pane reports its events and ends with `server_disconnected` when the
/// satellite goes.
#[test]
fn a_watch_of_a_satellite_pane_hears_its_events_and_ends_when_the_satellite_goes() {
    let (mut fleet, remote) = fleet_with_devbox();
    let (mut watch, heard) = watch_hears(&fleet, &remote);
    if !heard {
        let _ = watch.kill();
        let output = watch.wait_with_output().unwrap();
        panic!(
            "the watch reported no event; it ended with {:?}: {}",
            output.status,
            stderr(&output)
        );
    }
    fleet.satellites.get_mut("devbox").unwrap().crash();
    let output = wait_output("watch", watch, Duration::from_secs(15));
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("server_disconnected"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_satellite_killed_mid_wait_and_rec_ends_them_and_the_link_comes_back() {
    let (mut fleet, remote) = fleet_with_devbox();
    // The link is up once a routed verb reaches the pane.
    wait_until(
        "the satellite pane takes keys",
        Duration::from_secs(10),
        || {
            fleet
                .run(&["send-keys", &remote, "echo tick", "Enter"])
                .status
                .success()
        },
    );
    let wait = fleet
        .phux(&["wait", "--json", "--until", "never-printed", &remote])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let cast = fleet.dir.path().join("cut.cast");
    let rec = fleet
        .phux(&["rec", "--json", &remote, "-o", cast.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The recording must be under way (through the hub and the link) before the line is typed.
    std::thread::sleep(Duration::from_millis(500));
    let output = fleet.run(&["send-keys", &remote, "echo before-the-cut", "Enter"]);
    assert!(output.status.success(), "{}", stderr(&output));
    wait_until(
        "the recording has the line",
        Duration::from_secs(10),
        || std::fs::read_to_string(&cast).is_ok_and(|t| t.contains("before-the-cut")),
    );
    fleet.satellites.get_mut("devbox").unwrap().crash();
    let recorded = wait_output("rec", rec, Duration::from_secs(15));
    assert_eq!(recorded.status.code(), Some(1), "{}", stderr(&recorded));
    assert_eq!(
        error_line(&recorded)["error"]["code"],
        "server_disconnected"
    );
    assert!(std::fs::read_to_string(&cast)
        .unwrap()
        .contains("before-the-cut"));
    let waited = wait_output("wait", wait, Duration::from_secs(15));
    assert_eq!(waited.status.code(), Some(1), "{}", stderr(&waited));
    assert!(waited.stdout.is_empty());
    let code = error_line(&waited)["error"]["code"].clone();
    assert!(
        code == "server_disconnected",
        "wait ends when the satellite goes: {}",
        stderr(&waited)
    );
    wait_until(
        "the hub sees the link drop",
        Duration::from_secs(20),
        || {
            !fleet.listing()["unreachable"]
                .as_array()
                .unwrap()
                .is_empty()
        },
    );
    // The hub dials again; `phux proxy` starts a new server there, which the hub then lists.
    wait_until("the link comes back", Duration::from_secs(30), || {
        fleet.listing()["unreachable"]
            .as_array()
            .unwrap()
            .is_empty()
    });
    let output = fleet.run(&[
        "spawn",
        "--satellite",
        "devbox",
        "--json",
        "--",
        "sleep",
        "60",
    ]);
    assert!(
        output.status.success(),
        "spawn after reconnect: {}",
        stderr(&output)
    );
    let spawned = json(&output);
    let back = format!("devbox/@{}", spawned["terminal_id"]);
    fleet.wait_listed(&back);
    // The new server there was started by the proxy: stop it.
    let _ = fleet.run(&["kill", &back]);
}

fn wait_output(what: &str, child: std::process::Child, limit: Duration) -> std::process::Output {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("{what} did not end within {limit:?}"))
        .expect("output")
}

#[test]
fn host_registry_documents_and_refusals() {
    let fleet = Fleet::start();
    let config = fleet.config();
    let added = json(&fleet.run(&[
        "host",
        "add",
        "edge",
        "ssh://me@edge.example:2222",
        "--role",
        "satellite",
        "--disabled",
        "--json",
    ]));
    assert_eq!(
        added,
        serde_json::json!({"schema_version": 1, "host": {
            "name": "edge", "role": "satellite", "endpoint": "ssh://me@edge.example:2222",
            "enabled": false, "token_file": null, "cert_fingerprint": null, "session": null}})
    );
    let remote = json(&fleet.run(&[
        "host",
        "add",
        "box",
        "ssh://box",
        "--session",
        "work",
        "--json",
    ]));
    assert_eq!(remote["host"]["role"], "remote");
    assert_eq!(remote["host"]["enabled"], serde_json::Value::Null);
    assert_eq!(remote["host"]["session"], "work");
    let listed = json(&fleet.run(&["host", "ls", "--json"]));
    assert_eq!(listed["hosts"].as_array().unwrap().len(), 2);
    let satellites = json(&fleet.run(&["host", "ls", "--role", "satellite", "--json"]));
    assert_eq!(satellites["hosts"][0]["name"], "edge");
    assert_eq!(satellites["hosts"].as_array().unwrap().len(), 1);
    // The user's comment is kept.
    assert!(std::fs::read_to_string(&config)
        .unwrap()
        .starts_with("# the hub's config\n"));

    for args in [
        vec!["host", "add", "x", "ssh://-oProxyCommand=x", "--json"],
        vec!["host", "add", "x", "ssh://host;rm", "--json"],
        vec!["host", "add", "x", "ssh://host rm", "--json"],
        vec!["host", "add", "x", "devbox", "--json"],
        vec!["host", "add", ".bad", "ssh://h", "--json"],
        vec!["host", "add", "a/b", "ssh://h", "--json"],
        vec!["host", "add", "edge", "ssh://other", "--json"],
        vec!["host", "rm", "nothere", "--json"],
    ] {
        let output = fleet.run(&args);
        assert!(output.stdout.is_empty(), "{args:?}: {}", stdout(&output));
        assert_eq!(error_line(&output)["error"]["code"], "registry", "{args:?}");
        assert_eq!(output.status.code(), Some(1), "{args:?}");
    }
    let removed = json(&fleet.run(&["host", "rm", "edge", "--json"]));
    assert_eq!(
        removed,
        serde_json::json!({"schema_version": 1, "removed": {"name": "edge", "role": "satellite"}})
    );
    // A broken registry entry is reported with its file and line.
    std::fs::write(
        &config,
        "[[satellites]]\nname = \"x\"\nendpoint = \"ssh://h;x\"\n",
    )
    .unwrap();
    let output = fleet.run(&["host", "ls", "--json"]);
    let message = error_line(&output)["error"]["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(message.contains("config.toml:1"), "{message}");
}

#[test]
fn enroll_checks_the_host_then_adds_it_and_the_hub_dials_it_without_a_restart() {
    let mut fleet = Fleet::start();
    // Not reachable: a clear failure naming what to run, nothing added.
    let output = fleet.run(&["host", "enroll", "nowhere", "--json"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let line = error_line(&output);
    assert!(
        line["remedy"].as_str().unwrap().contains("phux proxy"),
        "{line}"
    );
    assert!(json(&fleet.run(&["host", "ls", "--json"]))["hosts"]
        .as_array()
        .unwrap()
        .is_empty());
    // A reachable one is added as a satellite and dialed by the running hub.
    let empty = fleet.dir.path().join("satellite-config.toml");
    std::fs::write(&empty, "").unwrap();
    let server = phux_tests::TestServer::start_with_env(&[], &[("PHUX_CONFIG", empty.as_os_str())]);
    let pane = server.plain_shell("w", "sh");
    fleet.point("build-box", &server.socket);
    let enrolled = json(&fleet.run(&["host", "enroll", "me@build-box", "--json"]));
    assert_eq!(enrolled["host"]["name"], "build-box");
    assert_eq!(enrolled["host"]["endpoint"], "ssh://me@build-box");
    assert_eq!(enrolled["host"]["role"], "satellite");
    fleet.satellites.insert("build-box".into(), server);
    fleet.wait_listed(&format!("build-box/{pane}"));
    // Removing it drops the link without a restart.
    let output = fleet.run(&["host", "rm", "build-box"]);
    assert!(output.status.success());
    wait_until("the hub forgets build-box", Duration::from_secs(10), || {
        !fleet.listing()["terminals"]
            .to_string()
            .contains("build-box")
    });
    let _ = run_with_deadline; // (used by other cases through the fleet)
}

#[test]
fn a_satellite_over_a_real_sshd_on_localhost() {
    let empty = tempfile::NamedTempFile::new().unwrap();
    let satellite =
        phux_tests::TestServer::start_with_env(&[], &[("PHUX_CONFIG", empty.path().as_os_str())]);
    let sshd = match phux_tests::sshd::Sshd::start(&satellite.socket) {
        Ok(sshd) => sshd,
        Err(why) => {
            phux_tests::missing(&format!("an sshd on localhost ({why})"));
            return;
        }
    };
    let fleet = Fleet::start_with_ssh(Some(&sshd.ssh_command()));
    let pane = satellite.plain_shell("w", "sh");
    // Given the time enroll gives a host to answer (30 s), so a slow login fails with what ssh
    // said rather than being cut short.
    let enrolled = run_with_deadline(
        &mut fleet.phux(&[
            "host",
            "enroll",
            &sshd.endpoint(),
            "--name",
            "real",
            "--json",
        ]),
        Duration::from_secs(45),
    );
    assert!(
        enrolled.status.success(),
        "enroll: {}\nsshd's log: {}",
        stderr(&enrolled),
        sshd.log()
    );
    let remote = format!("real/{pane}");
    fleet.wait_listed(&remote);
    let output = fleet.run(&["run", "--json", &remote, "echo over-ssh"]);
    assert!(output.status.success(), "run: {}", stderr(&output));
    assert!(json(&output)["output"].to_string().contains("over-ssh"));
}

#[test]
fn an_old_satellite_is_refused_with_a_clear_code() {
    // A far side whose `phux proxy` speaks protocol 0.9: its hello, then it idles.
    let dir = tempfile::tempdir().unwrap();
    let hello = br#"{"protocol":{"major":0,"minor":9},"version":"0.0.9"}"#;
    let mut frame = vec![0, 0, 0, 0];
    frame.extend_from_slice(&u32::try_from(hello.len()).unwrap().to_be_bytes());
    frame.extend_from_slice(hello);
    std::fs::write(dir.path().join("hello.bin"), frame).unwrap();
    let script = dir.path().join("old-ssh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncat '{}'\nexec cat >/dev/null\n",
            dir.path().join("hello.bin").display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let fleet = Fleet::start_with_ssh(Some(script.to_str().unwrap()));
    let refused = fleet.run(&["host", "enroll", "old", "--json"]);
    assert_eq!(refused.status.code(), Some(1));
    assert_eq!(error_line(&refused)["error"]["code"], "server_too_old");
    let output = fleet.run(&["host", "add", "old", "ssh://old", "--role", "satellite"]);
    assert!(output.status.success(), "{}", stderr(&output));
    wait_until(
        "the hub refuses the old satellite",
        Duration::from_secs(20),
        || {
            fleet.listing()["unreachable"]
                .to_string()
                .contains("protocol 0.9")
        },
    );
    let output = fleet.run(&["snapshot", "--json", "old/@1"]);
    assert_eq!(error_line(&output)["error"]["code"], "server_too_old");
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn attach_to_a_remote_host_shows_its_session_over_the_link() {
    let fleet = Fleet::start();
    let empty = fleet.dir.path().join("remote-config.toml");
    std::fs::write(&empty, "").unwrap();
    let far = phux_tests::TestServer::start_with_env(&[], &[("PHUX_CONFIG", empty.as_os_str())]);
    let pane = far.plain_shell("farwork", "sh");
    far.send_keys(&pane, &["echo on-the-far-host", "Enter"]);
    far.wait_for_text(&pane, "on-the-far-host");
    fleet.point("box", &far.socket);
    let output = fleet.run(&["host", "add", "box", "ssh://box", "--session", "farwork"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let argv = vec![
        phux_tests::phux_bin().display().to_string(),
        "attach".to_owned(),
        "box".to_owned(),
    ];
    let env = vec![
        (
            "PHUX_SOCKET".to_owned(),
            fleet.hub.socket.display().to_string(),
        ),
        (
            "PHUX_CONFIG".to_owned(),
            fleet.config().display().to_string(),
        ),
        ("PHUX_SSH".to_owned(), fleet.ssh_command()),
        (
            "FLEET_DIR".to_owned(),
            fleet.dir.path().display().to_string(),
        ),
        (
            "PHUX_BIN".to_owned(),
            phux_tests::phux_bin().display().to_string(),
        ),
        ("SHELL".to_owned(), "/bin/sh".to_owned()),
    ];
    let tui = phux_tests::outer_screen::AttachedTui::spawn(argv, env, fleet.dir.path(), 80, 24);
    tui.wait_for_text("[farwork]");
    tui.wait_for_text("on-the-far-host");
    // Typing goes to the far pane.
    tui.type_bytes(b"echo typed-through-the-link\r");
    far.wait_for_text(&pane, "typed-through-the-link");
}
