//! A server with its remote listener on a free loopback port and its own token store: what the
//! remote tests and benchmarks start (`phux server --ws-addr 127.0.0.1:0`).

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
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
        Self::start_with_env(&[])
    }

    /// A listening server with `env` added to its environment.
    pub fn start_with_env(env: &[(&str, &std::ffi::OsStr)]) -> Listening {
        let store = tempfile::tempdir().expect("tempdir");
        let tokens = store.path().join("remote-tokens");
        let mut all = vec![("PHUX_WS_TOKENS", tokens.as_os_str())];
        all.extend_from_slice(env);
        let server = TestServer::start_with_env(&["--ws-addr", "127.0.0.1:0"], &all);
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

    /// Stops the server, and `pause` later starts another listening on the same port with the
    /// same token store (an outage: a crash and a restart, not an upgrade). Returns when its
    /// listener said it listens, with the wall-clock time it did.
    pub fn restart(&mut self, pause: Duration) -> std::time::SystemTime {
        let _ = run_with_deadline(
            &mut self.server.phux(&["kill", "--server"]),
            Duration::from_secs(20),
        );
        std::thread::sleep(pause);
        let addr = format!("127.0.0.1:{}", self.port);
        let next = TestServer::start_with_env(
            &["--ws-addr", &addr],
            &[("PHUX_WS_TOKENS", self.tokens.as_os_str())],
        );
        let log = next.dir.path().join("server.log");
        let said = format!("remote: listening on {addr}");
        let mut listening_at = std::time::SystemTime::now();
        wait_until(
            "the listener listens again",
            Duration::from_secs(10),
            || {
                listening_at = std::time::SystemTime::now();
                std::fs::read_to_string(&log)
                    .unwrap_or_default()
                    .contains(&said)
            },
        );
        drop(std::mem::replace(&mut self.server, next));
        listening_at
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

    /// Runs the Python probe (a real TLS WebSocket client, [`PROBE`]) with `script` against
    /// this listener and returns the one JSON line it printed.
    pub fn probe(&self, script: &str, env: &[(&str, &str)]) -> serde_json::Value {
        let mut command = self.probe_command(script, env);
        let output = run_with_deadline(&mut command, Duration::from_secs(60));
        assert!(
            output.status.success(),
            "the probe failed: {}",
            crate::stderr(&output)
        );
        serde_json::from_str(crate::stdout(&output).trim()).expect("the probe prints one JSON line")
    }

    /// The probe started in the background, its stdout piped (for scripts that print as they
    /// go while the test acts).
    pub fn probe_spawn(&self, script: &str, env: &[(&str, &str)]) -> Child {
        self.probe_command(script, env)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("python3")
    }

    fn probe_command(&self, script: &str, env: &[(&str, &str)]) -> Command {
        let mut command = Command::new("python3");
        command
            .arg("-c")
            .arg(format!("{PROBE}\n{script}"))
            .env("PORT", self.port.to_string())
            .envs(env.iter().copied())
            .stdin(Stdio::null());
        command
    }
}

/// A minimal WebSocket client over Python's ssl module: enough to show what the listener does
/// with a client that is not a browser, or not well behaved.
pub const PROBE: &str = r#"
import json, os, socket, ssl, struct, time
PORT = int(os.environ["PORT"])
CTX = ssl.create_default_context(); CTX.check_hostname = False; CTX.verify_mode = ssl.CERT_NONE
def tls():
    # The context is made once, before connecting: a client's TLS hello follows its connect.
    source = (os.environ["SOURCE"], 0) if os.environ.get("SOURCE") else None
    raw = socket.create_connection(("127.0.0.1", PORT), timeout=15, source_address=source)
    return CTX.wrap_socket(raw, server_hostname="localhost")
def upgrade(s, path="/wire", headers=""):
    s.sendall((f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{headers}\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1)
        if not chunk: break
        head += chunk
    return head.decode(errors="replace")
def send(s, opcode, payload, claimed=None):
    n = len(payload) if claimed is None else claimed
    mask = b"\x01\x02\x03\x04"
    if n < 126: header = struct.pack(">BB", 0x80 | opcode, 0x80 | n)
    elif n < 65536: header = struct.pack(">BBH", 0x80 | opcode, 0x80 | 126, n)
    else: header = struct.pack(">BBQ", 0x80 | opcode, 0x80 | 127, n)
    s.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
def recv_exact(s, n):
    data = b""
    while len(data) < n:
        chunk = s.recv(n - len(data))
        if not chunk: raise EOFError("closed")
        data += chunk
    return data
def read_message(s):
    b0, b1 = recv_exact(s, 2)
    n = b1 & 0x7f
    if n == 126: n = struct.unpack(">H", recv_exact(s, 2))[0]
    elif n == 127: n = struct.unpack(">Q", recv_exact(s, 8))[0]
    return b0 & 0x0f, recv_exact(s, n)
def frame(message):
    body = json.dumps(message).encode()
    return struct.pack(">I", len(body) + 1) + b"\x01" + body
def wire_messages(s, count):
    buf, out = b"", []
    while len(out) < count:
        op, payload = read_message(s)
        if op == 8: out.append({"closed": payload[2:].decode(errors="replace")}); break
        buf += payload
        while len(buf) >= 4 and len(buf) >= 4 + struct.unpack(">I", buf[:4])[0]:
            n = struct.unpack(">I", buf[:4])[0]
            if buf[4] == 1: out.append(json.loads(buf[5:4 + n]))
            buf = buf[4 + n:]
    return out
def session(token, path="/wire"):
    s = tls(); upgrade(s, path, "Authorization: Bearer " + token + "\r\n")
    if path == "/wire":
        send(s, 2, frame({"type": "hello", "protocol": {"major": 1, "minor": 0}, "client": "probe"}))
        wire_messages(s, 1)
    return s
def link_frame(channel, body):
    return struct.pack(">II", channel, len(body)) + body
def closed_within(s, seconds):
    s.settimeout(seconds)
    start = time.time()
    try:
        while s.recv(4096): pass
        return time.time() - start
    except (ConnectionError, ssl.SSLError, EOFError):
        return time.time() - start
    except socket.timeout:
        return None
"#;
