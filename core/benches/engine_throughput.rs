//! Engine write throughput (MB/s) at 200×50 with 10,000 rows of scrollback, on four kinds of
//! output. A benchmark, not a test: it prints figures and never fails on them.
//!
//! Run: `cargo bench -p phux-core --bench engine_throughput`

#![forbid(unsafe_code)]
#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_core::engine::Terminal;
use std::time::Instant;

const TARGET_BYTES: usize = 32 * 1024 * 1024;
const CHUNK: usize = 64 * 1024;

fn repeat_to_size(unit: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(TARGET_BYTES + unit.len());
    while out.len() < TARGET_BYTES {
        out.extend_from_slice(unit);
    }
    out
}

fn plain() -> Vec<u8> {
    let mut unit = Vec::new();
    for i in 0..100 {
        unit.extend_from_slice(format!("{i:>4} the quick brown fox jumps over the lazy dog; lorem ipsum dolor sit amet, consectetur\r\n").as_bytes());
    }
    repeat_to_size(&unit)
}

fn sgr_heavy() -> Vec<u8> {
    let mut unit = Vec::new();
    for i in 0..100u32 {
        for word in [
            "error",
            "warning",
            "note",
            "src/main.rs:12",
            "ok",
            "passed",
            "failed",
        ] {
            let colour = 31 + (i + word.len() as u32) % 7;
            unit.extend_from_slice(
                format!(
                    "\x1b[1;{colour}m{word}\x1b[0m \x1b[38;5;{}m|\x1b[0m ",
                    i % 256
                )
                .as_bytes(),
            );
        }
        unit.extend_from_slice(b"\r\n");
    }
    repeat_to_size(&unit)
}

/// Coloured listings in the style of `ls --color` or a compiler's diagnostics: a few SGR runs per
/// line, from a small set of styles.
fn sgr_listing() -> Vec<u8> {
    let mut unit = Vec::new();
    for i in 0..100u32 {
        let colour = [34, 32, 36, 35, 33][(i % 5) as usize];
        unit.extend_from_slice(
            format!("-rw-r--r-- 1 dev dev {:>6} Nov 30 04:04 \x1b[01;{colour}mfile_{i:03}.rs\x1b[0m  \x1b[1;31mwarning\x1b[0m: unused variable `x{i}`\r\n", i * 37)
                .as_bytes(),
        );
    }
    repeat_to_size(&unit)
}

fn full_screen_redraw() -> Vec<u8> {
    let mut unit = Vec::new();
    for frame in 0..4u32 {
        for row in 1..=50u32 {
            unit.extend_from_slice(
                format!("\x1b[{row};1H\x1b[{}m", 30 + (row + frame) % 8).as_bytes(),
            );
            let line: String = (0..200u32)
                .map(|c| char::from(b'a' + ((c + row + frame) % 26) as u8))
                .collect();
            unit.extend_from_slice(line.as_bytes());
        }
    }
    repeat_to_size(&unit)
}

fn cjk_emoji() -> Vec<u8> {
    let mut unit = Vec::new();
    for _ in 0..50 {
        unit.extend_from_slice(
            "日本語のテキストと中文字符和한국어 텍스트 🎉🚀✨ emoji ✓ Ωmega ẞ\r\n".as_bytes(),
        );
    }
    repeat_to_size(&unit)
}

fn megabytes_per_second(input: &[u8]) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..3 {
        let mut terminal = match Terminal::new(200, 50, 10_000) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("engine unavailable: {e}");
                std::process::exit(1);
            }
        };
        let start = Instant::now();
        for chunk in input.chunks(CHUNK) {
            terminal.write(chunk);
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    input.len() as f64 / 1e6 / best
}

fn main() {
    println!("engine write throughput, 200x50, 10k rows of scrollback, 64 KiB writes, best of 3");
    println!("{:<22} {:>10} {:>18}", "input", "MB/s", "reference (issue)");
    for (name, input, reference) in [
        ("plain text", plain(), "~250"),
        ("SGR-heavy (every word)", sgr_heavy(), "60-80"),
        ("SGR listing (ls-style)", sgr_listing(), "60-80"),
        ("full-screen redraw", full_screen_redraw(), "~140"),
        ("CJK + emoji", cjk_emoji(), "85-95"),
    ] {
        println!(
            "{name:<22} {:>10.1} {reference:>18}",
            megabytes_per_second(&input)
        );
    }
}
