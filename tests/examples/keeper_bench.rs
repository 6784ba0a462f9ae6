//! Panes that outlive their server, in figures: 30 panes (shells with history, vim mid-edit,
//! top, a loop printing a line every 10 ms, a program that ends while no server runs) on a
//! server killed with SIGKILL; the next command's server takes them over. Prints, per pane,
//! the program, its PID before and after, whether the screen (with history) is equal and the
//! loop's lines kept; then the freeze of the recovery (the next command's wall time, which
//! starts the server that takes the panes over), the freeze of an upgrade (`handoff_ms`), and
//! memory: each keeper's PSS and its keep (the memfd pages it holds) beside the server's RSS
//! per pane. Asserts only that nothing was lost.
//!
//! Run: `cargo build --release -p phux-cli && PHUX_BIN=target/x86_64-unknown-linux-gnu/release/phux
//! cargo run --release -p phux-tests --example keeper_bench`. `PHUX_BENCH_PANES` (30) and
//! `PHUX_BENCH_LINES` (2000, each shell's history) change it.

#![forbid(unsafe_code)]
#![allow(clippy::expect_used, clippy::unwrap_used)] // a benchmark fails loudly by design

use std::time::{Duration, Instant};

use phux_tests::{kept_programs, wait_until, TestServer};

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A field of `/proc/PID/smaps_rollup`, in KiB.
fn rollup(pid: u32, field: &str) -> u64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).unwrap_or_default();
    text.lines()
        .find_map(|l| l.strip_prefix(field)?.trim().strip_suffix("kB"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0)
}

/// The keepers of the server at `socket`, by PID.
fn keepers(socket: &std::path::Path) -> Vec<u32> {
    let socket = socket.display().to_string();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        let args: Vec<_> = cmdline.split(|b| *b == 0).collect();
        if args.contains(&b"__keeper".as_slice()) && args.contains(&socket.as_bytes()) {
            found.push(pid);
        }
    }
    found
}

/// KiB of memory pages the keeper's keep (its memfds) holds.
fn keep_kib(keeper: u32) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let Ok(fds) = std::fs::read_dir(format!("/proc/{keeper}/fd")) else {
        return 0;
    };
    fds.flatten()
        .filter(|fd| {
            std::fs::read_link(fd.path())
                .is_ok_and(|target| target.to_string_lossy().contains("memfd:phux-pane"))
        })
        .filter_map(|fd| std::fs::metadata(fd.path()).ok())
        .map(|m| m.blocks() * 512 / 1024)
        .sum()
}

fn screen(server: &TestServer, pane: &str) -> Vec<u8> {
    server
        .run(&["snapshot", "--json", "--scrollback", pane])
        .stdout
}

