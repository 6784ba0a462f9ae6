//! GIF files as a decoder sees them: frames, timing, palette, pixels, limits, determinism.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on the unexpected

mod common;

use common::*;
use phux_encoders::{
    AnimationEncoder, Animator, CellColor, EncodeError, EncodeOptions, RenderCell, RenderScreen,
    Rgb,
};

#[test]
fn red_a_on_blue_is_exactly_red_and_blue_with_an_exact_global_palette() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.gif");
    let summary = encode(
        &path,
        &[(0.0, red_a_on_blue(4, 2, 1, 1))],
        &EncodeOptions::default(),
        30,
        1.0,
    );
    let anim = decode_gif(&path);
    assert_eq!((anim.width, anim.height), (32, 32));
    assert_eq!((summary.width_px, summary.height_px), (32, 32));
    let img = anim.last_image();
    let mut seen = std::collections::HashSet::new();
    for y in 16..32 {
        for x in 8..16 {
            let p = anim.pixel(img, x, y);
            assert!(p == RED || p == BLUE, "({x},{y}) = {p:?}");
            seen.insert(p);
        }
    }
    assert_eq!(seen.len(), 2, "the glyph has both colours");
    // Theme background plus red and blue: 3 colours, padded to a table of 4.
    assert_eq!(anim.global_palette_len, Some(4));
    assert_eq!(summary.bytes, std::fs::metadata(&path).unwrap().len());
}

#[test]
fn frame_count_and_delays_follow_the_pushes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.gif");
    let screens = typing(10, 3, 5, 0.25);
    let summary = encode(&path, &screens, &EncodeOptions::default(), 30, 2.0);
    let anim = decode_gif(&path);
    assert_eq!(anim.frames.len(), 6);
    assert_eq!(summary.frames, 6);
    let delays: Vec<u64> = anim.frames.iter().map(|f| f.delay_ms).collect();
    assert_eq!(delays, vec![250, 250, 250, 250, 250, 2000]);
    assert_eq!(summary.duration_ms, 3250);
    assert!(!summary.truncated);
}

#[test]
fn a_sixty_second_recording_lasts_sixty_seconds() {
    let dir = tempfile::tempdir().unwrap();
    // A change every 1/30 s: each frame is 3.33 cs, so rounding each delay alone would lose 6 s.
    let steady = typing(20, 4, 1800, 1.0 / 30.0);
    let steady_path = dir.path().join("steady.gif");
    let summary = encode(&steady_path, &steady, &EncodeOptions::default(), 30, 0.0);
    // No hold asked for, but the last frame still lasts a frame slot (30 ms at 30 fps): a
    // frame of 0 ms is one browsers show for 100 ms.
    let total = decode_gif(&steady_path).total_ms();
    assert!(total.abs_diff(60_030) <= 10, "{total} ms");
    assert_eq!(summary.duration_ms, total);
    assert_eq!(summary.frames, 1801, "the blank start plus 1800 changes");

    // Irregular event times (37 ms to 1.3 s apart) ending at exactly 60 s.
    let mut screens = Vec::new();
    let mut s = RenderScreen::blank(20, 4);
    let (mut t, mut i) = (0.0, 0u32);
    while t < 60.0 {
        let (x, y) = ((i % 20) as u16, ((i / 20) % 4) as u16);
        s.put_str(
            x,
            y,
            "#",
            CellColor::Palette((i % 7) as u8),
            CellColor::Default,
        );
        screens.push((t, s.clone()));
        i += 1;
        t += 0.037 + f64::from(i * 7919 % 1300) / 1000.0;
    }
    s.put_str(0, 0, "END", CellColor::Default, CellColor::Default);
    screens.push((60.0, s.clone()));
    let path = dir.path().join("irregular.gif");
    encode(&path, &screens, &EncodeOptions::default(), 30, 0.0);
    let total = decode_gif(&path).total_ms();
    assert!(total.abs_diff(60_030) <= 10, "{total} ms");
}

#[test]
fn changing_one_cell_sends_a_sub_rectangle_no_bigger_than_the_cell() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub.gif");
    let first = RenderScreen::blank(20, 5);
    let second = red_a_on_blue(20, 5, 7, 3);
    encode(
        &path,
        &[(0.0, first), (1.0, second)],
        &EncodeOptions::default(),
        30,
        1.0,
    );
    let anim = decode_gif(&path);
    assert_eq!(anim.frames.len(), 2);
    let (f0, f1) = (&anim.frames[0], &anim.frames[1]);
    assert_eq!(
        (f0.width, f0.height),
        (160, 80),
        "the first frame covers the screen"
    );
    assert!(
        f1.width <= 8 && f1.height <= 16,
        "{}x{}",
        f1.width,
        f1.height
    );
    assert!(f1.x >= 56 && f1.x + f1.width <= 64 && f1.y >= 48 && f1.y + f1.height <= 64);
}

#[test]
fn max_bytes_truncates_to_a_playable_file_under_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.gif");
    let screens = typing(40, 10, 300, 0.1);
    let options = EncodeOptions {
        max_bytes: 6_000,
        ..EncodeOptions::default()
    };
    let summary = encode(&path, &screens, &options, 30, 3.0);
    assert!(summary.truncated);
    let bytes = std::fs::metadata(&path).unwrap().len();
    assert!(bytes <= 6_000, "{bytes}");
    assert_eq!(bytes, summary.bytes);
    let anim = decode_gif(&path);
    assert!(anim.frames.len() > 1 && anim.frames.len() < 301);
    assert_eq!(anim.frames.len() as u32, summary.frames);
    assert_eq!(anim.total_ms(), summary.duration_ms);
}

