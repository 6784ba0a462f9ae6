//! A server with its remote listener on a free loopback port and its own token store: what the
//! remote tests and benchmarks start (`phux server --ws-addr 127.0.0.1:0`).

use std::path::PathBuf;
use std::time::Duration;

use crate::{json, run_with_deadline, wait_until, TestServer};

pub struct Listening {
    pub server: TestServer,
    /// The token store `pair` writes and the listener reads.
    pub tokens: PathBuf,
    /// The port the listener took (from its log line).
    pub port: u16,
    _store: tempfile::TempDir,
}

impl Listening {
    pub fn start() -> Listening {
        let store = tempfile::tempdir().expect("tempdir");
        let tokens = store.path().join("remote-tokens");
        let server = TestServer::start_with_env(
            &["--ws-addr", "127.0.0.1:0"],
            &[("PHUX_WS_TOKENS", tokens.as_os_str())],
        );
        let log = server.dir.path().join("server.log");
        let mut port = 0;
        wait_until(
            "the listener says where it listens",
            Duration::from_secs(10),
            || {
                let text = std::fs::read_to_string(&log).unwrap_or_default();
                port = text
                    .lines()
                    .find_map(|l| l.split("remote: listening on 127.0.0.1:").nth(1))
                    .and_then(|rest| rest.split_whitespace().next())
                    .and_then(|p| p.parse().ok())
                    .unwrap_or(0);
                port != 0
            },
        );
        Listening {
            server,
            tokens,
            port,
            _store: store,
        }
    }

    /// `https://127.0.0.1:PORT`.
    pub fn base(&self) -> String {
        format!("https://127.0.0.1:{}", self.port)
    }

    /// `phux pair ARGS --json` against this listener's store.
    pub fn pair(&self, args: &[&str]) -> serde_json::Value {
        let mut command = self.server.phux(&["pair"]);
        command
            .args(args)
            .arg("--json")
            .env("PHUX_WS_TOKENS", &self.tokens);
        let output = run_with_deadline(&mut command, Duration::from_secs(15));
        assert!(output.status.success(), "{}", crate::stderr(&output));
        json(&output)
    }

    /// Writes `token` to a 0600 file beside the store, as a hub keeps it.
    pub fn token_file(&self, name: &str, token: &str) -> PathBuf {
        let path = self.tokens.with_file_name(name);
        std::fs::write(&path, token).expect("write the token file");
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o600))
            .expect("chmod 600");
        path
    }
}
