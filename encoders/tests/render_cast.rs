//! A cast rendered end to end: replayed through the real engine, clamped, timed and encoded,
//! then decoded again to check frames, timing and pixels.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use phux_encoders::{render_cast, EncodeOptions, RenderSettings, Theme};
use phux_recorder::{Cast, CastVersion, Event, EventKind, Header};

fn cast(events: Vec<(f64, &str)>) -> Cast {
    Cast {
        header: Header::new(CastVersion::V2, 20, 4),
        events: events
            .into_iter()
            .map(|(t, s)| Event::new(t, EventKind::Output(s.to_string())))
            .collect(),
    }
}

fn settings(idle_limit: Option<f64>) -> RenderSettings {
    RenderSettings {
        options: EncodeOptions::default(),
        prefer_cast_theme: true,
        fps: 30,
        speed: 1.0,
        idle_limit,
        last_frame_hold: 1.0,
    }
}

fn gif_frames(path: &std::path::Path) -> Vec<(u16, gif::Frame<'static>)> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::fs::File::open(path).unwrap())
        .unwrap();
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        frames.push((frame.delay, frame.clone()));
    }
    frames
}

#[test]
fn a_cast_becomes_a_gif_whose_duration_follows_the_clamped_timeline() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo.gif");
    let recording = cast(vec![
        (0.0, "hello"),
        (1.0, "\r\n\x1b[31mred\x1b[0m"),
        (11.0, "\r\n日本 ┌─┐"),
    ]);
    let summary = render_cast(&recording, &out, &settings(Some(2.0)), &mut |_, _| {}).unwrap();
    // 0 → 1 s, then a 10 s gap clamped to 2 s, then the 1 s hold: 4 s.
    assert!(
        (summary.duration_ms as i64 - 4000).abs() <= 10,
        "{}",
        summary.duration_ms
    );
    let frames = gif_frames(&out);
    assert_eq!(frames.len() as u32, summary.frames);
    let total_cs: u32 = frames.iter().map(|(d, _)| u32::from(*d)).sum();
    assert!((total_cs as i64 - 400).abs() <= 1, "{total_cs}");
    assert!(!summary.truncated);
}

#[test]
fn events_within_one_frame_slot_make_one_frame() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("burst.gif");
    let events: Vec<(f64, &str)> = (0..100).map(|i| (f64::from(i) * 0.001, "x")).collect();
    let summary = render_cast(&cast(events), &out, &settings(None), &mut |_, _| {}).unwrap();
    assert!(
        summary.frames <= 5,
        "{} frames for 0.1 s of output at 30 fps",
        summary.frames
    );
}

#[test]
fn the_cast_theme_is_used_when_present() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("theme.png");
    let mut recording = cast(vec![(0.0, " ")]);
    recording.header.theme = Some(phux_recorder::Theme {
        fg: phux_recorder::Rgb::new(0xff, 0xff, 0xff),
        bg: phux_recorder::Rgb::new(0x12, 0x34, 0x56),
        palette: (0..16).map(|i| phux_recorder::Rgb::new(i, i, i)).collect(),
    });
    let settings = RenderSettings {
        options: EncodeOptions {
            theme: Theme::default(),
            ..EncodeOptions::default()
        },
        ..settings(None)
    };
    render_cast(&recording, &out, &settings, &mut |_, _| {}).unwrap();
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&out).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.line_size / info.width as usize;
    // A pixel far from the cursor is the cast's background.
    let at = (info.height as usize - 1) * info.line_size + (info.width as usize - 1) * channels;
    assert_eq!(&buf[at..at + 3], &[0x12, 0x34, 0x56]);
}
