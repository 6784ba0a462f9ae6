//! Agent detection figures: how soon after a fake agent's screen settles its new state is
//! published (the time from the agent's last write to the `agent_state` event reaching a
//! `phux watch`), and the detector's CPU per idle agent pane (server CPU over a quiet interval
//! with N agents resting on screen, divided by N). Prints figures; asserts nothing.
//!
//! Run: `cargo build -p phux-cli && cargo run -p phux-tests --example agent_detect_bench`
//! (`--release` for both for release figures). `PHUX_BENCH_RUNS` sets the transitions (40).

#![forbid(unsafe_code)]
#![allow(clippy::expect_used, clippy::unwrap_used)] // a benchmark fails loudly by design

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::mpsc::channel;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use phux_tests::TestServer;

/// Alternates Claude Code's working status and its permission dialog, one per input line,
/// logging the wall-clock time right after each paint.
const FAKE_CLAUDE: &str = r#"#!/bin/bash
stty -echo
R=$(printf '─%.0s' $(seq 1 60))
paint() { printf '\033[H\033[2J'; printf '%s\r\n' "$@"; }
working() { paint "> go" "" "✻ Pondering… (${1}s · esc to interrupt)" "" "$R" "❯ " "$R" "  ? for shortcuts"; }
dialog() { paint "> go" "" "$R" " Do you want to proceed?" " ❯ 1. Yes" "   2. No" "" " Esc to cancel"; }
working 0
n=0
while read -r _; do
  n=$((n+1))
  if [ $((n % 2)) = 1 ]; then dialog; else working "$n"; fi
  echo "$EPOCHREALTIME" >> "$CLAUDE_LOG"
done
"#;

fn now_s() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
}

/// CPU time (ns) of every thread of `pid`, and of its agent supervisor threads alone.
fn cpu_ns(pid: u32) -> (u64, u64) {
    let (mut all, mut agents) = (0, 0);
    for task in std::fs::read_dir(format!("/proc/{pid}/task"))
        .unwrap()
        .flatten()
    {
        let path = task.path();
        let ns: u64 = std::fs::read_to_string(path.join("schedstat"))
            .ok()
            .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse().ok()))
            .unwrap_or(0);
        let name = std::fs::read_to_string(path.join("comm")).unwrap_or_default();
        all += ns;
        if name.trim().ends_with("-agent") {
            agents += ns;
        }
    }
    (all, agents)
}

fn start_agent(server: &TestServer, name: &str, log: &std::path::Path) -> String {
    let log = format!("CLAUDE_LOG={}", log.display());
    let pane = server.bash_with_programs(name, &[("claude", FAKE_CLAUDE)], &[&log]);
    server.send_keys(&pane, &["claude", "Enter"]);
    phux_tests::wait_until("working", Duration::from_secs(15), || {
        server.json(&["agent", "show", "--json", &pane])["agents"][0]["state"] == "working"
    });
    pane
}

fn main() {
    let runs: usize = std::env::var("PHUX_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let server = TestServer::start();
    let log = server.dir.path().join("paints.log");
    let pane = start_agent(&server, "latency", &log);
    let mut watch = server
        .phux(&["watch", "--json", &pane])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = channel();
    let out = watch.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if line.contains("\"agent_state\"") && tx.send(now_s()).is_err() {
                return;
            }
        }
    });
    std::thread::sleep(Duration::from_millis(500));
    let mut latencies = Vec::new();
    for i in 0..runs {
        server.send_keys(&pane, &["Enter"]);
        let Ok(seen) = rx.recv_timeout(Duration::from_secs(10)) else {
            eprintln!("transition {i}: no agent_state event within 10 s");
            continue;
        };
        let painted: f64 = std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .nth(i)
            .and_then(|l| l.trim().parse().ok())
            .unwrap_or(seen);
        latencies.push((seen - painted) * 1000.0);
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = watch.kill();
    let _ = watch.wait();
    latencies.sort_by(f64::total_cmp);
    let pick = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize];
    println!(
        "state published after the screen settled (paint -> agent_state at a watcher), {} transitions: median {:.1} ms, p90 {:.1} ms, max {:.1} ms",
        latencies.len(),
        pick(0.5),
        pick(0.9),
        pick(1.0)
    );

    let idle_panes = 5;
    for i in 0..idle_panes {
        start_agent(
            &server,
            &format!("idle{i}"),
            &server.dir.path().join(format!("idle{i}.log")),
        );
    }
    let pid = server.server_pid();
    let seconds = 10.0;
    let panes = (idle_panes + 1) as f64;
    std::thread::sleep(Duration::from_secs(1));
    let (all_before, agents_before) = cpu_ns(pid);
    std::thread::sleep(Duration::from_secs_f64(seconds));
    let (all_after, agents_after) = cpu_ns(pid);
    let percent = |ns: u64| ns as f64 / 1e9 / seconds * 100.0;
    println!(
        "{panes} agent panes resting for {seconds} s: server {:.4}% of a core in total; agent supervisor threads {:.5}% in total, {:.5}% per agent pane",
        percent(all_after - all_before),
        percent(agents_after - agents_before),
        percent(agents_after - agents_before) / panes
    );
}
