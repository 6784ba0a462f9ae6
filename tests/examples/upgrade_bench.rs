//! `phux upgrade` figures: 20 panes, each with 10,000 lines of history, handed over to a new
//! server process several times. For each run: the time the panes' output went unread (from
//! the old process stopping its readers to the new one reading again, as the new process logs
//! it) and the time `phux upgrade` took end to end; and that the server PID, the panes' PIDs
//! and every snapshot (with history) are unchanged; then where the unread time went, phase by
//! phase, as both processes logged it. Prints figures; asserts only that nothing was lost.
//!
//! Run: `cargo build -p phux-cli && cargo run -p phux-tests --example upgrade_bench` (or with
//! `--release` and `PHUX_BIN=target/x86_64-unknown-linux-gnu/release/phux`).
//! `PHUX_BENCH_PANES` (20), `PHUX_BENCH_LINES` (10000) and `PHUX_BENCH_RUNS` (5) change it.

#![forbid(unsafe_code)]
#![allow(clippy::expect_used, clippy::unwrap_used)] // a benchmark fails loudly by design

use std::time::{Duration, Instant};

use phux_tests::{run_with_deadline, wait_until, TestServer};

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn children(server: u32) -> Vec<u32> {
    let mut text = String::new();
    for task in std::fs::read_dir(format!("/proc/{server}/task")).unwrap() {
        let path = task.unwrap().path().join("children");
        text.push_str(&std::fs::read_to_string(path).unwrap_or_default());
        text.push(' ');
    }
    let mut pids: Vec<u32> = text
        .split_whitespace()
        .map(|p| p.parse().unwrap())
        .collect();
    pids.sort_unstable();
    pids
}

fn snapshots(server: &TestServer, panes: &[String]) -> Vec<Vec<u8>> {
    panes
        .iter()
        .map(|p| {
            server
                .run(&["snapshot", "--json", "--scrollback", p])
                .stdout
        })
        .collect()
}

/// The figures the new process logged: "... went unread for N ms".
fn unread_ms(log: &str) -> Vec<u64> {
    log.lines()
        .filter_map(|l| l.split("went unread for ").nth(1))
        .filter_map(|rest| rest.split_whitespace().next()?.parse().ok())
        .collect()
}

/// Each run's "upgrade: SIDE phases (ms): name 1.2, name 3.4" line of the log, as pairs.
fn phases(log: &str, side: &str) -> Vec<Vec<(String, f64)>> {
    let marker = format!("upgrade: {side} phases (ms): ");
    log.lines()
        .filter_map(|l| l.split(marker.as_str()).nth(1))
        .map(|rest| {
            rest.split(", ")
                .filter_map(|phase| {
                    let (name, ms) = phase.rsplit_once(' ')?;
                    Some((name.to_owned(), ms.parse().ok()?))
                })
                .collect()
        })
        .collect()
}

/// Median, min and max.
fn spread(values: &[f64]) -> (f64, f64, f64) {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let at = |i: usize| sorted.get(i).copied().unwrap_or(f64::NAN);
    (
        at(sorted.len() / 2),
        at(0),
        at(sorted.len().saturating_sub(1)),
    )
}

/// Where the frozen time went, phase by phase (median, min, max over the runs): the old
/// process's phases, the exec and the new process's start (the time from the freeze to the
/// new process's start less the old process's phases), then the new process's phases.
fn print_split(log: &str) {
    let frozen = phases(log, "frozen");
    let adopting = phases(log, "adopting");
    let mut rows: Vec<(String, Vec<f64>)> = Vec::new();
    let mut add = |name: &str, ms: f64| match rows.iter_mut().find(|(n, _)| n == name) {
        Some((_, values)) => values.push(ms),
        None => rows.push((name.to_owned(), vec![ms])),
    };
    for (old, new) in frozen.iter().zip(&adopting) {
        let old_total: f64 = old.iter().map(|(_, ms)| ms).sum();
        for (name, ms) in old {
            add(&format!("old: {name}"), *ms);
        }
        for (name, ms) in new {
            if name == "freeze to this start" {
                add("exec and the new process's start", ms - old_total);
            } else {
                add(&format!("new: {name}"), *ms);
            }
        }
    }
    println!(
        "where the frozen time went (ms: median, min, max over {} runs):",
        frozen.len()
    );
    for (name, values) in rows {
        let (median, min, max) = spread(&values);
        println!("  {name:<40} {median:>7.1} {min:>7.1} {max:>7.1}");
    }
}

fn main() {
    let panes_wanted = env_or("PHUX_BENCH_PANES", 20);
    let lines = env_or("PHUX_BENCH_LINES", 10_000);
    let runs = env_or("PHUX_BENCH_RUNS", 5);
    let server = TestServer::start_with(&["--history-limit", &(lines + 100).to_string()]);
    let mut panes = Vec::new();
    for i in 0..panes_wanted {
        let script = format!("seq 1 {lines} | sed 's/^/pane {i} line /'; exec sh");
        panes.push(server.new_session(&format!("s{i}"), &["sh", "-c", &script]));
    }
    let last = format!("line {lines}");
    for pane in &panes {
        wait_until(
            "every pane printed its history",
            Duration::from_secs(120),
            || server.lines(pane).iter().any(|l| l.ends_with(&last)),
        );
    }
    let pid = server.server_pid();
    let kids = children(pid);
    let before = snapshots(&server, &panes);
    let bytes: usize = before.iter().map(Vec::len).sum();
    println!(
        "{} panes, {lines} lines of history each ({} MiB of snapshot JSON)",
        panes.len(),
        bytes >> 20
    );
    let mut totals = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        let out = run_with_deadline(
            &mut server.phux(&["upgrade", "--json"]),
            Duration::from_secs(120),
        );
        totals.push(start.elapsed().as_millis());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            children(pid),
            kids,
            "the panes' programs are the same processes"
        );
        assert_eq!(
            snapshots(&server, &panes),
            before,
            "screens and histories unchanged"
        );
    }
    let log = std::fs::read_to_string(server.dir.path().join("server.log")).unwrap();
    let unread = unread_ms(&log);
    println!("output unread during the hand-off (ms, per run): {unread:?}");
    println!("phux upgrade end to end (ms, per run):          {totals:?}");
    let unread_f: Vec<f64> = unread.iter().map(|&ms| ms as f64).collect();
    let (median, min, max) = spread(&unread_f);
    println!(
        "unread: median {median} ms, min {min} ms, max {max} ms \
         (goal: < 200 ms for 20 panes of 10k lines)"
    );
    print_split(&log);
    println!(
        "server pid {pid} and {} pane pids unchanged; snapshots equal",
        kids.len()
    );
}
