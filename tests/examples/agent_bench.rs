//! The agent-loop figures of issue 4, beside tmux on the same machine: `snapshot --json` per
//! call vs `tmux capture-pane -p`, send → visible (`send-keys` then `wait --until` vs tmux
//! `send-keys` then a `capture-pane` poll loop), send and wait in one call (`send-keys
//! --wait-until`) against the same tmux loop, and `phux run @N true` end to end. Medians of
//! N runs (default 200; `PHUX_BENCH_RUNS`), each a fresh process as an agent would start it;
//! phux and tmux take turns of ten calls, so a machine that slows down mid-run slows both alike.
//! A benchmark prints figures; it asserts nothing.
//!
//! Run: `cargo build --release -p phux-cli && cargo run --release -p phux-tests --example
//! agent_bench` (scripts/bench does both). Uses the release `phux` next to this example.

#![forbid(unsafe_code)]
#![allow(clippy::expect_used, clippy::unwrap_used)] // a benchmark fails loudly by design

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TMUX_SOCKET: &str = "phux-agent-bench";

fn main() {
    let runs: usize = std::env::var("PHUX_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let phux = phux_tests::phux_bin();
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(
        dir.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    let socket = dir.path().join("phux.sock");
    let mut server = Command::new(&phux)
        .args(["server", "--no-seed", "--socket"])
        .arg(&socket)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let bench = Bench { phux, socket };
    bench.wait_for_server();
    let shell = ["env", "PS1=$ ", "bash", "--norc", "--noprofile", "-i"];
    let mut new = vec!["new", "-s", "bench", "--json", "--"];
    new.extend_from_slice(&shell);
    let created = bench.output(&new);
    let doc: serde_json::Value = serde_json::from_slice(&created).unwrap();
    let pane = format!("@{}", doc["terminal_id"]);
    bench.ok(&["wait", "--until", "$", "--timeout", "10", &pane]);

    let tmux = Tmux::start(&shell);

    println!("agent loop, median of {runs} runs (each a fresh process), release build");
    let spawn = samples(runs, || {
        time(Command::new("/bin/true").stdout(Stdio::null()))
    })
    .median();
    let floor = samples(runs, || {
        time(bench.command(&["--version"]).stdout(Stdio::null()))
    })
    .median();
    let id: u32 = pane.trim_start_matches('@').parse().unwrap();
    let served = samples(runs, || {
        let start = Instant::now();
        let mut client = phux_cli::client::Client::connect(&bench.socket).unwrap();
        phux_cli::client::screen::get_screen(&mut client, phux_core::ids::PaneId(id), None, false)
            .unwrap();
        start.elapsed()
    })
    .median();
    println!(
        "  (starting any process here: {}; starting phux itself, `phux --version`: {}; the \
         server's part of a snapshot, connect + hello + get_screen from a running process: {})",
        ms(spawn),
        ms(floor),
        ms(served)
    );
    println!();
    println!("| figure | phux | tmux | phux / tmux | goal |");
    println!("|---|---|---|---|---|");

    let (phux_snap, tmux_snap) = paired(
        runs,
        || {
            time(
                bench
                    .command(&["snapshot", "--json", &pane])
                    .stdout(Stdio::null()),
            )
        },
        || time(&mut tmux.command(&["capture-pane", "-p", "-t", "bench"])),
    );
    row(
        "snapshot --json per call vs capture-pane -p",
        &phux_snap,
        Some(&tmux_snap),
        "≤ 0.6×",
    );

    let (mut i, mut j) = (0, 0);
    let (phux_visible, tmux_visible) = paired(
        runs,
        || {
            i += 1;
            let mark = format!("MARK{i}P");
            let start = Instant::now();
            bench.ok(&["send-keys", &pane, &format!("echo {mark}"), "Enter"]);
            bench.ok(&["wait", "--until", &mark, "--timeout", "10", &pane]);
            start.elapsed()
        },
        || {
            j += 1;
            let mark = format!("MARK{j}T");
            tmux.send_until_shown(&mark)
        },
    );
    row(
        "send → visible (send-keys, then wait --until / capture-pane poll)",
        &phux_visible,
        Some(&tmux_visible),
        "≤ 0.5×",
    );

    // The same loop in one call: `send-keys --wait-until`, against tmux's send-keys + poll.
    let (mut i, mut j) = (0, 0);
    let (phux_one, tmux_poll) = paired(
        runs,
        || {
            i += 1;
            let mark = format!("ONE{i}P");
            let start = Instant::now();
            bench.ok(&[
                "send-keys",
                "--wait-until",
                &mark,
                "--timeout",
                "10",
                &pane,
                &format!("echo {mark}"),
                "Enter",
            ]);
            start.elapsed()
        },
        || {
            j += 1;
            let mark = format!("ONE{j}T");
            tmux.send_until_shown(&mark)
        },
    );
    row(
        "send and wait in one call (send-keys --wait-until / send-keys + capture-pane poll)",
        &phux_one,
        Some(&tmux_poll),
        "≤ 0.35×",
    );

    let phux_run = samples(runs, || {
        let start = Instant::now();
        bench.ok(&["run", &pane, "true"]);
        start.elapsed()
    });
    row("run @N true, end to end", &phux_run, None, "< 15 ms");
    println!();
    println!(
        "Each cell: median (10th–90th percentile). phux and tmux take turns of {TURN} calls, \
         so both see the same machine."
    );

    tmux.stop();
    let _ = bench.command(&["kill", "--server"]).status();
    let _ = server.wait();
}

struct Bench {
    phux: PathBuf,
    socket: PathBuf,
}

impl Bench {
    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(&self.phux);
        command
            .args(args)
            .env("PHUX_SOCKET", &self.socket)
            .stdin(Stdio::null())
            .stderr(Stdio::null());
        command
    }

    fn output(&self, args: &[&str]) -> Vec<u8> {
        let output = self.command(args).output().unwrap();
        assert!(output.status.success(), "phux {args:?} failed");
        output.stdout
    }

    fn ok(&self, args: &[&str]) {
        let status = self.command(args).stdout(Stdio::null()).status().unwrap();
        assert!(status.success(), "phux {args:?} failed");
    }

    fn wait_for_server(&self) {
        let start = Instant::now();
        while !(Path::new(&self.socket).exists()
            && self
                .command(&["status"])
                .stdout(Stdio::null())
                .status()
                .is_ok_and(|s| s.success()))
        {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the server never answered"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

struct Tmux;

impl Tmux {
    fn start(shell: &[&str]) -> Tmux {
        let tmux = Tmux;
        tmux.stop();
        let mut args = vec![
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            "bench",
            "-x",
            "80",
            "-y",
            "24",
        ];
        args.extend_from_slice(shell);
        tmux.ok(&args);
        let start = Instant::now();
        while !String::from_utf8_lossy(&tmux.output(&["capture-pane", "-p", "-t", "bench"]))
            .contains('$')
        {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "tmux's shell never prompted"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        tmux
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new("tmux");
        command
            .args(["-L", TMUX_SOCKET])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        command
    }

    fn output(&self, args: &[&str]) -> Vec<u8> {
        let output = self.command(args).stdout(Stdio::piped()).output().unwrap();
        output.stdout
    }

    fn ok(&self, args: &[&str]) {
        let status = self.command(args).status().unwrap();
        assert!(status.success(), "tmux {args:?} failed");
    }

    /// `send-keys 'echo MARK' Enter`, then `capture-pane` until MARK shows: the time it took.
    fn send_until_shown(&self, mark: &str) -> Duration {
        let start = Instant::now();
        self.ok(&["send-keys", "-t", "bench", &format!("echo {mark}"), "Enter"]);
        loop {
            let screen = self.output(&["capture-pane", "-p", "-t", "bench"]);
            if String::from_utf8_lossy(&screen).contains(mark) {
                return start.elapsed();
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "tmux never showed {mark}"
            );
        }
    }

    fn stop(&self) {
        let _ = self.command(&["kill-server"]).status();
    }
}

fn time(command: &mut Command) -> Duration {
    let start = Instant::now();
    let status = command.status().unwrap();
    let elapsed = start.elapsed();
    assert!(status.success(), "{command:?} failed");
    elapsed
}

/// Sorted samples of one figure.
struct Samples(Vec<Duration>);

impl Samples {
    fn percentile(&self, p: usize) -> Duration {
        self.0[(self.0.len() - 1) * p / 100]
    }

    fn median(&self) -> Duration {
        self.percentile(50)
    }

    fn cell(&self) -> String {
        format!(
            "{} ({}–{})",
            ms(self.median()),
            ms(self.percentile(10)),
            ms(self.percentile(90))
        )
    }
}

fn samples(runs: usize, mut sample: impl FnMut() -> Duration) -> Samples {
    let mut all: Vec<Duration> = (0..runs.max(1)).map(|_| sample()).collect();
    all.sort_unstable();
    Samples(all)
}

/// Calls of one tool in a row before the other takes its turn: each runs warm, as it does for
/// an agent calling it again and again, and a machine that slows down mid-run slows both alike.
const TURN: usize = 10;

/// `runs` samples of each, taken in alternating turns of [`TURN`].
fn paired(
    runs: usize,
    mut phux: impl FnMut() -> Duration,
    mut tmux: impl FnMut() -> Duration,
) -> (Samples, Samples) {
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    while ours.len() < runs.max(1) {
        for _ in 0..TURN {
            ours.push(phux());
        }
        for _ in 0..TURN {
            theirs.push(tmux());
        }
    }
    ours.sort_unstable();
    theirs.sort_unstable();
    (Samples(ours), Samples(theirs))
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn row(name: &str, phux: &Samples, tmux: Option<&Samples>, goal: &str) {
    let (tmux_text, ratio) = match tmux {
        Some(t) => (
            t.cell(),
            format!(
                "{:.2}×",
                phux.median().as_secs_f64() / t.median().as_secs_f64()
            ),
        ),
        None => ("—".to_owned(), "—".to_owned()),
    };
    println!(
        "| {name} | {} | {tmux_text} | {ratio} | {goal} |",
        phux.cell()
    );
}
