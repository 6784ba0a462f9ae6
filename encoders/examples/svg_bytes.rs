//! SVG bytes beside GIF bytes for every sample cast (`samples/*.cast`, `samples/corpus/`), both
//! drawn as `phux rec` draws them (the smooth default font, padded, 30 fps, idle limit 2 s or
//! the cast's own, last frame 3 s), with the frames each holds and SVG/GIF as a ratio. A
//! benchmark: it prints figures and never fails on them.
//!
//! Run: `cargo run --release -p phux-encoders --example svg_bytes`. Environment:
//! - `PHUX_BENCH_SAVE=FILE`: keep this run's SVG bytes (one tab-separated line per cast);
//! - `PHUX_BENCH_BEFORE=FILE`: a saved run, printed beside this one (before → after).

#![allow(clippy::expect_used, clippy::unwrap_used)] // a benchmark fails loudly by design

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use phux_encoders::{
    render_cast, EncodeOptions, EncodeSummary, FontOptions, FrameChrome, RenderSettings,
    DEFAULT_PADDING,
};

fn casts() -> Vec<PathBuf> {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let mut casts: Vec<PathBuf> = [samples.clone(), samples.join("corpus")]
        .iter()
        .flat_map(|dir| std::fs::read_dir(dir).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cast"))
        .collect();
    casts.sort();
    casts
}

fn render(cast: &phux_recorder::Cast, out: &Path) -> EncodeSummary {
    let settings = RenderSettings {
        options: EncodeOptions {
            font: FontOptions::smooth(),
            chrome: FrameChrome {
                padding: DEFAULT_PADDING,
                ..FrameChrome::default()
            },
            ..EncodeOptions::default()
        },
        prefer_cast_theme: true,
        fps: 30,
        speed: 1.0,
        idle_limit: cast.header.idle_time_limit.or(Some(2.0)),
        last_frame_hold: 3.0,
    };
    render_cast(cast, out, &settings, &mut |_, _| {}).unwrap()
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let before: HashMap<String, u64> = std::env::var("PHUX_BENCH_BEFORE")
        .ok()
        .and_then(|path| std::fs::read_to_string(path).ok())
        .map(|text| {
            text.lines()
                .filter_map(|l| l.split_once('\t'))
                .filter_map(|(name, bytes)| Some((name.to_string(), bytes.parse().ok()?)))
                .collect()
        })
        .unwrap_or_default();
    let mut saved = String::new();
    let (mut gif_total, mut svg_total) = (0u64, 0u64);
    println!(
        "{:<26} {:>8} {:>10} {:>10} {:>9}{}",
        "cast",
        "frames",
        "GIF bytes",
        "SVG bytes",
        "SVG/GIF",
        if before.is_empty() {
            ""
        } else {
            "   SVG before → after"
        }
    );
    for path in casts() {
        let name = path
            .strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples"))
            .unwrap()
            .display()
            .to_string();
        let cast = phux_recorder::read_cast(&path).unwrap();
        let gif = render(&cast, &dir.path().join("out.gif"));
        let svg = render(&cast, &dir.path().join("out.svg"));
        gif_total += gif.bytes;
        svg_total += svg.bytes;
        saved.push_str(&format!("{name}\t{}\n", svg.bytes));
        let then = before.get(&name).map_or(String::new(), |b| {
            format!(
                "   {b} → {} ({:.2}x)",
                svg.bytes,
                svg.bytes as f64 / *b as f64
            )
        });
        println!(
            "{name:<26} {:>8} {:>10} {:>10} {:>8.2}x{then}",
            format!("{}/{}", gif.frames, svg.frames),
            gif.bytes,
            svg.bytes,
            svg.bytes as f64 / gif.bytes as f64
        );
    }
    println!(
        "{:<26} {:>8} {:>10} {:>10} {:>8.2}x",
        "total",
        "",
        gif_total,
        svg_total,
        svg_total as f64 / gif_total as f64
    );
    if let Ok(path) = std::env::var("PHUX_BENCH_SAVE") {
        std::fs::write(path, saved).unwrap();
    }
}
