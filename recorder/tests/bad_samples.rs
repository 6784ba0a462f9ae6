//! Every `samples/bad/NAME.cast` read against `NAME.expected` (re-bless with `PHUX_BLESS=1`).
//!
//! An expected file holds either the error's `Display` line and its remedy, or, for a cast that
//! reads (a cut last line only warns), its warning, `ok: N events` and one `TIME CODE DATA`
//! line per event.

#![forbid(unsafe_code)]
// Test code: a panic is how a failure is reported.
#![allow(clippy::unwrap_used)]

use std::fmt::Write as _;
use std::fs::{self, File};
use std::io::BufReader;
use std::path::{Path, PathBuf};

use phux_recorder::{CastError, CastReader, Event};

fn samples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/bad")
}

/// Reads a sample under its bare file name, so the text does not depend on where the repo is.
fn describe(path: &Path) -> String {
    let name = path.file_name().unwrap();
    let file = File::open(path).unwrap();
    let mut reader = match CastReader::from_bufread(BufReader::new(file), name) {
        Ok(reader) => reader,
        Err(error) => return describe_error(&error),
    };
    match reader.by_ref().collect::<Result<Vec<Event>, _>>() {
        Ok(events) => {
            let warning = reader
                .cut()
                .map(|cut| format!("warning: {cut}\n"))
                .unwrap_or_default();
            warning + &describe_events(&events)
        }
        Err(error) => describe_error(&error),
    }
}

fn describe_error(error: &CastError) -> String {
    format!("{error}\nremedy: {}\n", error.remedy())
}

fn describe_events(events: &[Event]) -> String {
    let mut text = format!("ok: {} events\n", events.len());
    for event in events {
        let data = serde_json::Value::from(event.kind.data());
        writeln!(text, "{:.6} {} {data}", event.time, event.kind.code()).unwrap();
    }
    text
}

#[test]
fn every_bad_sample_gives_its_expected_text() {
    let mut casts: Vec<PathBuf> = fs::read_dir(samples_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cast"))
        .collect();
    casts.sort();
    assert!(casts.len() >= 8, "samples/bad looks empty: {casts:?}");
    let mut drift = Vec::new();
    for cast in &casts {
        let actual = describe(cast);
        if let Err(drifted) = phux_golden::compare(&cast.with_extension("expected"), &actual) {
            drift.push(drifted);
        }
    }
    phux_golden::assert_none(&drift);
}

#[test]
fn every_expected_file_has_its_cast() {
    for entry in fs::read_dir(samples_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "expected") {
            assert!(
                path.with_extension("cast").exists(),
                "orphan {}",
                path.display()
            );
        }
    }
}
