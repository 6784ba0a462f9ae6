//! The file plays the recording's own timeline: one image per frame, each shown for its own
//! time after the idle clamp (rounded on one grid, so errors carry forward), no frame shorter
//! than 20 ms (a shorter one merges into the next, whose picture it shows), and the whole as
//! long as the timeline plus the last frame's hold.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

mod common;

use common::{decode_apng, decode_gif, encode, Animation};
use phux_encoders::{render_cast, CellColor, EncodeOptions, RenderScreen, RenderSettings};
use std::path::{Path, PathBuf};

const IDLE_LIMIT: f64 = 2.0;
const HOLD: f64 = 1.0;

/// Reads a written file back as a decoder shows it.
type Decode = fn(&Path) -> Animation;

fn decoders() -> [(&'static str, Decode); 2] {
    [("gif", decode_gif), ("png", decode_apng)]
}

fn screen(text: &str) -> RenderScreen {
    let mut s = RenderScreen::blank(20, 4);
    s.put_str(0, 0, text, CellColor::Default, CellColor::Default);
    s.put_str(
        12,
        3,
        &text.len().to_string(),
        CellColor::Default,
        CellColor::Default,
    );
    s
}

#[test]
fn a_frame_shorter_than_20_ms_merges_into_the_next_keeping_its_picture() {
    // "ab" lasts 10 ms: it is never shown; "abc" shows from 0.1 s, as if "ab" had never been.
    let dir = tempfile::tempdir().unwrap();
    let with_short = [
        (0.0, screen("")),
        (0.1, screen("ab")),
        (0.11, screen("abc")),
        (0.2, screen("abcd")),
    ];
    let without = [
        (0.0, screen("")),
        (0.1, screen("abc")),
        (0.2, screen("abcd")),
    ];
    for (ext, decode) in decoders() {
        let (a, b) = (
            dir.path().join(format!("a.{ext}")),
            dir.path().join(format!("b.{ext}")),
        );
        let options = EncodeOptions::default();
        let merged = encode(&a, &with_short, &options, 100, 0.5);
        encode(&b, &without, &options, 100, 0.5);
        let (a, b) = (decode(&a), decode(&b));
        assert_eq!(a.frames.len(), 3, "{ext}");
        assert_eq!(merged.frames, 3, "{ext}: frames reported = decoded");
        for (i, (x, y)) in a.frames.iter().zip(&b.frames).enumerate() {
            assert_eq!(x.delay_ms, y.delay_ms, "{ext}: delay of frame {i}");
            assert!(x.image == y.image, "{ext}: frame {i}");
        }
        let delays: Vec<u64> = a.frames.iter().map(|f| f.delay_ms).collect();
        assert_eq!(delays, vec![100, 100, 500], "{ext}");
    }
}

fn samples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let mut casts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cast"))
        .collect();
    casts.sort();
    casts
}

#[test]
fn every_sample_plays_as_long_as_its_timeline_plus_the_hold_one_image_a_frame() {
    let dir = tempfile::tempdir().unwrap();
    for path in samples() {
        let cast = phux_recorder::read_cast(&path).unwrap();
        let timeline = phux_recorder::playback_duration(&cast.events, Some(IDLE_LIMIT), 1.0);
        let expected_ms = (timeline.unwrap() + HOLD) * 1000.0;
        let settings = RenderSettings {
            options: EncodeOptions::default(),
            prefer_cast_theme: true,
            fps: 30,
            speed: 1.0,
            idle_limit: Some(IDLE_LIMIT),
            last_frame_hold: HOLD,
        };
        for (ext, decode) in decoders() {
            let out = dir.path().join(format!("out.{ext}"));
            let summary = render_cast(&cast, &out, &settings, &mut |_, _| {}).unwrap();
            let anim = decode(&out);
            let what = format!("{} {ext}", path.display());
            assert_eq!(anim.frames.len(), summary.frames as usize, "{what}: frames");
            if anim.frames.len() == 1 {
                continue; // a still: shown once and for good, without a delay
            }
            let played = anim.total_ms();
            assert_eq!(played, summary.duration_ms, "{what}: reported length");
            let off = (played as f64 - expected_ms).abs();
            assert!(
                off <= 10.0,
                "{what}: {played} ms played, {expected_ms} expected"
            );
            let shortest = anim.frames.iter().map(|f| f.delay_ms).min().unwrap();
            assert!(shortest >= 20, "{what}: a frame of {shortest} ms");
        }
    }
}
