//! v3 stores millisecond intervals; carrying the rounding error forward keeps every event within
//! 0.5 ms (the rounding bound itself) of its true time however many small intervals there are.
//! Rounding each interval on its own would random-walk to tens of milliseconds here.

#![forbid(unsafe_code)]
// Test code: a panic is how a failure is reported.
#![allow(clippy::unwrap_used)]

use std::io::Cursor;

use phux_recorder::{CastReader, CastVersion, CastWriter, Event, Header};

/// Deterministic sub-millisecond-heavy intervals (0.1–2.6 ms, never whole milliseconds).
fn intervals(n: usize) -> impl Iterator<Item = f64> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..n).map(move |_| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let micros = 100 + (state >> 33) % 2500;
        micros as f64 * 1e-6 + 0.3e-6
    })
}

#[test]
fn v3_drift_stays_within_half_a_millisecond_over_100k_small_intervals() {
    let mut times = Vec::with_capacity(100_000);
    let mut t = 0.0;
    for interval in intervals(100_000) {
        t += interval;
        times.push(t);
    }
    let mut writer =
        CastWriter::from_writer(Vec::new(), &Header::new(CastVersion::V3, 80, 24)).unwrap();
    for &time in &times {
        writer.write_event(&Event::output(time, "")).unwrap();
    }
    let bytes = writer.finish().unwrap();
    let reader = CastReader::from_bufread(Cursor::new(bytes), "drift.cast").unwrap();
    let read: Vec<f64> = reader.map(|e| e.unwrap().time).collect();
    assert_eq!(read.len(), times.len());
    let worst = read
        .iter()
        .zip(&times)
        .map(|(got, want)| (got - want).abs())
        .fold(0.0, f64::max);
    // 1e-9 absorbs float noise at an exact half-millisecond tie.
    assert!(
        worst <= 0.0005 + 1e-9,
        "worst drift {:.6} ms",
        worst * 1000.0
    );
    // Naive per-interval rounding would be off by seconds here; check the total too.
    assert!((read[read.len() - 1] - t).abs() <= 0.0005 + 1e-9);
}
