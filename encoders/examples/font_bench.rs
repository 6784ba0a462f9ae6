//! Bitmap vs smooth (TrueType) rendering of the sample casts, beside agg 1.9's figures: bytes,
//! seconds and peak RSS per recording and mode, with smooth measured at 4, 8 and 16 coverage
//! levels. A benchmark, not a test: it prints figures and never fails on them. Each render runs
//! in its own process so its peak RSS is its own.
//!
//! Run: `cargo run --release -p phux-encoders --example font_bench [CAST...]`
//! (default: every `samples/*.cast`; the engine must be installed, as for `phux rec`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use phux_encoders::{render_cast, EncodeOptions, FontOptions, RenderSettings};

/// agg 1.9 on this machine (recorded in `tests/benches/encode_bench.rs`): frames, seconds,
/// bytes, width, height; its peak RSS was 130-180 MB.
const AGG: [(&str, u64, f64, u64, u32, u32); 3] = [
    ("progress bar 100x30", 154, 6.2, 1_340_000, 983, 694),
    ("shell session 100x30", 324, 10.6, 1_040_000, 983, 694),
    ("htop 120x36", 51, 3.3, 1_500_000, 1175, 829),
];

/// The modes measured: label, font size (none: bitmap), coverage levels.
const MODES: [(&str, Option<f32>, u8); 4] = [
    ("bitmap 8x16", None, 0),
    ("smooth 14px L4", Some(14.0), 4),
    ("smooth 14px L8", Some(14.0), 8),
    ("smooth 14px L16", Some(14.0), 16),
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("one") {
        return one(&args[1..]);
    }
    let casts: Vec<PathBuf> = if args.is_empty() {
        samples()
    } else {
        args.iter().map(PathBuf::from).collect()
    };
    println!("agg 1.9 on this machine (recorded figures; peak RSS 130-180 MB)");
    header();
    for (name, frames, secs, bytes, w, h) in AGG {
        row(name, frames, secs, bytes, w, h, 0);
    }
    println!();
    println!("phux (this build), GIF");
    header();
    let exe = std::env::current_exe()?;
    for cast in &casts {
        for (label, size, levels) in MODES {
            let out = std::process::Command::new(&exe)
                .arg("one")
                .arg(cast)
                .arg(size.map_or("-".to_string(), |s| s.to_string()))
                .arg(levels.to_string())
                .output()?;
            let text = String::from_utf8_lossy(&out.stdout);
            let f: Vec<&str> = text.split_whitespace().collect();
            if !out.status.success() || f.len() != 6 {
                eprintln!(
                    "{}: {}",
                    cast.display(),
                    String::from_utf8_lossy(&out.stderr)
                );
                continue;
            }
            let name = format!(
                "{} {label}",
                cast.file_stem().unwrap_or_default().to_string_lossy()
            );
            let p = |i: usize| f[i].parse::<u64>().unwrap_or(0);
            let secs: f64 = f[1].parse().unwrap_or(0.0);
            row(&name, p(0), secs, p(2), p(3) as u32, p(4) as u32, p(5));
        }
    }
    println!();
    println!("goals (smooth at agg's size): >= 10x agg's frames/s, <= agg's bytes per frame per");
    println!("megapixel, peak RSS <= 0.5x agg's (65-90 MB); bitmap unchanged or better");
    Ok(())
}

/// Renders one cast in one mode and prints `frames seconds bytes width height peak_rss_kb`.
fn one(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let cast_path = Path::new(&args[0]);
    let size: Option<f32> = args[1].parse().ok();
    let levels: u8 = args[2].parse().unwrap_or(8);
    let cast = phux_recorder::read_cast(cast_path)?;
    let font = FontOptions {
        size_px: size,
        coverage_levels: if size.is_some() { levels } else { 8 },
        ..FontOptions::default()
    };
    let dir = tempfile::tempdir()?;
    let out = dir.path().join("out.gif");
    let settings = RenderSettings {
        options: EncodeOptions {
            max_bytes: u64::MAX,
            font,
            ..EncodeOptions::default()
        },
        prefer_cast_theme: true,
        fps: 30,
        speed: 1.0,
        idle_limit: cast.header.idle_time_limit.or(Some(2.0)),
        last_frame_hold: 3.0,
    };
    let start = Instant::now();
    let summary = render_cast(&cast, &out, &settings, &mut |_, _| {})?;
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} {secs:.3} {} {} {} {}",
        summary.frames,
        summary.bytes,
        summary.width_px,
        summary.height_px,
        peak_rss_kb()
    );
    Ok(())
}

fn peak_rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

fn samples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let mut casts: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cast"))
        .collect();
    casts.sort();
    casts
}

fn header() {
    println!(
        "{:<28} {:>6} {:>8} {:>8} {:>9} {:>8} {:>11} {:>10} {:>7}",
        "recording / mode",
        "frames",
        "frames/s",
        "seconds",
        "bytes",
        "B/frame",
        "B/frame/MP",
        "pixels",
        "RSS MB"
    );
}

fn row(name: &str, frames: u64, secs: f64, bytes: u64, w: u32, h: u32, rss_kb: u64) {
    let mp = f64::from(w) * f64::from(h) / 1e6;
    let per_frame = bytes as f64 / frames.max(1) as f64;
    let rss = if rss_kb == 0 {
        "-".to_string()
    } else {
        format!("{:.1}", rss_kb as f64 / 1024.0)
    };
    println!(
        "{name:<28} {frames:>6} {:>8.1} {secs:>8.2} {bytes:>9} {per_frame:>8.0} {:>11.0} {:>10} {rss:>7}",
        frames as f64 / secs.max(1e-9),
        per_frame / mp,
        format!("{w}x{h}"),
    );
}
