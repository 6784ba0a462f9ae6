//! The transparency trick changes bytes, never pictures: every sample cast rendered with
//! unchanged pixels written as transparent (GIF's transparent index, APNG's alpha 0 blended
//! over) decodes to exactly the frames rendered without it, with and without a frame around
//! the grid, and the file is no larger.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

mod common;

use common::{decode_apng, decode_gif, Animation};
use phux_encoders::{render_cast, EncodeOptions, FrameChrome, RenderSettings, Rgb, WindowBar};
use std::path::{Path, PathBuf};

fn samples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let mut casts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cast"))
        .collect();
    casts.sort();
    assert!(casts.len() >= 3, "the samples are there");
    casts
}

fn render(cast: &Path, out: &Path, transparent: bool, chrome: FrameChrome) -> u64 {
    let cast = phux_recorder::read_cast(cast).unwrap();
    let settings = RenderSettings {
        options: EncodeOptions {
            max_bytes: u64::MAX,
            chrome,
            keep_unchanged_transparent: transparent,
            ..EncodeOptions::default()
        },
        prefer_cast_theme: true,
        fps: 30,
        speed: 1.0,
        idle_limit: Some(2.0),
        last_frame_hold: 1.0,
    };
    render_cast(&cast, out, &settings, &mut |_, _| {})
        .unwrap()
        .bytes
}

fn assert_same_pictures(plain: &Animation, trick: &Animation, what: &str) {
    assert_eq!(
        (plain.width, plain.height),
        (trick.width, trick.height),
        "{what}"
    );
    assert_eq!(
        plain.frames.len(),
        trick.frames.len(),
        "{what}: frame count"
    );
    for (i, (a, b)) in plain.frames.iter().zip(&trick.frames).enumerate() {
        assert_eq!(a.delay_ms, b.delay_ms, "{what}: delay of frame {i}");
        assert!(a.image == b.image, "{what}: frame {i} differs");
    }
}

fn framed() -> FrameChrome {
    FrameChrome {
        padding: 8,
        margin: 6,
        margin_fill: Some(Rgb(0x67, 0x4e, 0xff)),
        window_bar: Some(WindowBar::Colorful),
        border_radius: 10,
        ..FrameChrome::default()
    }
}

#[test]
fn every_gif_frame_equals_the_frame_rendered_without_transparency() {
    let dir = tempfile::tempdir().unwrap();
    for cast in samples() {
        for (label, chrome) in [("bare", FrameChrome::default()), ("framed", framed())] {
            let plain = dir.path().join("plain.gif");
            let trick = dir.path().join("trick.gif");
            let plain_bytes = render(&cast, &plain, false, chrome);
            let trick_bytes = render(&cast, &trick, true, chrome);
            let what = format!("{} {label} gif", cast.display());
            assert_same_pictures(&decode_gif(&plain), &decode_gif(&trick), &what);
            assert!(
                trick_bytes <= plain_bytes,
                "{what}: {trick_bytes} > {plain_bytes}"
            );
        }
    }
}

#[test]
fn every_apng_frame_equals_the_frame_rendered_without_transparency() {
    let dir = tempfile::tempdir().unwrap();
    for cast in samples() {
        for (label, chrome) in [("bare", FrameChrome::default()), ("framed", framed())] {
            let plain = dir.path().join("plain.png");
            let trick = dir.path().join("trick.png");
            render(&cast, &plain, false, chrome);
            render(&cast, &trick, true, chrome);
            let what = format!("{} {label} apng", cast.display());
            assert_same_pictures(&decode_apng(&plain), &decode_apng(&trick), &what);
        }
    }
}

#[test]
fn a_gif_frame_with_unchanged_pixels_carries_a_transparent_index() {
    let dir = tempfile::tempdir().unwrap();
    let cast = samples()
        .into_iter()
        .find(|p| p.ends_with("shell.cast"))
        .unwrap();
    let out = dir.path().join("t.gif");
    render(&cast, &out, true, FrameChrome::default());
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::fs::File::open(&out).unwrap())
        .unwrap();
    let mut with_index = 0;
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        if let Some(t) = frame.transparent {
            with_index += 1;
            assert!(frame.buffer.contains(&t));
        }
    }
    assert!(with_index > 0, "some frame uses the transparent index");
}
