//! `phux service`: the unit file, written once however often it is installed, where systemd does not run.

use super::*;

#[test]
fn service_install_writes_an_idempotent_unit_and_status_reports_without_systemd() {
    let (dir, phux) = fresh();
    let unit = dir.path().join("home/.config/systemd/user/phux.service");
    let out = run(&mut phux(&["service", "install", "--json"]));
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["unit"], unit.display().to_string());
    assert_eq!(doc["changed"], true);
    let text = std::fs::read_to_string(&unit).unwrap();
    let socket = dir.path().join("sock/phux.sock");
    let exec = format!(
        "ExecStart={} --socket {} server --no-seed\n",
        phux_tests::phux_bin().display(),
        socket.display()
    );
    assert!(text.contains(&exec), "{text}");
    assert!(!text.contains("workspace restore"), "{text}");

    let again = json(&run(&mut phux(&["service", "install", "--json"])));
    assert_eq!(again["changed"], false, "a second install changes nothing");

    let restore = json(&run(&mut phux(&[
        "service",
        "install",
        "--restore",
        "--json",
    ])));
    golden("docs/service_install.json", &pinned(&restore, dir.path()));
    assert_eq!(restore["changed"], true);
    let text = std::fs::read_to_string(&unit).unwrap();
    let archive = restore["restore"].as_str().unwrap();
    assert!(
        text.contains(&format!("workspace restore {archive}\n")),
        "{text}"
    );
    assert!(
        text.contains(&format!("workspace save -o {archive}\n")),
        "{text}"
    );

    // This machine runs no systemd: status says so and still succeeds.
    let status = run(&mut phux(&["service", "status"]));
    assert!(status.status.success(), "{}", stderr(&status));
    assert!(
        stdout(&status).contains("(installed)"),
        "{}",
        stdout(&status)
    );
    assert!(
        stdout(&status).contains("systemctl not available"),
        "{}",
        stdout(&status)
    );
    let status = json(&run(&mut phux(&["service", "status", "--json"])));
    golden("docs/service_status.json", &pinned(&status, dir.path()));
    assert_eq!(status["installed"], true);
    assert_eq!(status["systemctl"], false);
    assert_eq!(status["enabled"], serde_json::Value::Null);

    let removed = json(&run(&mut phux(&["service", "uninstall", "--json"])));
    assert_eq!(removed["removed"], true);
    assert!(!unit.exists());
    let again = json(&run(&mut phux(&["service", "uninstall", "--json"])));
    assert_eq!(again["removed"], false);
    let status = json(&run(&mut phux(&["service", "status", "--json"])));
    assert_eq!(status["installed"], false);
}

#[test]
fn the_service_s_server_starts_with_the_listener_the_running_server_has() {
    let (dir, phux) = fresh();
    let tokens = dir.path().join("state/remote-tokens");
    let with_store = |args: &[&str]| {
        let mut command = phux(args);
        command
            .env("PHUX_WS_TOKENS", &tokens)
            .env_remove("PHUX_WS_ADDR");
        command
    };
    // Without a listener: no environment beyond what the server reads itself.
    let printed = stdout(&run(&mut with_store(&["service", "install", "--print"])));
    assert!(!printed.contains("PHUX_WS_ADDR"), "{printed}");
    assert!(
        printed.contains(&format!(
            "Environment=\"PHUX_WS_TOKENS={}\"\n",
            tokens.display()
        )),
        "{printed}"
    );
    // A listener started on the running server is carried into the unit.
    let started = json(&run(&mut with_store(&["listen", "127.0.0.1:0", "--json"])));
    let addr = started["addr"].as_str().unwrap().to_owned();
    let printed = stdout(&run(&mut with_store(&["service", "install", "--print"])));
    let environment = format!("Environment=\"PHUX_WS_ADDR={addr}\"\n");
    let exec = printed.find("ExecStart=").unwrap();
    assert!(printed[..exec].contains(&environment), "{printed}");
    // `--ws-addr` outranks it; the document says what the unit starts.
    let doc = json(&run(&mut with_store(&[
        "service",
        "install",
        "--ws-addr",
        "127.0.0.1:8799",
        "--json",
    ])));
    assert_eq!(doc["ws_addr"], "127.0.0.1:8799", "{doc}");
    let unit = std::fs::read_to_string(doc["unit"].as_str().unwrap()).unwrap();
    assert!(
        unit.contains("Environment=\"PHUX_WS_ADDR=127.0.0.1:8799\"\n"),
        "{unit}"
    );
    let _ = run(&mut with_store(&["kill", "--server"]));
}

/// A plist's text with this run's paths named: `$TMP` the test's directory, `$PHUX` the binary.
fn pinned_plist(text: &str, dir: &Path) -> String {
    text.replace(&phux_tests::phux_bin().display().to_string(), "$PHUX")
        .replace(&dir.display().to_string(), "$TMP")
}

/// The plist as macOS reads it (Python's plistlib, a strict reader), as JSON.
fn parsed_plist(path: &Path) -> serde_json::Value {
    let out = run(Command::new("python3")
        .arg("-c")
        .arg(
            "import json, plistlib, sys; print(json.dumps(plistlib.load(open(sys.argv[1], 'rb'))))",
        )
        .arg(path));
    assert!(out.status.success(), "not a valid plist: {}", stderr(&out));
    json(&out)
}

