//! Writing casts to real files and reading them back, in both versions and across them.

#![forbid(unsafe_code)]
// Test code: a panic is how a failure is reported.
#![allow(clippy::unwrap_used)]

use std::path::Path;

use phux_recorder::{
    clamped_duration, read_cast, transcode, CastVersion, CastWriter, Event, EventKind, Header,
    RecorderError, Rgb, Theme,
};

fn full_header(version: CastVersion) -> Header {
    let mut header = Header::new(version, 120, 40);
    header.timestamp = Some(1_750_000_000);
    header.idle_time_limit = Some(1.0);
    header.command = Some("bash -l".into());
    header.title = Some("round \"trip\"".into());
    header.env.insert("SHELL".into(), "/bin/bash".into());
    header.term_type = Some("xterm-256color".into());
    header.theme = Some(Theme {
        fg: Rgb::new(0xee, 0xee, 0xee),
        bg: Rgb::new(0x10, 0x10, 0x10),
        palette: (0..16).map(|i| Rgb::new(i * 16, 255 - i * 16, i)).collect(),
    });
    header
}

fn sample_events() -> Vec<Event> {
    vec![
        Event::output(0.1234567, "$ echo \"héllo\" \u{1b}[1m😀\u{1b}[0m\r\n"),
        Event::marker(0.5, ""),
        Event::new(0.75, EventKind::Resize { cols: 90, rows: 20 }),
        Event::output(5.0009, "after a long idle gap\n"),
        Event::marker(5.25, "chapter \u{7}2"),
        Event::new(6.0, EventKind::Exit(-3)),
    ]
}

fn write_cast(path: &Path, header: &Header, events: &[Event]) {
    let mut writer = CastWriter::create(path, header, false).unwrap();
    for event in events {
        writer.write_event(event).unwrap();
    }
    writer.finish().unwrap();
}

fn assert_same_events(got: &[Event], want: &[Event], tolerance: f64) {
    assert_eq!(got.len(), want.len(), "{got:?}");
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g.kind, w.kind);
        assert!(
            (g.time - w.time).abs() <= tolerance,
            "{} vs {}",
            g.time,
            w.time
        );
    }
}

#[test]
fn each_version_round_trips_header_and_events() {
    let dir = tempfile::tempdir().unwrap();
    for (version, tolerance) in [(CastVersion::V2, 5e-7), (CastVersion::V3, 5e-4 + 1e-9)] {
        let path = dir.path().join(format!("{version}.cast"));
        let header = full_header(version);
        write_cast(&path, &header, &sample_events());
        let cast = read_cast(&path).unwrap();
        assert_eq!(cast.header, header);
        assert_same_events(&cast.events, &sample_events(), tolerance);
    }
}

#[test]
fn v2_to_v3_to_v2_keeps_times_within_a_millisecond_and_every_event() {
    let dir = tempfile::tempdir().unwrap();
    let (v2, v3, back) = (
        dir.path().join("a.cast"),
        dir.path().join("b.cast"),
        dir.path().join("c.cast"),
    );
    write_cast(&v2, &full_header(CastVersion::V2), &sample_events());
    let to_v3 = transcode(&v2, &v3, CastVersion::V3, false).unwrap();
    let to_v2 = transcode(&v3, &back, CastVersion::V2, false).unwrap();
    let (b, c) = (read_cast(&v3).unwrap(), read_cast(&back).unwrap());
    assert_eq!(b.header.version, CastVersion::V3);
    assert_eq!(c.header, full_header(CastVersion::V2));
    assert_same_events(&b.events, &sample_events(), 1e-3);
    assert_same_events(&c.events, &sample_events(), 1e-3);
    assert_eq!((to_v3.events, to_v3.cols, to_v3.rows), (6, 120, 40));
    assert_eq!(to_v3.bytes, std::fs::metadata(&v3).unwrap().len());
    // Raw times kept; the 1 s idle limit only shortens the reported duration:
    // 0.75 (up to the resize) + 1 (the clamped 4.25 s gap) + 0.2491 + 0.75 = 2.7491 s.
    assert_eq!(to_v3.duration_ms, 2749);
    assert_eq!(to_v2.duration_ms, 2749);
    assert!((c.raw_duration() - 6.0).abs() < 1e-3);
    let clamped = clamped_duration(&c.events, c.header.idle_time_limit);
    assert!((clamped - 2.749).abs() < 1e-9, "{clamped}");
}

#[test]
fn transcode_drops_input_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("in.cast"), dir.path().join("out.cast"));
    let text = "{\"version\": 2, \"width\": 80, \"height\": 24}\n[0.5, \"i\", \"secret\\r\"]\n[1.0, \"o\", \"ok\"]\n[1.5, \"m\", \"\"]\n";
    std::fs::write(&input, text).unwrap();
    let summary = transcode(&input, &output, CastVersion::V3, false).unwrap();
    assert_eq!(summary.events, 2);
    let written = std::fs::read_to_string(&output).unwrap();
    assert!(!written.contains("secret"), "{written}");
    let kinds: Vec<_> = read_cast(&output)
        .unwrap()
        .events
        .into_iter()
        .map(|e| e.kind)
        .collect();
    assert_eq!(
        kinds,
        [
            EventKind::Output("ok".into()),
            EventKind::Marker(String::new())
        ]
    );
}

#[test]
fn create_refuses_an_existing_file_unless_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("taken.cast");
    std::fs::write(&path, "keep me").unwrap();
    let header = Header::new(CastVersion::V3, 80, 24);
    let refused = CastWriter::create(&path, &header, false).err().unwrap();
    assert!(
        matches!(&refused, RecorderError::Exists { path: p } if *p == path),
        "{refused}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "keep me");
    CastWriter::create(&path, &header, true)
        .unwrap()
        .finish()
        .unwrap();
    assert_eq!(read_cast(&path).unwrap().events, []);
}

#[test]
fn transcode_refuses_its_own_input_and_existing_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let (input, other) = (dir.path().join("in.cast"), dir.path().join("other.cast"));
    write_cast(
        &input,
        &Header::new(CastVersion::V2, 80, 24),
        &sample_events(),
    );
    let same = transcode(&input, &input, CastVersion::V3, true).unwrap_err();
    assert!(matches!(same, RecorderError::SameFile { .. }), "{same}");
    std::fs::write(&other, "x").unwrap();
    let exists = transcode(&input, &other, CastVersion::V3, false).unwrap_err();
    assert!(matches!(exists, RecorderError::Exists { .. }), "{exists}");
    assert_eq!(
        read_cast(&input).unwrap().events.len(),
        sample_events().len()
    );
}

#[test]
fn transcode_of_a_bad_cast_reports_the_line_and_leaves_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("bad.cast"), dir.path().join("out.cast"));
    std::fs::write(
        &input,
        "{\"version\": 2, \"width\": 80, \"height\": 24}\n[1, \"o\", \"a\"]\n[1, \"r\", \"0x0\"]\n",
    )
    .unwrap();
    let error = transcode(&input, &output, CastVersion::V3, false).unwrap_err();
    let RecorderError::Cast(cast_error) = &error else {
        panic!("{error}")
    };
    assert_eq!(cast_error.line, 3);
    assert!(!output.exists());
}
