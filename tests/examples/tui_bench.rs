//! The TUI beside tmux, each attached in the same kind of PTY at 200x50 with two panes side by
//! side: how long `cat` of a large file takes to reach the outer screen, how long a keystroke
//! in the other pane takes to show during that flood (median, 99th percentile and worst of
//! 100, timed at the moment the outer screen took in the bytes that drew it), the bytes each
//! client wrote to the outer terminal, and the CPU an idle attached client uses.
//!
//! A benchmark, not a test: it prints figures. `TUI_BENCH_MB` sets the file size (default 50;
//! the flood must outlast the keystrokes: 200 MB for the default 100), `TUI_BENCH_SAMPLES` the
//! keystrokes.
//! Run: `cargo run --release -p phux-tests --example tui_bench` (needs tmux).

#![forbid(unsafe_code)]
#![allow(clippy::expect_used, clippy::unwrap_used)] // a benchmark fails loudly by design

use std::io::Write;
use std::time::{Duration, Instant};

use phux_tests::outer_screen::AttachedTui;
use phux_tests::TestServer;

const COLS: u16 = 200;
const ROWS: u16 = 50;
/// Keystrokes typed on one line before it is cleared.
const LINE_SAMPLES: usize = 40;

struct Figures {
    flood: Duration,
    latency: Vec<Duration>,
    /// The same keystrokes with nothing else running.
    calm: Vec<Duration>,
    bytes: usize,
    idle_cpu_percent: f64,
}

/// What differs between the two multiplexers: how to start, the prefix, the ready mark.
struct Tool {
    name: &'static str,
    prefix: &'static [u8],
    ready: &'static str,
}

