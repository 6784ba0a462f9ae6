//! Prints the figures issue 18 asks for, so they can be measured again:
//!
//! 1. peak server RSS with one pane at the largest grid the cap allows (1000x1000), its
//!    scrollback full of 1000-column rows;
//! 2. peak RSS of `phux rec --from` on a cast of N output events (default 300,000), for this
//!    build and, with `--before PATH`, for another `phux` binary;
//! 3. how long `phux snapshot` takes while N silent connections are open, and the largest N
//!    at which it still answers within 50 ms.
//!
//! `cargo run -p phux-tests --example hardening_figures [--release] -- [--events N]
//! [--before PATH] [--skip-rec]`. Needs `/usr/bin/time` for figure 2. Figures, not a test.

#![forbid(unsafe_code)]
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::io::Write;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use phux_tests::{phux_bin, TestServer};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let events: usize = value("--events").map_or(300_000, |v| v.parse().unwrap());
    let before = value("--before").map(PathBuf::from);
    println!("phux: {}", phux_bin().display());
    peak_rss_at_the_cap();
    if !args.iter().any(|a| a == "--skip-rec") {
        let dir = tempfile::tempdir().unwrap();
        let cast = long_cast(dir.path(), events);
        rec_from_peak("this build", &phux_bin(), &cast, dir.path());
        if let Some(before) = before {
            rec_from_peak("--before", &before, &cast, dir.path());
        }
    }
    snapshot_under_silent_connections();
}

/// Peak resident memory of a process (VmHWM), in MB.
fn peak_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn peak_rss_at_the_cap() {
    let server = TestServer::start();
    let pid = server.server_pid();
    let idle = peak_mb(pid);
    let script = "sleep 1; line=$(printf '%1000s' '' | tr ' ' 'x'); \
                  i=0; while [ $i -lt 11000 ]; do echo \"$i $line\"; i=$((i+1)); done; \
                  echo finished; exec sleep 600";
    let pane = server.new_session("cap", &["bash", "-c", script]);
    let resized = server.run(&["resize", &pane, "1000x1000"]);
    assert!(resized.status.success(), "resize to the cap failed");
    let start = Instant::now();
    while !phux_tests::screen(&server.socket, &pane)
        .lines
        .iter()
        .any(|l| l.contains("finished"))
    {
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "the pane never finished"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let t = Instant::now();
    let snapshot = server.run(&["snapshot", &pane, "--json"]);
    let snapshot_ms = t.elapsed().as_secs_f64() * 1000.0;
    let full = server.run(&["snapshot", &pane, "--scrollback", "--json"]);
    println!(
        "1. server peak RSS: {:.0} MB idle, {:.0} MB with a 1000x1000 pane and 10,000 rows of \
         1000-column history (snapshot of the viewport: {} in {snapshot_ms:.0} ms; with all \
         history: {})",
        idle,
        peak_mb(pid),
        if snapshot.status.success() {
            "ok"
        } else {
            "failed"
        },
        if full.status.success() {
            "ok".to_owned()
        } else {
            String::from_utf8_lossy(&full.stderr).trim().to_owned()
        }
    );
}

/// A cast of `events` one-line outputs, 10 ms apart: every event scrolls the screen.
fn long_cast(dir: &Path, events: usize) -> PathBuf {
    let path = dir.join("long.cast");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    writeln!(file, "{{\"version\":2,\"width\":80,\"height\":24}}").unwrap();
    for i in 1..=events {
        let t = i as f64 * 0.01;
        writeln!(file, "[{t:.3},\"o\",\"line {i} of the long cast\\r\\n\"]").unwrap();
    }
    drop(file);
    path
}

fn rec_from_peak(label: &str, phux: &Path, cast: &Path, dir: &Path) {
    let out = dir.join("out.gif");
    let start = Instant::now();
    let output = Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(phux)
        .args(["rec", "--from"])
        .arg(cast)
        .arg("-o")
        .arg(&out)
        .args(["--overwrite", "--json", "--max-bytes", "1000000000"])
        .stdin(Stdio::null())
        .output()
        .expect("/usr/bin/time");
    let elapsed = start.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let kb: f64 = stderr
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or(0.0);
    println!(
        "2. rec --from peak RSS ({label}): {:.0} MB in {elapsed:.0} s (exit {:?})",
        kb / 1024.0,
        output.status.code()
    );
}

fn snapshot_ms(server: &TestServer, pane: &str) -> f64 {
    let mut times: Vec<f64> = (0..5)
        .map(|_| {
            let t = Instant::now();
            let output = server.run(&["snapshot", pane, "--json"]);
            assert!(
                output.status.success(),
                "snapshot failed: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[2]
}

fn snapshot_under_silent_connections() {
    let server = TestServer::start();
    let pane = server.new_session("s", &["sleep", "600"]);
    let mut silent: Vec<UnixStream> = Vec::new();
    let mut within = 0;
    for n in [0, 100, 500, 1000, 2000, 5000, 10000] {
        while silent.len() < n {
            match UnixStream::connect(&server.socket) {
                Ok(stream) => silent.push(stream),
                Err(e) => {
                    println!("3. cannot open connection {}: {e}", silent.len() + 1);
                    break;
                }
            }
        }
        let ms = snapshot_ms(&server, &pane);
        println!(
            "3. {} silent connections: snapshot median {ms:.1} ms",
            silent.len()
        );
        if ms <= 50.0 {
            within = silent.len();
        }
    }
    println!("3. snapshot answered within 50 ms with up to {within} silent connections open");
}
