//! Server figures side by side with tmux and a bare PTY, run on this machine in one go. A
//! benchmark, not a test: it prints figures and ratios, and fails (exit 1) only when per-pane
//! memory grew more than 10% past the figures recorded in `docs/benchmarks.md`.
//!
//! Run: `cargo bench -p phux-tests --bench server_bench` (release build of `phux` first:
//! `cargo build --release -p phux-cli`; `PHUX_BENCH_MB` sets the file size, default 200;
//! `PHUX_BENCH_RUNS` the runs of the recording-overhead row, default 5, and `PHUX_BENCH_TRIALS`
//! the trials each side of a run takes the fastest of, default 3;
//! `PHUX_BENCH_ONLY=recording` or `=memory` runs that row alone; `=throughput` runs the
//! throughput row `PHUX_BENCH_RUNS` times and prints its spread).

#![forbid(unsafe_code)]
#![allow(clippy::expect_used, clippy::unwrap_used)] // a benchmark fails loudly by design

#[path = "server_bench/memory.rs"]
mod memory;

use phux_cli::client::Client;
use phux_core::documents::WatchEventKind;
use phux_core::wire::{ClientMessage, Frame, NewSession, NewSessionOk, ServerMessage, Subscribe};
use phux_tests::TestServer;
use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn big_file(dir: &Path, megabytes: usize) -> std::path::PathBuf {
    let path = dir.join("big.txt");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let line =
        b"the quick brown fox jumps over the lazy dog 0123456789 lorem ipsum dolor sit amet\n";
    for _ in 0..(megabytes * 1024 * 1024 / line.len()) {
        file.write_all(line).unwrap();
    }
    file.flush().unwrap();
    path
}

fn bare_pty(file: &Path) -> Duration {
    let start = Instant::now();
    let status = Command::new("script")
        .args(["-qc", &format!("cat {}", file.display()), "/dev/null"])
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    start.elapsed()
}

fn tmux(args: &[&str]) -> std::process::Output {
    Command::new("tmux")
        .args(["-L", "phux-bench", "-f", "/dev/null"])
        .args(args)
        .output()
        .unwrap()
}

fn tmux_cat(file: &Path) -> Duration {
    let _ = tmux(&["kill-server"]);
    let start = Instant::now();
    tmux(&[
        "new-session",
        "-d",
        "-x",
        "80",
        "-y",
        "24",
        &format!("cat {}", file.display()),
    ]);
    while tmux(&["has-session"]).status.success() {
        std::thread::sleep(Duration::from_millis(5));
    }
    start.elapsed()
}

/// CPU time `/proc/PID/stat` reports: the process's own (all threads), or that of its
/// children it has waited for. Counted in USER_HZ ticks, 100 a second on Linux.
fn cpu_of(pid: &str, children: bool) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command name: state is field 3, utime 14, stime 15, cutime 16,
    // cstime 17.
    let fields: Vec<u64> = stat
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .skip(1)
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    let at = if children { 13 } else { 11 };
    Duration::from_millis((fields[at] + fields[at + 1]) * 10)
}

/// Time from asking for a pane running `cat FILE` to the server reporting it closed, and the
/// CPU time the server used.
fn phux_cat(file: &Path) -> (Duration, Duration) {
    let server = TestServer::start();
    let mut watcher = Client::connect(&server.socket).unwrap();
    let _: phux_core::wire::Done = watcher
        .request(ClientMessage::Subscribe(Subscribe {
            id: 0,
            pane: None,
            events: vec!["pane_closed".into()],
            since_ms: None,
            after_ns: None,
        }))
        .unwrap();
    watcher.set_read_timeout(None).unwrap();
    let mut client = Client::connect(&server.socket).unwrap();
    let start = Instant::now();
    let _: NewSessionOk = client
        .request(ClientMessage::NewSession(NewSession {
            id: 0,
            name: Some("cat".into()),
            cwd: None,
            env: Vec::new(),
            command: Some(vec!["cat".into(), file.display().to_string()]),
            cols: Some(80),
            rows: Some(24),
            observe: false,
            history_limit: None,
        }))
        .unwrap();
    loop {
        let frame = watcher.read_frame().unwrap();
        if let Frame::Json(_) = frame {
            if let Ok(ServerMessage::Event(event)) = frame.decode::<ServerMessage>() {
                if matches!(event.event, WatchEventKind::PaneClosed { .. }) {
                    let took = start.elapsed();
                    return (took, cpu_of(&server.server_pid().to_string(), false));
                }
            }
        }
    }
}