#[test]
fn a_limit_below_the_first_frame_is_an_error_and_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("none.gif");
    let options = EncodeOptions {
        max_bytes: 40,
        ..EncodeOptions::default()
    };
    let encoder = AnimationEncoder::create(&path, 10, 2, &options).unwrap();
    let mut animator = Animator::new(encoder, 30);
    let pushed = animator.push(0.0, &red_a_on_blue(10, 2, 0, 0));
    let result = pushed.and_then(|()| animator.finish(1.0));
    assert!(
        matches!(result, Err(EncodeError::MaxBytesTooSmall { .. })),
        "{result:?}"
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no output, no temp file"
    );
}

#[test]
fn same_input_gives_identical_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let screens = typing(30, 8, 120, 0.05);
    let a = dir.path().join("a.gif");
    let b = dir.path().join("b.gif");
    encode(&a, &screens, &EncodeOptions::default(), 30, 1.0);
    encode(&b, &screens, &EncodeOptions::default(), 30, 1.0);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn more_than_256_colours_stay_exact_through_local_palettes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.gif");
    let colored = |base: u8| {
        let mut s = RenderScreen::blank(20, 10);
        for (i, cell) in s.cells.iter_mut().enumerate() {
            *cell = RenderCell {
                bg: CellColor::Rgb(base, i as u8, 7),
                ..RenderCell::blank()
            };
        }
        s
    };
    let summary = encode(
        &path,
        &[(0.0, colored(10)), (1.0, colored(200))],
        &EncodeOptions::default(),
        30,
        1.0,
    );
    assert_eq!(summary.frames, 2);
    let anim = decode_gif(&path);
    let last = anim.last_image();
    assert_eq!(anim.pixel(last, 8 * 5, 0), Rgb(200, 5, 7));
    assert_eq!(anim.pixel(last, 8 * 19, 16 * 9), Rgb(200, 199, 7));
    let first = &anim.frames[0].image;
    assert_eq!(anim.pixel(first, 8 * 3, 16), Rgb(10, 23, 7));
}

#[test]
fn more_than_256_colours_in_one_frame_still_encodes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cube.gif");
    let mut s = RenderScreen::blank(30, 10);
    for (i, cell) in s.cells.iter_mut().enumerate() {
        cell.bg = CellColor::Rgb((i * 37) as u8, (i * 11) as u8, (i / 3) as u8);
    }
    let summary = encode(&path, &[(0.0, s)], &EncodeOptions::default(), 30, 1.0);
    assert_eq!(summary.frames, 1);
    assert_eq!(decode_gif(&path).frames.len(), 1);
}

#[test]
fn path_without_extension_gets_gif_appended() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("demo");
    let summary = encode(
        &path,
        &[(0.0, red_a_on_blue(3, 1, 0, 0))],
        &EncodeOptions::default(),
        30,
        1.0,
    );
    assert_eq!(summary.path, dir.path().join("demo.gif"));
    assert!(summary.path.exists());
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        names,
        vec![std::ffi::OsString::from("demo.gif")],
        "no temp file left"
    );
}

#[test]
fn unknown_extension_and_cast_are_refused() {
    let opts = EncodeOptions::default();
    let err = AnimationEncoder::create("x.webm".as_ref(), 2, 2, &opts).unwrap_err();
    assert!(matches!(err, EncodeError::UnknownExtension { .. }));
    let err = AnimationEncoder::create("x.cast".as_ref(), 2, 2, &opts).unwrap_err();
    assert!(matches!(err, EncodeError::NotAnAnimation(_)));
}

#[test]
fn a_one_screen_gif_is_a_still_without_loop_or_delay_and_an_animation_keeps_both() {
    let dir = tempfile::tempdir().unwrap();
    let still = dir.path().join("still.gif");
    let summary = encode(
        &still,
        &[(0.0, red_a_on_blue(4, 2, 1, 1))],
        &EncodeOptions::default(),
        30,
        1.0,
    );
    let bytes = std::fs::read(&still).unwrap();
    let has = |bytes: &[u8], needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    assert_eq!(summary.frames, 1);
    assert!(
        !has(&bytes, b"NETSCAPE2.0"),
        "a still needs no loop extension"
    );
    assert!(!has(&bytes, &[0x21, 0xF9, 0x04]), "nor a control extension");
    assert_eq!(summary.bytes, bytes.len() as u64);
    let anim = decode_gif(&still);
    assert_eq!(anim.frames.len(), 1);
    let img = anim.last_image();
    let glyph = (16..32).flat_map(|y| (8..16).map(move |x| (x, y)));
    assert!(glyph.clone().any(|(x, y)| anim.pixel(img, x, y) == RED));
    assert!(glyph.clone().any(|(x, y)| anim.pixel(img, x, y) == BLUE));

    let moving = dir.path().join("moving.gif");
    encode(
        &moving,
        &typing(10, 3, 2, 0.25),
        &EncodeOptions::default(),
        30,
        1.0,
    );
    let bytes = std::fs::read(&moving).unwrap();
    assert!(has(&bytes, b"NETSCAPE2.0"), "an animation loops");
    assert!(has(&bytes, &[0x21, 0xF9, 0x04]), "and times its frames");
}
