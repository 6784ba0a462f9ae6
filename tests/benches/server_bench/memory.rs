//! The memory row: the server's RSS per pane with 1, 10 and 50 panes each holding 10,000 lines
//! of history, beside tmux; what holds it (one pane's structures rebuilt in this process from
//! the same output, threads counted in the server); and the check against the figures recorded
//! in `docs/benchmarks.md`: more than 10% above one of them exits non-zero.

use phux_core::engine::{release_free_heap, Terminal};
use phux_server::flight::{FlightRecorder, DEFAULT_FLIGHT_BYTES};
use phux_server::pane::output_log::OutputLog;
use phux_tests::{rss_of, threads_of, wait_until, TestServer};
use std::sync::Arc;
use std::time::Duration;

const SCROLLBACK_SCRIPT: &str = "seq -f 'line %g of the ten thousand lines of scrollback kept by this pane' 1 10000; exec sleep 600";
const HISTORY_LINES: usize = 10_000;
/// A figure may grow this much over the recorded one before the bench fails.
const TOLERANCE: f64 = 1.10;
const PANE_COUNTS: [usize; 3] = [1, 10, 50];

/// The server's RSS and thread count once `panes` panes have printed their history.
fn phux_memory(panes: usize) -> (u64, usize) {
    let server = TestServer::start();
    for i in 0..panes {
        server.json(&[
            "new",
            "-s",
            &format!("m{i}"),
            "--json",
            "--",
            "sh",
            "-c",
            SCROLLBACK_SCRIPT,
        ]);
    }
    wait_until("output settles", Duration::from_secs(120), || {
        std::thread::sleep(Duration::from_millis(500));
        let a = rss_of(server.server_pid());
        std::thread::sleep(Duration::from_millis(500));
        rss_of(server.server_pid()) == a
    });
    let pid = server.server_pid();
    (rss_of(pid), threads_of(pid).len())
}

fn tmux(args: &[&str]) -> Option<std::process::Output> {
    std::process::Command::new("tmux")
        .args(["-L", "phux-bench"])
        .args(args)
        .output()
        .ok()
}

/// tmux's server RSS with the same panes, when tmux is installed.
fn tmux_memory(panes: usize) -> Option<u64> {
    let _ = tmux(&["kill-server"]);
    tmux(&["new-session", "-d", "-x", "80", "-y", "24", "sleep 600"])?;
    tmux(&["set-option", "-g", "history-limit", "10000"]);
    for _ in 0..panes {
        tmux(&[
            "new-window",
            "-d",
            &format!("sh -c \"{SCROLLBACK_SCRIPT}\""),
        ]);
    }
    std::thread::sleep(Duration::from_secs(2));
    let pid = String::from_utf8(tmux(&["display-message", "-p", "#{pid}"])?.stdout).ok()?;
    let rss = rss_of(pid.trim().parse().unwrap_or(0));
    let _ = tmux(&["kill-server"]);
    Some(rss)
}

/// The bytes the script prints, as the PTY hands them to the server (`\n` made `\r\n`), in
/// reads of the size the reader sees from a fast writer.
fn history_reads() -> Vec<Arc<[u8]>> {
    let mut all = Vec::new();
    for n in 1..=HISTORY_LINES {
        all.extend_from_slice(
            format!("line {n} of the ten thousand lines of scrollback kept by this pane\r\n")
                .as_bytes(),
        );
    }
    all.chunks(4095).map(Arc::from).collect()
}

/// What one pane's structures hold after the same output, rebuilt here (bytes).
struct PaneParts {
    engine: u64,
    flight: u64,
    output_log: u64,
}

