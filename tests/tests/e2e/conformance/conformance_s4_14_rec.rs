//! Contract §4.14 (`phux rec --json`): `duration_ms` is "the recording's own timeline after the
//! idle clamp". The `--last-frame` hold of a GIF/APNG is how long the last picture stays up, not
//! part of the timeline: one cast reports one duration whatever it is rendered to.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::io::Write;
use std::path::{Path, PathBuf};

use phux_tests::{json, phux, run, stderr};

/// A cast whose raw length is 9.5 s; with its 2 s idle clamp the timeline is 0.5 + 2 + 1 = 3.5 s.
fn clamped_cast(dir: &Path) -> PathBuf {
    let path = dir.join("clamped.cast");
    let mut file = std::fs::File::create(&path).unwrap();
    writeln!(
        file,
        r#"{{"version":2,"width":20,"height":3,"idle_time_limit":2.0}}"#
    )
    .unwrap();
    for (t, data) in [(0.0, "a"), (0.5, "b"), (8.5, "c"), (9.5, "d")] {
        writeln!(file, "{}", serde_json::json!([t, "o", data])).unwrap();
    }
    path
}

fn rec_from(cast: &Path, out: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "rec",
        "--from",
        cast.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--json",
    ];
    args.extend_from_slice(extra);
    let output = run(&mut phux(&args));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    json(&output)
}

#[test]
fn s4_14_rec_duration_ms_is_the_clamped_timeline_without_the_last_frame_hold() {
    let dir = tempfile::tempdir().unwrap();
    let cast = clamped_cast(dir.path());
    let as_cast = rec_from(&cast, &dir.path().join("out.cast"), &[]);
    assert_eq!(as_cast["duration_ms"], 3500, "{as_cast}");
    for name in ["out.gif", "out.png"] {
        let doc = rec_from(&cast, &dir.path().join(name), &["--last-frame", "3"]);
        assert_eq!(doc["duration_ms"], as_cast["duration_ms"], "{name}: {doc}");
        let no_hold = rec_from(
            &cast,
            &dir.path().join(format!("nohold-{name}")),
            &["--last-frame", "0"],
        );
        assert_eq!(no_hold["duration_ms"], 3500, "{name}: {no_hold}");
    }
}

/// A GIF cut short by `--max-bytes` reports the recording it holds: the sum of its frames'
/// delays (it never reaches the last frame's hold), not 0.
#[test]
fn s4_14_a_gif_cut_by_max_bytes_reports_the_time_it_holds() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cut.gif");
    let shell = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/shell.cast");
    let doc = rec_from(&shell, &out, &["--max-bytes", "8000"]);
    assert_eq!(doc["truncated"], true, "{doc}");
    let mut decoder = gif::DecodeOptions::new()
        .read_info(std::fs::File::open(&out).unwrap())
        .unwrap();
    let mut delays_ms = 0u64;
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        delays_ms += u64::from(frame.delay) * 10;
    }
    assert!(delays_ms > 0);
    assert_eq!(doc["duration_ms"].as_u64(), Some(delays_ms), "{doc}");
}