fn main() {
    let count = env_or("PHUX_BENCH_PANES", 30).max(5);
    let lines = env_or("PHUX_BENCH_LINES", 2000);
    let mut server = TestServer::start();
    let mut panes: Vec<(String, String)> = Vec::new();
    let file = server.dir.path().join("notes.txt").display().to_string();
    let vim = server.new_session("vim", &["vim", "-u", "NONE", "-N", "-n", &file]);
    server.send_keys(&vim, &["itext nobody saved", "Escape"]);
    panes.push((vim, "vim mid-edit".into()));
    let top = server.new_session("top", &["top", "-d", "0.5"]);
    panes.push((top.clone(), "top".into()));
    let stop = server.dir.path().join("stop");
    let loop_script = format!(
        "i=0; while [ ! -e {} ]; do i=$((i+1)); echo tick-$i; sleep 0.01; done; echo done-$i; exec sh",
        stop.display()
    );
    let ticks = server.new_session("ticks", &["sh", "-c", &loop_script]);
    panes.push((ticks.clone(), "a line every 10 ms".into()));
    for i in panes.len()..count - 1 {
        let script = format!("seq 1 {lines} | sed 's/^/pane {i} line /'; exec sh");
        let pane = server.new_session(&format!("s{i}"), &["sh", "-c", &script]);
        panes.push((pane, format!("sh, {lines} lines of history")));
    }
    let last = format!("line {lines}");
    for (pane, what) in &panes {
        if what.starts_with("sh,") {
            wait_until("the history is printed", Duration::from_secs(60), || {
                server.lines(pane).iter().any(|l| l.ends_with(&last))
            });
        }
    }
    wait_until("vim left insert mode", Duration::from_secs(10), || {
        !server
            .lines(&panes[0].0)
            .iter()
            .any(|l| l.contains("INSERT"))
    });
    // Started last, so that its program ends while no server runs.
    let ending = server.new_session(
        "ending",
        &["sh", "-c", "echo started; sleep 1; echo goodbye; exit 7"],
    );
    panes.push((ending.clone(), "ends while no server runs".into()));
    server.wait_for_text(&ending, "started");
    wait_until("every pane is up", Duration::from_secs(60), || {
        kept_programs(&server.socket).len() == count
            && server.lines(&ticks).iter().any(|l| l.starts_with("tick-"))
    });
    let compared: Vec<&String> = panes
        .iter()
        .filter(|(p, _)| *p != top && *p != ticks && *p != ending)
        .map(|(p, _)| p)
        .collect();
    let before: Vec<Vec<u8>> = compared.iter().map(|p| screen(&server, p)).collect();
    let pids = kept_programs(&server.socket);
    let keepers_before = keepers(&server.socket);
    let server_rss = rollup(server.server_pid(), "Rss:");
    let keeper_pss: u64 = keepers_before.iter().map(|k| rollup(*k, "Pss:")).sum();
    let keep: u64 = keepers_before.iter().map(|k| keep_kib(*k)).sum();

    server.crash();
    std::thread::sleep(Duration::from_millis(1500));
    let started = Instant::now();
    let out = server.run(&["ls"]);
    let recovery = started.elapsed();
    assert!(out.status.success(), "the next command answers");
    let after_pids = kept_programs(&server.socket);
    let after: Vec<Vec<u8>> = compared.iter().map(|p| screen(&server, p)).collect();
    std::fs::write(&stop, "").unwrap();
    server.wait_for_text(&ticks, "done-");
    let doc = server.json(&["snapshot", "--json", "--scrollback", "--unwrap", &ticks]);
    let text: Vec<String> = (doc["scrollback"].as_array().into_iter().flatten())
        .chain(doc["lines"].as_array().into_iter().flatten())
        .filter_map(|l| l.as_str().map(str::to_owned))
        .collect();
    let printed: u64 = text
        .iter()
        .find_map(|l| l.strip_prefix("done-")?.trim().parse().ok())
        .unwrap();
    let ticks_seen: Vec<u64> = text
        .iter()
        .filter_map(|l| l.strip_prefix("tick-")?.trim().parse().ok())
        .collect();
    let in_order = ticks_seen == (1..=printed).collect::<Vec<_>>();

    println!(
        "{:<6} {:<28} {:>8} {:>8}  {:<12} lines kept",
        "pane", "program", "PID", "after", "screen"
    );
    let mut kept = 0;
    for (pane, what) in &panes {
        let before_pid = pids.get(pane).copied();
        let after_pid = after_pids.get(pane).copied();
        let screen_equal = match compared.iter().position(|p| *p == pane) {
            Some(i) => {
                if before[i] == after[i] {
                    "equal"
                } else {
                    "DIFFERS"
                }
            }
            None if *pane == ending => "ended (7)",
            None => "live",
        };
        let lines_kept = if *pane == ticks {
            format!("{} of {printed}, in order: {in_order}", ticks_seen.len())
        } else {
            "-".into()
        };
        if after_pid == before_pid || *pane == ending {
            kept += 1;
        }
        println!(
            "{pane:<6} {what:<28} {:>8} {:>8}  {screen_equal:<12} {lines_kept}",
            before_pid.map_or("-".into(), |p| p.to_string()),
            after_pid.map_or("-".into(), |p| p.to_string()),
        );
    }
    println!("panes kept: {kept} / {count}");
    println!(
        "recovery: the next command answered after {:.0} ms (it started the server that took {} panes over)",
        recovery.as_secs_f64() * 1e3,
        count
    );
    let n = keepers_before.len().max(1) as u64;
    println!(
        "memory: keeper PSS {} KiB each, keep {} KiB each on average; server RSS {:.2} MiB per pane",
        keeper_pss / n,
        keep / n,
        server_rss as f64 / 1024.0 / count as f64
    );
    let out = server.run(&["upgrade", "--json"]);
    if out.status.success() {
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        println!(
            "upgrade: handoff_ms {} for {} panes",
            doc["handoff_ms"], doc["panes"]
        );
    } else {
        println!(
            "upgrade failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    assert_eq!(kept, count, "every pane kept");
    assert!(in_order, "every line of the loop, once, in order");
}