fn main() {
    let mb: usize = std::env::var("TUI_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("flood.txt");
    write_flood_file(&file, mb);
    let file = file.display().to_string();
    let phux = {
        let server = TestServer::start();
        server.new_session("bench", &[]);
        let tui = AttachedTui::start(&server, &["attach", "bench"], COLS, ROWS);
        let tool = Tool {
            name: "phux",
            prefix: b"\x01",
            ready: "[bench]",
        };
        measure(&tool, &tui, &file)
    };
    let tmux = {
        let socket = format!("phux-bench-{}", std::process::id());
        let argv = [
            "tmux",
            "-L",
            &socket,
            "-f",
            "/dev/null",
            "new-session",
            "-s",
            "bench",
        ];
        let env = vec![("SHELL".into(), "/bin/sh".into())];
        let tui = AttachedTui::spawn(
            argv.iter().map(|s| s.to_string()).collect(),
            env,
            dir.path(),
            COLS,
            ROWS,
        );
        let tool = Tool {
            name: "tmux",
            prefix: b"\x02",
            ready: "[bench]",
        };
        let figures = measure(&tool, &tui, &file);
        let _ = std::process::Command::new("tmux")
            .args(["-L", &socket, "kill-server"])
            .status();
        figures
    };
    println!("{mb} MB cat at {COLS}x{ROWS}, two panes side by side; ratio = phux / tmux");
    println!("{:<34} {:>12} {:>12} {:>7}", "", "phux", "tmux", "ratio");
    // The percentiles of a set of keystrokes, in milliseconds.
    let keys = |samples: fn(&Figures) -> &[Duration], p: usize| {
        move |f: &Figures| ms(percentile(samples(f), p))
    };
    let rows: [(&str, Figure); 8] = [
        (
            "cat to the outer screen (s)",
            Box::new(|f| f.flood.as_secs_f64()),
        ),
        (
            "keystroke during flood, median (ms)",
            Box::new(keys(Figures::flooded, 50)),
        ),
        (
            "keystroke during flood, p99 (ms)",
            Box::new(keys(Figures::flooded, 99)),
        ),
        (
            "keystroke during flood, worst (ms)",
            Box::new(keys(Figures::flooded, 100)),
        ),
        (
            "keystroke at rest, median (ms)",
            Box::new(keys(Figures::calm, 50)),
        ),
        (
            "keystroke at rest, p99 (ms)",
            Box::new(keys(Figures::calm, 99)),
        ),
        (
            "bytes to the outer terminal (MB)",
            Box::new(|f| f.bytes as f64 / 1e6),
        ),
        ("idle client CPU (%)", Box::new(|f| f.idle_cpu_percent)),
    ];
    for (name, figure) in rows {
        let (p, t) = (figure(&phux), figure(&tmux));
        println!("{name:<34} {p:>12.2} {t:>12.2} {:>7.2}", p / t.max(1e-9));
    }
}

/// One row's figure, read from either tool's run.
type Figure = Box<dyn Fn(&Figures) -> f64>;

impl Figures {
    fn flooded(&self) -> &[Duration] {
        &self.latency
    }

    fn calm(&self) -> &[Duration] {
        &self.calm
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The sample `p` percent of the others are at or below (nearest rank).
fn percentile(samples: &[Duration], p: usize) -> Duration {
    let mut sorted = samples.to_vec();
    sorted.sort();
    let rank = (samples.len() * p).div_ceil(100).max(1);
    sorted.get(rank - 1).copied().unwrap_or_default()
}

/// Numbered lines of digits, about `mb` megabytes.
fn write_flood_file(path: &std::path::Path, mb: usize) {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut written = 0;
    let mut n = 0u64;
    while written < mb * 1_000_000 {
        let line = format!("{n:012} 0123456789 0123456789 0123456789 0123456789 0123456789\n");
        out.write_all(line.as_bytes()).unwrap();
        written += line.len();
        n += 1;
    }
}

fn wait_until(limit: Duration, mut done: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "timed out");
        std::thread::sleep(Duration::from_millis(1));
    }
    start.elapsed()
}

fn measure(tool: &Tool, tui: &AttachedTui, file: &str) -> Figures {
    let long = Duration::from_secs(600);
    tui.wait_for_text(tool.ready);
    std::thread::sleep(Duration::from_millis(500));
    tui.type_bytes(tool.prefix);
    tui.type_bytes(b"%");
    std::thread::sleep(Duration::from_millis(1000));
    // The flood alone, in the new (right) pane.
    let before = tui.written_len();
    tui.type_bytes(format!("cat {file}; echo FLOOD-$((1+1))-END\r").as_bytes());
    let flood = wait_until(long, || tui.shows("FLOOD-2-END"));
    let bytes = tui.written_len() - before;
    tui.type_bytes(b"clear\r");
    std::thread::sleep(Duration::from_millis(500));
    // Keystrokes in the left pane while the right one floods again.
    tui.type_bytes(format!("cat {file}; echo FLOOD-$((2+1))-END\r").as_bytes());
    std::thread::sleep(Duration::from_millis(200));
    tui.type_bytes(tool.prefix);
    tui.type_bytes(b"\x1b[D");
    std::thread::sleep(Duration::from_millis(300));
    let latency = keystrokes(tui);
    let end_mark = format!("FLOOD-{}-END", 2 + 1);
    if tui.shows(&end_mark) {
        println!("{}: the flood ended before the last keystroke", tool.name);
    }
    wait_until(long, || tui.shows("FLOOD-3-END"));
    tui.type_bytes(b"\x15");
    std::thread::sleep(Duration::from_millis(500));
    let calm = keystrokes(tui);
    tui.type_bytes(b"\x15");
    std::thread::sleep(Duration::from_secs(2));
    let idle_cpu_percent = idle_cpu(tui.pid(), Duration::from_secs(10));
    let samples: Vec<f64> = latency
        .iter()
        .map(|d| (d.as_secs_f64() * 100_000.0).round() / 100.0)
        .collect();
    println!("{}: keystroke samples (ms) {samples:?}", tool.name);
    Figures {
        flood,
        latency,
        calm,
        bytes,
        idle_cpu_percent,
    }
}

/// Keystrokes typed into the focused pane 10 ms apart (`TUI_BENCH_SAMPLES`, default 100),
/// each timed to the moment the outer screen shows it.
fn keystrokes(tui: &AttachedTui) -> Vec<Duration> {
    let samples: usize = std::env::var("TUI_BENCH_SAMPLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let mut latency = Vec::new();
    for n in 0..samples {
        // A fresh line every 40 keystrokes, so the typed run never wraps in the 100-column pane.
        if n > 0 && n % LINE_SAMPLES == 0 {
            tui.type_bytes(b"\x15");
            wait_until(Duration::from_secs(30), || !tui.shows("q"));
        }
        let typed = "q".repeat(n % LINE_SAMPLES + 1);
        let start = Instant::now();
        tui.type_bytes(b"q");
        latency.push(tui.shows_after(&typed, start, Duration::from_secs(30)));
        std::thread::sleep(Duration::from_millis(10));
    }
    latency
}

/// CPU time of process `pid` over `span`, in percent of one core.
fn idle_cpu(pid: u32, span: Duration) -> f64 {
    let ticks = || -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map(|(_, rest)| rest.split_whitespace().collect())
            .unwrap_or_default();
        // utime and stime are fields 14 and 15; after the ")" they are the 12th and 13th.
        fields
            .get(11)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
            + fields
                .get(12)
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(0)
    };
    let before = ticks();
    std::thread::sleep(span);
    let after = ticks();
    // 100 clock ticks per second on Linux.
    (after - before) as f64 / span.as_secs_f64()
}
