//! GIF/APNG rendering figures beside agg 1.9's, measured on this machine by the issue (agg:
//! vector fonts + gifski). A benchmark, not a test: it prints figures and never fails on them.
//!
//! Renders every `samples/*.cast` (and any `*.cast` in `$PHUX_BENCH_CASTS`, e.g. casts recorded
//! by asciinema) with the release `phux rec --from`, timing each run and reading its peak RSS.
//!
//! Run: `cargo build --release -p phux-cli && cargo bench -p phux-tests --bench encode_bench`

#![forbid(unsafe_code)]
#![allow(clippy::expect_used, clippy::unwrap_used)] // a benchmark fails loudly by design

use std::path::{Path, PathBuf};
use std::time::Instant;

/// agg 1.9 on this machine (from the issue): frames, seconds, bytes, width, height.
const AGG: [(&str, u64, f64, u64, u32, u32); 3] = [
    ("progress bar 100x30", 154, 6.2, 1_340_000, 983, 694),
    ("shell session 100x30", 324, 10.6, 1_040_000, 983, 694),
    ("htop 120x36", 51, 3.3, 1_500_000, 1175, 829),
];

struct Figures {
    name: String,
    frames: u64,
    seconds: f64,
    bytes: u64,
    width: u32,
    height: u32,
    peak_rss_kb: u64,
}

impl Figures {
    fn print(&self) {
        let megapixels = f64::from(self.width) * f64::from(self.height) / 1e6;
        println!(
            "{:<30} {:>6} {:>8.1} {:>8.2} {:>9} {:>9.0} {:>11.0} {:>5}x{:<5} {:>7.1}",
            self.name,
            self.frames,
            self.frames as f64 / self.seconds,
            self.seconds * 1000.0 / self.frames.max(1) as f64,
            self.bytes,
            self.bytes as f64 / self.frames.max(1) as f64,
            self.bytes as f64 / self.frames.max(1) as f64 / megapixels,
            self.width,
            self.height,
            self.peak_rss_kb as f64 / 1024.0
        );
    }
}

fn phux_bin() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().and_then(Path::parent).unwrap().join("phux")
}

fn render(cast: &Path, out: &Path, scale: u8) -> Figures {
    let start = Instant::now();
    let output = std::process::Command::new("/usr/bin/time")
        .args(["-f", "maxrss=%M"])
        .arg(phux_bin())
        .args([
            "rec",
            "--overwrite",
            "--json",
            "--font",
            "unifont",
            "--scale",
            &scale.to_string(),
            "--from",
        ])
        .arg(cast)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    let seconds = start.elapsed().as_secs_f64();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let peak_rss_kb = stderr
        .lines()
        .find_map(|l| l.strip_prefix("maxrss="))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    let (cols, rows) = (
        doc["cols"].as_u64().unwrap() as u32,
        doc["rows"].as_u64().unwrap() as u32,
    );
    Figures {
        name: format!(
            "{} bitmap @{scale}x",
            cast.file_name().unwrap().to_string_lossy()
        ),
        frames: doc["frames"].as_u64().unwrap(),
        seconds,
        bytes: doc["bytes"].as_u64().unwrap(),
        width: cols * 8 * u32::from(scale),
        height: rows * 16 * u32::from(scale),
        peak_rss_kb,
    }
}

fn casts() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut dirs = vec![root.join("samples")];
    if let Some(extra) = std::env::var_os("PHUX_BENCH_CASTS") {
        dirs.push(PathBuf::from(extra));
    }
    let mut casts: Vec<PathBuf> = dirs
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
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
        "{:<30} {:>6} {:>8} {:>8} {:>9} {:>9} {:>11} {:>11} {:>7}",
        "recording",
        "frames",
        "frames/s",
        "ms/frame",
        "bytes",
        "B/frame",
        "B/frame/MP",
        "pixels",
        "RSS MB"
    );
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    println!("agg 1.9 on this machine (the issue's figures)");
    header();
    for (name, frames, seconds, bytes, width, height) in AGG {
        Figures {
            name: name.into(),
            frames,
            seconds,
            bytes,
            width,
            height,
            peak_rss_kb: 0,
        }
        .print();
    }
    println!("  (agg peak RSS 130-180 MB)");
    for (label, extension) in [("GIF", "gif"), ("APNG", "png")] {
        println!();
        println!("phux rec --from, {label}");
        header();
        for cast in casts() {
            for scale in [1u8, 2] {
                let out = dir.path().join(format!("out.{extension}"));
                render(&cast, &out, scale).print();
            }
        }
    }
    println!();
    println!("goals: >= 10x agg's frames/s (agg ~25 frames/s); bytes per frame >= 2x smaller at comparable pixels");
    println!("(compare B/frame/MP); peak RSS under 100 MB");
}
