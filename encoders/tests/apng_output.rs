//! APNG files as a decoder sees them: acTL count, fcTL timing, truecolour pixels, limits.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on the unexpected

mod common;

use common::*;
use phux_encoders::{CellColor, EncodeOptions, OutputFormat, RenderScreen};

#[test]
fn red_a_on_blue_decodes_to_exact_pixels() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.png");
    let summary = encode(
        &path,
        &[(0.0, red_a_on_blue(4, 2, 2, 0))],
        &EncodeOptions::default(),
        30,
        1.0,
    );
    assert_eq!(summary.format, OutputFormat::Apng);
    let anim = decode_apng(&path);
    let img = anim.last_image();
    let mut both = (false, false);
    for y in 0..16 {
        for x in 16..24 {
            let p = anim.pixel(img, x, y);
            assert!(p == RED || p == BLUE, "({x},{y}) = {p:?}");
            both = (both.0 || p == RED, both.1 || p == BLUE);
        }
    }
    assert_eq!(both, (true, true));
}

#[test]
fn actl_count_equals_frames_written_and_delays_are_milliseconds() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.apng");
    let screens = typing(12, 3, 9, 0.123);
    let summary = encode(&path, &screens, &EncodeOptions::default(), 30, 0.5);
    let chunks = png_chunks(&path);
    let actl = chunks.iter().find(|(k, _)| k == b"acTL").unwrap();
    let announced = u32::from_be_bytes(actl.1[..4].try_into().unwrap());
    let fctl = chunks.iter().filter(|(k, _)| k == b"fcTL").count() as u32;
    assert_eq!((announced, fctl, summary.frames), (10, 10, 10));
    assert_eq!(&chunks.last().unwrap().0, b"IEND");
    let anim = decode_apng(&path);
    assert_eq!(anim.frames.len(), 10);
    assert_eq!(anim.frames[0].delay_ms, 123);
    assert_eq!(anim.total_ms(), 9 * 123 + 500);
    assert_eq!(summary.duration_ms, anim.total_ms());
}

#[test]
fn changing_one_cell_sends_a_sub_rectangle() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub.png");
    let screens = [
        (0.0, RenderScreen::blank(20, 5)),
        (0.5, red_a_on_blue(20, 5, 19, 4)),
    ];
    encode(&path, &screens, &EncodeOptions::default(), 30, 1.0);
    let anim = decode_apng(&path);
    let f1 = &anim.frames[1];
    assert!(
        f1.width <= 8 && f1.height <= 16,
        "{}x{}",
        f1.width,
        f1.height
    );
    assert!(f1.x >= 152 && f1.y >= 64);
    assert_eq!(anim.pixel(anim.last_image(), 159, 79), BLUE);
}

#[test]
fn max_bytes_truncation_patches_actl_to_the_frames_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.png");
    let options = EncodeOptions {
        max_bytes: 9_000,
        ..EncodeOptions::default()
    };
    let summary = encode(&path, &typing(40, 10, 300, 0.1), &options, 30, 3.0);
    assert!(summary.truncated);
    let bytes = std::fs::metadata(&path).unwrap().len();
    assert!(bytes <= 9_000 && bytes == summary.bytes, "{bytes}");
    let chunks = png_chunks(&path);
    let actl = chunks.iter().find(|(k, _)| k == b"acTL").unwrap();
    let announced = u32::from_be_bytes(actl.1[..4].try_into().unwrap());
    let anim = decode_apng(&path);
    assert_eq!(announced as usize, anim.frames.len());
    assert_eq!(announced, summary.frames);
    assert!(summary.frames > 1 && summary.frames < 301);
}

#[test]
fn same_input_gives_identical_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let screens = typing(30, 8, 100, 0.05);
    let (a, b) = (dir.path().join("a.png"), dir.path().join("b.png"));
    encode(&a, &screens, &EncodeOptions::default(), 30, 1.0);
    encode(&b, &screens, &EncodeOptions::default(), 30, 1.0);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn truecolour_survives_without_a_palette() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rgb.png");
    let mut s = RenderScreen::blank(30, 10);
    for (i, cell) in s.cells.iter_mut().enumerate() {
        cell.bg = CellColor::Rgb((i * 37) as u8, (i * 11) as u8, (i / 3) as u8);
    }
    encode(&path, &[(0.0, s)], &EncodeOptions::default(), 30, 1.0);
    let anim = decode_apng(&path);
    // Cell 299 is (29, 9): its top-left pixel is background in its own colour.
    let p = anim.pixel(anim.last_image(), 29 * 8, 9 * 16);
    assert_eq!(
        p,
        phux_encoders::Rgb((299 * 37) as u8, (299 * 11) as u8, (299 / 3) as u8)
    );
}