/// `phux rec -o CAST -- cat FILE`: the same work with a recorder attached from the first byte,
/// and the CPU time the server and the recorder used. Also says whether the cast is whole: a
/// recorder that falls behind is dropped by the server and its cast ends early (a fast run
/// that recorded less).
fn phux_cat_recorded(file: &Path, dir: &Path) -> (Duration, bool, Duration) {
    let server = TestServer::start();
    let cast = dir.join("recorded.cast");
    let children_before = cpu_of("self", true);
    let start = Instant::now();
    let output = server.run(&[
        "rec",
        "-o",
        cast.to_str().unwrap(),
        "--size",
        "80x24",
        "--",
        "cat",
        file.to_str().unwrap(),
    ]);
    let took = start.elapsed();
    let recorder_cpu = cpu_of("self", true) - children_before;
    let cpu = cpu_of(&server.server_pid().to_string(), false) + recorder_cpu;
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let whole = !String::from_utf8_lossy(&output.stderr).contains("fell behind");
    let _ = std::fs::remove_file(&cast);
    (took, whole, cpu)
}

/// Records `echo start; sleep N; echo end` and compares the cast's gap with N seconds.
fn timing_fidelity(seconds: u64, dir: &Path) -> (f64, f64) {
    let server = TestServer::start();
    let cast_path = dir.join("fidelity.cast");
    let script = format!("echo start; sleep {seconds}; echo end");
    let output = server.run(&[
        "rec",
        "-o",
        cast_path.to_str().unwrap(),
        "--",
        "sh",
        "-c",
        &script,
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let cast = phux_recorder::read_cast(&cast_path).unwrap();
    let time_of = |needle: &str| {
        cast.events
            .iter()
            .find(|e| matches!(&e.kind, phux_recorder::EventKind::Output(t) if t.contains(needle)))
            .map(|e| e.time)
            .unwrap()
    };
    let gap = time_of("end") - time_of("start");
    (gap, (gap - seconds as f64) * 1000.0)
}

/// Unrecorded and recorded runs alternated, `PHUX_BENCH_RUNS` times (default 5): each run's
/// throughput ratio and CPU ratio, then their medians and spreads. On a shared machine the
/// wall-clock ratio swings with whatever else runs; the CPU the recorder adds (the server's
/// stream to it and the `phux rec` process) is the steadier figure, and on a busy machine
/// throughput follows it.
fn recording_overhead(file: &Path, dir: &Path) {
    let runs: usize = std::env::var("PHUX_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5)
        .max(1);
    let trials: usize = std::env::var("PHUX_BENCH_TRIALS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
        .max(1);
    println!(
        "recording overhead: the same cat with `phux rec -- cat` attached, {runs} runs, each \
         side the fastest of {trials} trials taken in turn (the machine's noise only adds time)"
    );
    let mut ratios = Vec::new();
    let mut cpu_ratios = Vec::new();
    for run in 1..=runs {
        let (mut plain, mut plain_cpu) = (Duration::MAX, Duration::ZERO);
        let (mut recorded, mut whole, mut recorded_cpu) = (Duration::MAX, true, Duration::ZERO);
        for _ in 0..trials {
            let (took, cpu) = phux_cat(file);
            if took < plain {
                (plain, plain_cpu) = (took, cpu);
            }
            let (took, complete, cpu) = phux_cat_recorded(file, dir);
            whole &= complete;
            if took < recorded {
                (recorded, recorded_cpu) = (took, cpu);
            }
        }
        let ratio = plain.as_secs_f64() / recorded.as_secs_f64();
        let cpu_ratio = recorded_cpu.as_secs_f64() / plain_cpu.as_secs_f64().max(0.01);
        println!(
            "  run {run}: unrecorded {:.2} s ({:.2} s CPU), recorded {:.2} s ({:.2} s CPU), throughput {ratio:.2}x of unrecorded, CPU {cpu_ratio:.2}x{}",
            plain.as_secs_f64(),
            plain_cpu.as_secs_f64(),
            recorded.as_secs_f64(),
            recorded_cpu.as_secs_f64(),
            if whole {
                ""
            } else {
                "  INCOMPLETE: the recorder fell behind and was dropped (not counted)"
            }
        );
        if whole {
            ratios.push(ratio);
            cpu_ratios.push(cpu_ratio);
        }
    }
    if ratios.is_empty() {
        println!("  no run recorded the whole output");
        return;
    }
    let summary = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        (v[v.len() / 2], v[0], v[v.len() - 1])
    };
    let (median, low, high) = summary(ratios);
    println!(
        "  throughput: median {median:.2}x, spread {low:.2}x to {high:.2}x (goal: median >= 0.9x)"
    );
    let (median, low, high) = summary(cpu_ratios);
    println!("  CPU (server + recorder): median {median:.2}x of unrecorded, spread {low:.2}x to {high:.2}x");
}

fn main() {
    let megabytes: usize = std::env::var("PHUX_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let only = std::env::var("PHUX_BENCH_ONLY").unwrap_or_default();
    if only == "memory" {
        memory_or_exit();
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = big_file(dir.path(), megabytes);
    if only == "recording" {
        recording_overhead(&file, dir.path());
        return;
    }
    if only == "throughput" {
        throughput_runs(&file, megabytes);
        return;
    }
    println!(
        "throughput: cat of a {megabytes} MB text file in an 80x24 pane, until the pane closes"
    );
    let bare = bare_pty(&file);
    let tmux_time = tmux_cat(&file);
    let (phux_time, _) = phux_cat(&file);
    println!(
        "{:<12} {:>9}  {:>12}  {:>14}",
        "", "seconds", "vs tmux", "vs bare PTY"
    );
    for (name, took) in [("bare PTY", bare), ("tmux", tmux_time), ("phux", phux_time)] {
        let secs = took.as_secs_f64();
        println!(
            "{name:<12} {secs:>9.2}  {:>11.2}x  {:>13.2}x",
            secs / tmux_time.as_secs_f64(),
            secs / bare.as_secs_f64()
        );
    }
    println!("  goal: phux <= 0.5x tmux and <= 1.2x the bare PTY");
    recording_overhead(&file, dir.path());
    let fidelity_secs = std::env::var("PHUX_BENCH_FIDELITY_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let (gap, error_ms) = timing_fidelity(fidelity_secs, dir.path());
    println!("timing fidelity: `sleep {fidelity_secs}` between two outputs is {gap:.4} s in the cast ({error_ms:+.2} ms; goal within 10 ms over 30 s)");
    println!(
        "flight recorder: at most {:.1} MiB per pane by default (phux_server::flight::DEFAULT_FLIGHT_BYTES)",
        phux_server::flight::DEFAULT_FLIGHT_BYTES as f64 / 1024.0 / 1024.0
    );
    println!();
    memory_or_exit();
}

/// The throughput row `PHUX_BENCH_RUNS` times (default 5), the bare PTY, tmux and phux taken
/// in turn in each run, so the machine's load weighs on the three alike; then the median, least
/// and most of phux's time over the bare PTY's and over tmux's.
fn throughput_runs(file: &Path, megabytes: usize) {
    let runs: usize = std::env::var("PHUX_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5)
        .max(1);
    println!("throughput: cat of a {megabytes} MB text file in an 80x24 pane, {runs} runs");
    let (mut over_bare, mut over_tmux) = (Vec::new(), Vec::new());
    for run in 1..=runs {
        let bare = bare_pty(file).as_secs_f64();
        let tmux_time = tmux_cat(file).as_secs_f64();
        let (phux_time, phux_cpu) = phux_cat(file);
        let phux_time = phux_time.as_secs_f64();
        println!(
            "  run {run}: bare PTY {bare:.2} s, tmux {tmux_time:.2} s, phux {phux_time:.2} s \
             (server CPU {:.2} s): {:.2}x the bare PTY, {:.2}x tmux",
            phux_cpu.as_secs_f64(),
            phux_time / bare,
            phux_time / tmux_time
        );
        over_bare.push(phux_time / bare);
        over_tmux.push(phux_time / tmux_time);
    }
    let summary = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        (v[v.len() / 2], v[0], v[v.len() - 1])
    };
    let (median, low, high) = summary(over_bare);
    println!(
        "  phux / bare PTY: median {median:.2}x, {low:.2}x to {high:.2}x (goal: median <= 1.0x)"
    );
    let (median, low, high) = summary(over_tmux);
    println!("  phux / tmux: median {median:.2}x, {low:.2}x to {high:.2}x");
}

/// The memory row; a regression past the recorded figures ends the bench with exit 1.
fn memory_or_exit() {
    if !memory::memory_row() {
        eprintln!(
            "server_bench: per-pane memory regressed more than 10% against docs/benchmarks.md"
        );
        std::process::exit(1);
    }
}
