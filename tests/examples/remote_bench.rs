//! Figures of the remote half (issue 35), side by side:
//!
//! 1. a keystroke's echo in the browser (headless chromium, the listener's page typing into a
//!    `sh` pane over wss) — median, 99th percentile and worst of `--runs`; the TUI's figure for
//!    the same is `tui_bench`'s "at rest" row (docs/benchmarks.md);
//! 2. server memory per browser viewer: RSS with 20 pages' connections watching a pane over
//!    wss (hello + observe, as the page does) beside 20 local observers of the same pane.
//!
//! `hosts_bench` has `snapshot` over wss beside ssh and local.
//! `PHUX_BIN=target/x86_64-unknown-linux-gnu/release/phux cargo run -p phux-tests --example
//! remote_bench -- [--runs N]` (needs chromium and `npm ci` in tests/browser). Figures only.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use phux_tests::listening::Listening;
use phux_tests::{rss_of, run_with_deadline, TestServer};

const VIEWERS: usize = 20;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: usize = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .map_or(100, |v| v.parse().unwrap());
    println!("phux: {}", phux_tests::phux_bin().display());
    let listening = Listening::start();
    let server = &listening.server;
    let port = listening.port;
    let pane = server.plain_shell("echo", "sh");
    let paired = listening.pair(&[]);
    let token = paired["token"].as_str().unwrap().to_owned();

    println!("\n1. keystroke echo in the browser, {runs} keys into a `sh` pane");
    let plan = serde_json::json!({
        "base": listening.base(),
        "token": token,
        "runs": runs,
    });
    let browser = Path::new(env!("CARGO_MANIFEST_DIR")).join("browser");
    let output = run_with_deadline(
        Command::new("node")
            .arg(browser.join("echo.mjs"))
            .current_dir(&browser)
            .env("PHUX_BROWSER_PLAN", plan.to_string()),
        Duration::from_secs(300),
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut times: Vec<f64> = serde_json::from_slice(&output.stdout).unwrap();
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "   browser (wss, ghostty-web)  median {:6.2} ms  p99 {:6.2} ms  worst {:6.2} ms",
        at(0.5),
        at(0.99),
        at(1.0)
    );
    println!("   TUI: see tui_bench's \"at rest\" row, measured the same way at the outer screen");

    println!("\n2. server memory per viewer, {VIEWERS} viewers of one pane");
    let id = pane.trim_start_matches('@');
    let wss = viewers(server, "wss", port, &token, id);
    let local = viewers(server, "unix", port, &token, id);
    println!(
        "   browser viewer (wss)        {:8.1} KB each",
        wss as f64 / 1024.0 / VIEWERS as f64
    );
    println!(
        "   local observer (socket)     {:8.1} KB each  (wss costs {:.2}x)",
        local as f64 / 1024.0 / VIEWERS as f64,
        wss as f64 / local.max(1) as f64
    );
}

/// The server's RSS growth while VIEWERS connections (over `mode`: wss or the unix socket)
/// each say hello and observe pane `id` as a viewer, as the page does.
fn viewers(server: &TestServer, mode: &str, port: u16, token: &str, id: &str) -> u64 {
    let pid = server.server_pid();
    settle();
    let before = rss_of(pid);
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(VIEWER_SCRIPT)
        .env("MODE", mode)
        .env("PORT", port.to_string())
        .env("TOKEN", token)
        .env("SOCKET", &server.socket)
        .env("PANE", id)
        .env("COUNT", VIEWERS.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "ready", "the viewers did not start");
    settle();
    let after = rss_of(pid);
    drop(child.stdin.take());
    let _ = child.wait();
    settle();
    after.saturating_sub(before)
}

fn settle() {
    std::thread::sleep(Duration::from_millis(800));
}

const VIEWER_SCRIPT: &str = r#"
import json, os, socket, ssl, struct, sys
def frame(message):
    body = json.dumps(message).encode()
    return struct.pack(">I", len(body) + 1) + b"\x01" + body
def ws_send(s, payload, opcode=2):
    mask = b"\x01\x02\x03\x04"; n = len(payload)
    header = struct.pack(">BB", 0x80 | opcode, 0x80 | n) if n < 126 else struct.pack(">BBH", 0x80 | opcode, 0x80 | 126, n)
    s.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
keep = []
for _ in range(int(os.environ["COUNT"])):
    hello = frame({"type": "hello", "protocol": {"major": 1, "minor": 0}, "client": "bench"})
    observe = frame({"type": "observe", "id": 1, "pane": int(os.environ["PANE"]), "viewer": True})
    if os.environ["MODE"] == "wss":
        raw = socket.create_connection(("127.0.0.1", int(os.environ["PORT"])))
        ctx = ssl.create_default_context(); ctx.check_hostname = False; ctx.verify_mode = ssl.CERT_NONE
        s = ctx.wrap_socket(raw, server_hostname="localhost")
        s.sendall(b"GET /wire HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        head = b""
        while b"\r\n\r\n" not in head: head += s.recv(1)
        ws_send(s, json.dumps({"token": os.environ["TOKEN"]}).encode(), opcode=1)
        ws_send(s, hello); ws_send(s, observe)
    else:
        s = socket.socket(socket.AF_UNIX); s.connect(os.environ["SOCKET"])
        s.sendall(hello + observe)
    s.recv(65536)
    keep.append(s)
print("ready", flush=True)
sys.stdin.read()
"#;