fn pane_parts() -> PaneParts {
    let reads = history_reads();
    // The engine allocates outside Rust's heap: weigh it by this process's RSS over several
    // terminals, compressed as the pane compresses history when it goes idle.
    const TERMINALS: u64 = 8;
    release_free_heap();
    let before = rss_of(std::process::id());
    let mut terminals = Vec::new();
    for _ in 0..TERMINALS {
        let mut terminal = Terminal::new(80, 24, HISTORY_LINES).expect("the engine loads");
        for read in &reads {
            terminal.write(read);
        }
        let _ = terminal.compress_history(true);
        terminals.push(terminal);
    }
    release_free_heap();
    let engine = rss_of(std::process::id()).saturating_sub(before) / TERMINALS;
    let mut flight = FlightRecorder::new(DEFAULT_FLIGHT_BYTES);
    let log = OutputLog::default();
    for (seq, read) in reads.iter().enumerate() {
        flight.output(seq as u64, seq as u64, Arc::clone(read));
        log.append(Arc::clone(read));
    }
    // As a pane packs them when it goes quiet.
    flight.pack();
    log.pack();
    PaneParts {
        engine,
        flight: flight.used_bytes() as u64,
        output_log: log.own_bytes() as u64,
    }
}

/// The figures recorded in `docs/benchmarks.md`: table rows `| rss_per_pane_mb_N | X |`.
fn recorded() -> Vec<(usize, f64)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/benchmarks.md");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let panes = cells
                .get(1)?
                .strip_prefix("rss_per_pane_mb_")?
                .parse()
                .ok()?;
            Some((panes, cells.get(2)?.parse().ok()?))
        })
        .collect()
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1024.0 / 1024.0
}

/// Prints the row and its breakdown; false when a figure regressed past the recorded one.
pub fn memory_row() -> bool {
    println!("memory: server RSS with N panes each holding {HISTORY_LINES} lines of scrollback");
    println!(
        "{:<6} {:>10} {:>10} {:>14} {:>14} {:>16}",
        "panes", "phux MB", "tmux MB", "phux MB/pane", "tmux MB/pane", "threads/pane"
    );
    let (phux_base, threads_base) = phux_memory(0);
    let tmux_base = tmux_memory(0);
    let mut per_pane = Vec::new();
    for panes in PANE_COUNTS {
        let ((p, threads), t) = (phux_memory(panes), tmux_memory(panes));
        let mine = mb(p.saturating_sub(phux_base)) / panes as f64;
        let tmux_per_pane = match (t, tmux_base) {
            (Some(t), Some(base)) => format!("{:.2}", mb(t.saturating_sub(base)) / panes as f64),
            _ => "-".to_owned(),
        };
        println!(
            "{panes:<6} {:>10.1} {:>10} {mine:>14.2} {tmux_per_pane:>14} {:>16.1}",
            mb(p),
            t.map_or("-".to_owned(), |t| format!("{:.1}", mb(t))),
            threads.saturating_sub(threads_base) as f64 / panes as f64
        );
        per_pane.push((panes, mine));
    }
    let parts = pane_parts();
    let last = per_pane.last().map_or(0.0, |(_, m)| *m);
    let held = mb(parts.engine + parts.flight + parts.output_log);
    println!(
        "  what holds a quiet pane's memory (one pane rebuilt in process from the same output):"
    );
    println!(
        "    engine screen + history (compressed):  {:>6.2} MB",
        mb(parts.engine)
    );
    println!(
        "    flight recorder ring (packed):         {:>6.2} MB (cap {:.1} MiB)",
        mb(parts.flight),
        mb(DEFAULT_FLIGHT_BYTES as u64)
    );
    println!(
        "    output log window (packed):            {:>6.2} MB",
        mb(parts.output_log)
    );
    println!(
        "    rest at {} panes (threads, bus, allocator): {:>6.2} MB",
        PANE_COUNTS[PANE_COUNTS.len() - 1],
        last - held
    );
    check(&per_pane)
}

/// Compares with the recorded figures; prints each verdict.
fn check(per_pane: &[(usize, f64)]) -> bool {
    let recorded = recorded();
    if recorded.is_empty() {
        println!("  no recorded figures in docs/benchmarks.md: nothing to check");
        return true;
    }
    let mut ok = true;
    for (panes, reference) in recorded {
        let Some((_, now)) = per_pane.iter().find(|(p, _)| *p == panes) else {
            continue;
        };
        let verdict = if *now > reference * TOLERANCE {
            ok = false;
            "REGRESSED"
        } else {
            "ok"
        };
        println!("  check {panes} panes: {now:.2} MB/pane against {reference:.2} recorded (limit +10%): {verdict}");
    }
    ok
}
