//! `phux play`'s timing figures: how close a played cast's duration comes to the cast's own at
//! speed 1 and 4 (with the drift fitted over every event seen), and how soon `play --follow`
//! shows an event appended to a cast being written. A benchmark, not a test: it prints figures
//! and fails only when playback skipped or stalled (outside half to three times the cast's
//! duration) or an appended event never showed.
//!
//! Run: `cargo build --release -p phux-cli && cargo bench -p phux-tests --bench play_bench`
//! (`cargo test -p phux-tests --bench play_bench` runs it once against the debug build).

#![allow(clippy::expect_used, clippy::unwrap_used)] // a benchmark fails loudly by design

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use phux_tests::play::{
    play, poll_tightly, server, text, v2, wait_for_text, wait_for_text_tightly, write_cast,
};
use phux_tests::{TestServer, WireClient};
use serde_json::json;

/// Plays a steady cast and watches its counter: returns (expected, measured) seconds from
/// "START" to "END" and the least-squares slope of observed against expected times (1 = no
/// drift), fitted over every counter value seen, so a constant start-up or polling delay
/// does not count as drift.
fn measure(server: &TestServer, cast: &Path, beside: &str, speed: f64) -> (f64, f64, f64) {
    let (pane, doc) = play(
        server,
        &[
            cast.to_str().unwrap(),
            beside,
            "--speed",
            &speed.to_string(),
        ],
    );
    let expected = doc["duration_ms"].as_f64().unwrap() / 1000.0;
    let mut wire = WireClient::connect(server);
    wait_for_text_tightly(&mut wire, pane, "START");
    let started = Instant::now();
    let mut samples: Vec<(f64, f64)> = Vec::new();
    let mut last = 0u32;
    poll_tightly("the cast ends", Duration::from_secs(120), || {
        let screen = wire.screen(pane);
        let seen = started.elapsed().as_secs_f64();
        let counter = screen
            .lines
            .get(1)
            .and_then(|l| l.trim().parse::<u32>().ok());
        if let Some(counter) = counter.filter(|&c| c > last) {
            last = counter;
            samples.push((f64::from(counter) * 0.05 / speed, seen));
        }
        text(&screen).contains("END")
    });
    let measured = started.elapsed().as_secs_f64();
    let n = samples.len() as f64;
    let (mx, my) = samples
        .iter()
        .fold((0.0, 0.0), |(x, y), s| (x + s.0 / n, y + s.1 / n));
    let (sxy, sxx) = samples.iter().fold((0.0, 0.0), |(xy, xx), s| {
        (xy + (s.0 - mx) * (s.1 - my), xx + (s.0 - mx) * (s.0 - mx))
    });
    (expected, measured, sxy / sxx)
}

/// A cast of `seconds` with an event every 50 ms (no idle to clamp).
fn steady_cast(dir: &Path, seconds: u32) -> PathBuf {
    let steps = seconds * 20;
    let mut events: Vec<(f64, String)> = vec![(0.0, "START\r\n".to_owned())];
    for i in 1..steps {
        events.push((f64::from(i) * 0.05, format!("\r{i:5}")));
    }
    events.push((f64::from(seconds), "\r\nEND".to_owned()));
    let borrowed: Vec<(f64, &str, &str)> =
        events.iter().map(|(t, s)| (*t, "o", s.as_str())).collect();
    write_cast(dir, &format!("steady{seconds}.cast"), v2(20, 4), &borrowed)
}

/// Playback duration at speed 1 and 4 against the cast's own.
fn playback_duration_at_speed_1_and_4() {
    let (server, beside) = server();
    for (seconds, speed) in [(10u32, 1.0f64), (40, 4.0)] {
        let cast = steady_cast(server.dir.path(), seconds);
        let (expected, measured, slope) = measure(&server, &cast, &beside, speed);
        println!(
            "FIGURE speed {speed}: expected {expected:.3} s, measured {measured:.4} s, \
             error {:+.1} ms ({:+.3}%), drift (fitted over every counter step) {:+.1} ms per minute",
            (measured - expected) * 1000.0,
            (measured - expected) / expected * 100.0,
            (slope - 1.0) * 60_000.0,
        );
        // Sanity only: playback neither skipped nor stalled.
        assert!(
            measured > expected * 0.5 && measured < expected * 3.0,
            "{measured}"
        );
    }
}

/// How soon `play --follow` shows an event appended to the cast, each written in two halves.
fn follow_latency() {
    let (server, beside) = server();
    let path = server.dir.path().join("live.cast");
    let mut file = std::fs::File::create(&path).unwrap();
    writeln!(file, "{}", v2(30, 4)).unwrap();
    writeln!(file, "{}", json!([0.0, "o", "live:"])).unwrap();
    file.flush().unwrap();
    let (pane, _) = play(&server, &[path.to_str().unwrap(), &beside, "--follow"]);
    let mut wire = WireClient::connect(&server);
    wait_for_text(&mut wire, pane, "live:");
    let started = Instant::now();
    let mut latencies = Vec::new();
    for i in 0..20 {
        let label = format!("\r\u{1b}[2Kev{i:02}");
        let t = started.elapsed().as_secs_f64();
        // A partial line first, finished a moment later: the reader must wait for the rest.
        let line = json!([t, "o", label]).to_string();
        let (head, tail) = line.split_at(line.len() / 2);
        file.write_all(head.as_bytes()).unwrap();
        file.flush().unwrap();
        std::thread::sleep(Duration::from_millis(20));
        let appended = Instant::now();
        file.write_all(tail.as_bytes()).unwrap();
        file.write_all(b"\n").unwrap();
        file.flush().unwrap();
        wait_for_text_tightly(&mut wire, pane, &format!("ev{i:02}"));
        latencies.push(appended.elapsed().as_secs_f64() * 1000.0);
        std::thread::sleep(Duration::from_millis(30));
    }
    latencies.sort_by(f64::total_cmp);
    println!(
        "FIGURE follow latency over {} appends: median {:.1} ms, min {:.1} ms, max {:.1} ms",
        latencies.len(),
        latencies[latencies.len() / 2],
        latencies[0],
        latencies[latencies.len() - 1]
    );
}

fn main() {
    playback_duration_at_speed_1_and_4();
    follow_latency();
}
