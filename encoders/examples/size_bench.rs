//! Bytes and encode time of every sample cast (and every `*.cast` in `$PHUX_BENCH_CASTS`) as
//! GIF and APNG, with unchanged pixels written as they are ("before") and as transparent
//! ("after"), side by side. A benchmark: it prints figures and never fails on them. (agg's own
//! figures are per recording of another machine's casts: `tests/benches/encode_bench.rs`
//! prints them beside ours per frame and megapixel.)
//!
//! Run: `cargo run --release -p phux-encoders --example size_bench`

#![allow(clippy::expect_used, clippy::unwrap_used)] // a benchmark fails loudly by design

use phux_encoders::{render_cast, EncodeOptions, RenderSettings};
use std::path::{Path, PathBuf};
use std::time::Instant;

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

fn render(cast: &phux_recorder::Cast, out: &Path, transparent: bool) -> (u64, u32, f64) {
    let settings = RenderSettings {
        options: EncodeOptions {
            max_bytes: u64::MAX,
            keep_unchanged_transparent: transparent,
            ..EncodeOptions::default()
        },
        prefer_cast_theme: true,
        fps: 30,
        speed: 1.0,
        idle_limit: Some(2.0),
        last_frame_hold: 1.0,
    };
    // The best of three runs: the machine is shared.
    let mut best = f64::INFINITY;
    let mut result = (0, 0);
    for _ in 0..3 {
        let start = Instant::now();
        let summary = render_cast(cast, out, &settings, &mut |_, _| {}).unwrap();
        best = best.min(start.elapsed().as_secs_f64() * 1000.0);
        result = (summary.bytes, summary.frames);
    }
    (result.0, result.1, best)
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    println!(
        "{:<28} {:<5} {:>7} {:>10} {:>9} {:>10} {:>9} {:>7}",
        "cast", "fmt", "frames", "before B", "before ms", "after B", "after ms", "after/"
    );
    for path in casts() {
        let cast = phux_recorder::read_cast(&path).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        for ext in ["gif", "png"] {
            let out = dir.path().join(format!("out.{ext}"));
            let (before, frames, before_ms) = render(&cast, &out, false);
            let (after, _, after_ms) = render(&cast, &out, true);
            println!(
                "{:<28} {:<5} {:>7} {:>10} {:>9.1} {:>10} {:>9.1} {:>7.3}",
                name,
                ext,
                frames,
                before,
                before_ms,
                after,
                after_ms,
                after as f64 / before as f64,
            );
        }
    }
    println!();
    println!("before: every pixel of a frame's changed rectangle written as it is;");
    println!("after: pixels equal to the frame before written as transparent (same images).");
}
