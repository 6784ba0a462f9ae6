//! `phux update` with a server running: moved to the new binary, or left as it was when that binary cannot take over.

use super::*;

/// A server running from the installed binary, on the machine's socket, with one `sh` pane.
struct InstalledServer {
    child: Child,
}

impl InstalledServer {
    fn start(m: &Machine) -> InstalledServer {
        std::fs::copy(phux_tests::phux_bin(), m.installed()).unwrap();
        let sock = m.dir.path().join("sock");
        std::fs::set_permissions(&sock, std::os::unix::fs::PermissionsExt::from_mode(0o700))
            .unwrap();
        let child = Command::new(m.installed())
            .args(["server", "--no-seed"])
            .env("PHUX_SOCKET", sock.join("phux.sock"))
            .env("PHUX_CONFIG", m.dir.path().join("config.toml"))
            .env("SHELL", "/bin/sh")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // The user's HOME for these calls: the server loads the engine installed there.
        let status = || {
            let mut c = m.phux(&["status", "--json"]);
            c.env_remove("HOME");
            if let Some(home) = std::env::var_os("HOME") {
                c.env("HOME", home);
            }
            run(&mut c)
        };
        wait_until(
            "the installed server answers",
            Duration::from_secs(15),
            || status().status.success(),
        );
        let out = run(&mut m.phux(&["new", "-d", "-s", "keep", "--", "sh"]));
        assert!(out.status.success(), "{}", stderr(&out));
        InstalledServer { child }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for InstalledServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn snapshot_of(m: &Machine) -> serde_json::Value {
    json(&run(&mut m.phux(&[
        "snapshot",
        "--json",
        "--scrollback",
        "keep",
    ])))
}

#[test]
fn update_moves_a_running_server_to_the_new_binary_keeping_its_panes() {
    let m = Machine::new();
    let server = InstalledServer::start(&m);
    let before = snapshot_of(&m);
    m.publish("v9.9.9", PLATFORM, Archive::ThisPhux, Checksum::Right);
    let out = run_with_deadline(&mut m.phux(&["update", "--json"]), Duration::from_secs(120));
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["action"], "installed", "{doc}");
    assert_eq!(doc["server_running"], true);
    assert_eq!(doc["server_upgraded"], true);
    let status = json(&run(&mut m.phux(&["status", "--json"])));
    assert_eq!(status["pid"], server.pid(), "the same process, re-exec'd");
    assert_eq!(snapshot_of(&m), before, "the pane as it was");
}

#[test]
fn update_leaves_the_server_running_when_the_new_binary_cannot_take_over() {
    let m = Machine::new();
    let server = InstalledServer::start(&m);
    let before = snapshot_of(&m);
    // The release's "phux" answers --version but is no server.
    m.publish("v9.9.9", PLATFORM, Archive::Good, Checksum::Right);
    let out = m.update(&[]);
    let (code, exit, remedy) = failure(&out);
    assert_eq!((code.as_str(), exit), ("upgrade_failed", 1));
    assert!(remedy.contains("--rollback"), "{remedy}");
    assert_eq!(
        m.installed_text(),
        NEW,
        "the binary is installed all the same"
    );
    let status = json(&run(&mut m.phux(&["status", "--json"])));
    assert_eq!(status["pid"], server.pid());
    assert_eq!(snapshot_of(&m), before);
}