#[test]
fn service_install_writes_a_launchd_plist_where_launchd_is_the_manager() {
    let (dir, phux) = fresh();
    let launchd = |args: &[&str]| {
        let mut command = phux(args);
        command.env("PHUX_SERVICE_MANAGER", "launchd");
        command
    };
    let plist = dir
        .path()
        .join("home/Library/LaunchAgents/phux.server.plist");
    let doc = json(&run(&mut launchd(&["service", "install", "--json"])));
    assert_eq!(doc["manager"], "launchd");
    assert_eq!(doc["unit"], plist.display().to_string());
    assert_eq!(doc["changed"], true);
    // No launchctl here: the file is written, nothing is loaded.
    assert_eq!(doc["systemctl"], false);
    assert_eq!(doc["enabled"], serde_json::Value::Null);
    let text = std::fs::read_to_string(&plist).unwrap();
    golden(
        "docs/service_launchd.plist",
        &pinned_plist(&text, dir.path()),
    );
    let parsed = parsed_plist(&plist);
    assert_eq!(parsed["Label"], "phux.server");
    let socket = dir.path().join("sock/phux.sock");
    assert_eq!(
        parsed["ProgramArguments"],
        serde_json::json!([
            phux_tests::phux_bin().display().to_string(),
            "--socket",
            socket.display().to_string(),
            "server",
            "--no-seed"
        ])
    );
    assert!(
        dir.path().join("home/Library/Logs/phux").is_dir(),
        "the log's directory is made: launchd does not make it"
    );
    let again = json(&run(&mut launchd(&["service", "install", "--json"])));
    assert_eq!(again["changed"], false, "a second install changes nothing");
    let printed = run(&mut launchd(&["service", "install", "--print"]));
    assert_eq!(stdout(&printed).trim_end(), text.trim_end());

    let restore = json(&run(&mut launchd(&[
        "service",
        "install",
        "--restore",
        "--json",
    ])));
    assert_eq!(restore["changed"], true);
    let text = std::fs::read_to_string(&plist).unwrap();
    golden(
        "docs/service_launchd_restore.plist",
        &pinned_plist(&text, dir.path()),
    );
    let arguments = parsed_plist(&plist)["ProgramArguments"].clone();
    assert_eq!(arguments[0], "/bin/sh");
    assert_eq!(arguments[6], restore["restore"]);

    let status = json(&run(&mut launchd(&["service", "status", "--json"])));
    assert_eq!(status["manager"], "launchd");
    assert_eq!(status["installed"], true);
    assert_eq!(status["systemctl"], false);
    let removed = json(&run(&mut launchd(&["service", "uninstall", "--json"])));
    assert_eq!(removed["removed"], true);
    assert!(!plist.exists());

    // A manager phux does not know is refused, and nothing is written.
    let mut unknown = phux(&["service", "install", "--json"]);
    unknown.env("PHUX_SERVICE_MANAGER", "runit");
    let (code, status, _) = failure(&run(&mut unknown));
    assert_eq!((code.as_str(), status), ("invalid_argument", 2));
}

/// The wrapper a `--restore` plist runs (launchd has no start and stop hooks), run here as
/// launchd would: it starts the server and restores the archive; launchd's SIGTERM saves the
/// workspace and stops the server; the next start brings the session back.
#[test]
fn the_launchd_restore_wrapper_saves_at_sigterm_and_restores_at_start() {
    let (dir, phux) = fresh();
    let launchd = |args: &[&str]| {
        let mut command = phux(args);
        command.env("PHUX_SERVICE_MANAGER", "launchd");
        command
    };
    let archive = dir.path().join("saved.json");
    let archive_arg = archive.display().to_string();
    let out = run(&mut launchd(&[
        "service",
        "install",
        "--restore",
        "--archive",
        &archive_arg,
        "--json",
    ]));
    assert!(out.status.success(), "{}", stderr(&out));
    let plist = dir
        .path()
        .join("home/Library/LaunchAgents/phux.server.plist");
    let arguments: Vec<String> = parsed_plist(&plist)["ProgramArguments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_owned())
        .collect();
    let start = || {
        // As launchd starts a job: its own process group, so SIGTERM reaches the wrapper only.
        let mut job = Command::new(&arguments[0]);
        job.args(&arguments[1..])
            .env("HOME", dir.path().join("home"))
            .env("PHUX_CONFIG", dir.path().join("config.toml"))
            .env("SHELL", "/bin/sh")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        std::os::unix::process::CommandExt::process_group(&mut job, 0);
        job.spawn().unwrap()
    };
    let answers = || run(&mut phux(&["status"])).status.success();
    let stop = |mut job: std::process::Child| {
        let pid = rustix::process::Pid::from_child(&job);
        rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
        let waited = std::time::Instant::now();
        let status = loop {
            if let Some(status) = job.try_wait().unwrap() {
                break status;
            }
            assert!(
                waited.elapsed() < Duration::from_secs(20),
                "the wrapper ends after SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        assert!(
            status.success(),
            "a stop is no failure to launchd: {status}"
        );
    };

    let job = start();
    wait_until("the server answers", Duration::from_secs(15), answers);
    let out = run(&mut phux(&["new", "-d", "-s", "kept", "--", "sh"]));
    assert!(out.status.success(), "{}", stderr(&out));
    stop(job);
    assert!(archive.is_file(), "SIGTERM saved the workspace");
    wait_until("the server stopped", Duration::from_secs(10), || !answers());

    let job = start();
    wait_until("the session is restored", Duration::from_secs(20), || {
        let out = run(&mut phux(&["ls", "--json"]));
        out.status.success() && stdout(&out).contains("\"kept\"")
    });
    stop(job);
    wait_until("the server stopped", Duration::from_secs(10), || !answers());
}
