//! The MCP adapter's figures: a `tools/call phux_snapshot` round trip through the official MCP
//! Python SDK and over raw JSON-RPC, beside `phux snapshot --json` started as a process per
//! call (what an agent without MCP pays); and the resident memory of an idle `phux mcp`
//! (initialized, tools listed) beside the idle server's; and the config-side tools
//! (`phux_plugin_action`, `phux_config_agents`, `phux_doctor`, `phux_workspace` save) beside
//! their verbs as processes. Medians of N calls (default 200;
//! `PHUX_BENCH_RUNS`). A benchmark prints figures; it asserts nothing.
//!
//! Run: `cargo build --release -p phux-cli && PHUX_BIN=target/x86_64-unknown-linux-gnu/release/phux
//! cargo run --release -p phux-tests --example mcp_bench` (scripts/bench does both).

#![forbid(unsafe_code)]
#![allow(clippy::expect_used, clippy::unwrap_used)] // a benchmark fails loudly by design

use std::process::Command;
use std::time::{Duration, Instant};

use phux_tests::mcp::{sdk_client_script, sdk_python, McpProcess};
use phux_tests::plugins::{plugin_dir, plugins_table};
use phux_tests::{phux_bin, rss_of, TestServer};
use serde_json::json;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let runs: usize = std::env::var("PHUX_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let server = TestServer::start();
    println!("phux: {}", phux_bin().display());

    // Raw JSON-RPC: the adapter's own cost, with no client library around it.
    let (mut mcp, _) = McpProcess::initialized(&server.socket, "2025-11-25");
    let created = mcp.ok(
        "phux_new",
        json!({"name": "bench", "command": ["env", "PS1=$ ", "bash", "--norc", "-i"]}),
    );
    let pane = format!("@{}", created["terminal_id"]);
    mcp.ok(
        "phux_wait",
        json!({"target": pane, "until": "$", "timeout_secs": 15}),
    );
    let mut raw = Vec::new();
    let mut process = Vec::new();
    for _ in 0..runs {
        let started = Instant::now();
        mcp.ok("phux_snapshot", json!({"target": pane}));
        raw.push(started.elapsed());
        let started = Instant::now();
        let out = Command::new(phux_bin())
            .arg("--socket")
            .arg(&server.socket)
            .args(["snapshot", "--json", &pane])
            .output()
            .unwrap();
        process.push(started.elapsed());
        assert!(out.status.success());
    }
    let (raw, process) = (median(raw), median(process));
    println!(
        "tools/call phux_snapshot, raw JSON-RPC:   median {:.2} ms over {runs}",
        ms(raw)
    );
    println!(
        "phux snapshot --json as a process:        median {:.2} ms over {runs}",
        ms(process)
    );
    println!(
        "ratio (process / MCP raw):                {:.2}x",
        process.as_secs_f64() / raw.as_secs_f64()
    );

    // Idle memory: after the handshake and a tools/list, with nothing in flight.
    let (mut idle, _) = McpProcess::initialized(&server.socket, "2025-11-25");
    idle.request("tools/list", json!({}));
    std::thread::sleep(Duration::from_millis(500));
    let mcp_rss = rss_of(idle.child.id());
    let server_rss = rss_of(server.server_pid());
    println!(
        "idle phux mcp RSS: {:.1} MiB (the server, with one pane: {:.1} MiB)",
        mcp_rss as f64 / 1048576.0,
        server_rss as f64 / 1048576.0
    );

    config_tools(runs);

    // Through the official Python SDK, as an agent host would call it.
    match sdk_python() {
        Ok(python) => {
            let out = Command::new(python)
                .arg(sdk_client_script())
                .arg(phux_bin())
                .arg(&server.socket)
                .args(["--bench", &runs.to_string()])
                .output()
                .unwrap();
            print!("{}", String::from_utf8_lossy(&out.stdout));
            if !out.status.success() {
                println!(
                    "the SDK bench failed: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        }
        Err(why) => println!("no SDK figures: {why}"),
    }
}

/// The config-side tools beside their verbs, each a process per call, against a server whose
/// config registers a plugin with one quick action.
fn config_tools(runs: usize) {
    let plugins = tempfile::tempdir().unwrap();
    let manifest = "id = \"bench.tools\"\n[[actions]]\nid = \"quick\"\ncommand = [\"true\"]\n";
    let dir = plugin_dir(plugins.path(), "tools", manifest);
    let server = TestServer::start_with_config(Some(&plugins_table(&[(&dir, true)])), &[]);
    let (mut mcp, _) = McpProcess::for_server(&server, "2025-11-25");
    let runs = (runs / 4).max(5);
    let cases: [(&str, serde_json::Value, &[&str]); 4] = [
        (
            "phux_plugin_action",
            json!({"plugin_id": "bench.tools", "action_id": "quick"}),
            &["config", "run", "bench.tools", "quick", "--json"],
        ),
        (
            "phux_config_agents",
            json!({}),
            &["config", "agents", "--json"],
        ),
        ("phux_doctor", json!({}), &["doctor", "--json"]),
        (
            "phux_workspace",
            json!({"action": "save"}),
            &["workspace", "save"],
        ),
    ];
    for (tool, arguments, argv) in cases {
        let mut raw = Vec::new();
        let mut process = Vec::new();
        for _ in 0..runs {
            let started = Instant::now();
            mcp.ok(tool, arguments.clone());
            raw.push(started.elapsed());
            let started = Instant::now();
            let out = server.phux(argv).output().unwrap();
            process.push(started.elapsed());
            assert!(out.status.success(), "phux {argv:?}");
        }
        let (raw, process) = (median(raw), median(process));
        println!(
            "{tool:<20} MCP {:>7.2} ms, `phux {}` as a process {:>7.2} ms: {:.2}x over {runs}",
            ms(raw),
            argv.join(" "),
            ms(process),
            process.as_secs_f64() / raw.as_secs_f64()
        );
    }
}
