//! A hub and its satellites on one machine: each satellite is a real server on its own socket,
//! and the hub reaches it through a stand-in for ssh (`PHUX_SSH`) that runs `phux proxy`
//! against the socket named for the host, so no sshd is needed. A host marked down makes the
//! stand-in fail the way ssh does when a machine is unreachable.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use crate::{phux_bin, run_with_deadline, wait_until, TestServer};

/// The stand-in for ssh: the argument before `phux proxy` is `[user@]host`.
const FAKE_SSH: &str = r#"#!/bin/sh
host=""; prev=""
for a in "$@"; do
  if [ "$a" = phux ]; then host=$prev; fi
  prev=$a
done
host=${host#*@}
if [ -e "$FLEET_DIR/$host.down" ] || [ ! -e "$FLEET_DIR/$host.socket" ]; then
  echo "ssh: connect to host $host port 22: Connection refused" >&2
  exit 255
fi
exec env PHUX_SOCKET="$(cat "$FLEET_DIR/$host.socket")" PHUX_CONFIG=/dev/null "$PHUX_BIN" proxy
"#;

pub struct Fleet {
    pub dir: tempfile::TempDir,
    pub hub: TestServer,
    pub satellites: BTreeMap<String, TestServer>,
}

impl Fleet {
    /// A hub with no satellites yet; its config file and stand-in ssh live in `dir`.
    pub fn start() -> Fleet {
        Self::start_with_ssh(None)
    }

    /// A hub whose `PHUX_SSH` is `ssh` (the stand-in when `None`).
    pub fn start_with_ssh(ssh: Option<&str>) -> Fleet {
        let dir = tempfile::Builder::new()
            .prefix("phux-fleet-")
            .tempdir()
            .expect("tempdir");
        let fake_ssh = dir.path().join("fake-ssh");
        std::fs::write(&fake_ssh, FAKE_SSH).expect("write fake ssh");
        std::fs::set_permissions(
            &fake_ssh,
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .expect("chmod fake ssh");
        let config = dir.path().join("config.toml");
        std::fs::write(&config, "# the hub's config\n").expect("write config");
        let bin = phux_bin();
        let ssh = match ssh {
            Some(command) => std::ffi::OsString::from(command),
            None => fake_ssh.into_os_string(),
        };
        std::fs::write(dir.path().join("ssh-command"), ssh.as_encoded_bytes())
            .expect("write ssh command");
        let env = [
            ("PHUX_CONFIG", config.as_os_str()),
            ("PHUX_SSH", ssh.as_os_str()),
            ("FLEET_DIR", dir.path().as_os_str()),
            ("PHUX_BIN", bin.as_os_str()),
        ];
        let hub = TestServer::start_with_env(&[], &env);
        Fleet {
            dir,
            hub,
            satellites: BTreeMap::new(),
        }
    }

    pub fn config(&self) -> PathBuf {
        self.dir.path().join("config.toml")
    }

    /// `phux ARGS` against the hub, with the hub's config and ssh.
    pub fn phux(&self, args: &[&str]) -> Command {
        let mut command = self.hub.phux(args);
        command
            .env("PHUX_CONFIG", self.config())
            .env("PHUX_SSH", self.ssh_command())
            .env("FLEET_DIR", self.dir.path())
            .env("PHUX_BIN", phux_bin());
        command
    }

    /// The hub's `PHUX_SSH`.
    pub fn ssh_command(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("ssh-command")).expect("ssh command")
    }

    pub fn run(&self, args: &[&str]) -> Output {
        run_with_deadline(&mut self.phux(args), Duration::from_secs(20))
    }

    /// Starts a satellite server named `name` and registers it with the hub.
    pub fn add_satellite(&mut self, name: &str) -> &TestServer {
        let empty = self.dir.path().join("satellite-config.toml");
        std::fs::write(&empty, "").expect("write satellite config");
        // As on a real satellite, `phux` is on the PATH of what runs there.
        let bin = phux_bin();
        let mut path = std::ffi::OsString::from(bin.parent().expect("bin dir"));
        path.push(":");
        path.push(std::env::var_os("PATH").unwrap_or_default());
        let server = TestServer::start_with_env(
            &[],
            &[
                ("PHUX_CONFIG", empty.as_os_str()),
                ("PATH", path.as_os_str()),
            ],
        );
        self.point(name, &server.socket);
        let output = self.run(&[
            "host",
            "add",
            name,
            &format!("ssh://{name}"),
            "--role",
            "satellite",
            "--json",
        ]);
        assert!(
            output.status.success(),
            "host add: {}",
            crate::stderr(&output)
        );
        self.satellites.insert(name.to_owned(), server);
        &self.satellites[name]
    }

    /// Makes the stand-in ssh reach `name` at `socket`.
    pub fn point(&self, name: &str, socket: &Path) {
        std::fs::write(
            self.dir.path().join(format!("{name}.socket")),
            socket.display().to_string(),
        )
        .expect("write socket pointer");
    }

    /// Makes `name` unreachable (or reachable again) for the stand-in ssh.
    pub fn set_down(&self, name: &str, down: bool) {
        let marker = self.dir.path().join(format!("{name}.down"));
        if down {
            std::fs::write(marker, "").expect("write down marker");
        } else {
            let _ = std::fs::remove_file(marker);
        }
    }

    /// The hub's `ls --json`.
    pub fn listing(&self) -> serde_json::Value {
        let output = self.run(&["ls", "--json"]);
        assert!(output.status.success(), "ls: {}", crate::stderr(&output));
        crate::json(&output)
    }

    /// Waits (up to 20 s) until the hub lists `terminal` and no satellite is unreachable.
    pub fn wait_listed(&self, terminal: &str) {
        wait_until(
            &format!("the hub lists {terminal} with every satellite reachable"),
            Duration::from_secs(20),
            || {
                let doc = self.listing();
                doc["unreachable"].as_array().is_some_and(Vec::is_empty)
                    && doc["terminals"]
                        .as_array()
                        .is_some_and(|t| t.iter().any(|v| v == terminal))
            },
        );
    }
}
