//! A cast on disk is always readable: every line is on disk as soon as `write_event` returns,
//! and a recorder killed with SIGKILL leaves a prefix in which every line parses.

#![forbid(unsafe_code)]
// Test code: a panic is how a failure is reported.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use phux_recorder::{read_cast, read_cast_and_cut, CastVersion, CastWriter, Event, Header};

const CHILD_ENV: &str = "PHUX_RECORDER_TEST_CHILD_CAST";

#[test]
fn every_event_is_on_disk_while_the_writer_is_still_alive() {
    let dir = tempfile::tempdir().unwrap();
    for version in [CastVersion::V2, CastVersion::V3] {
        let path = dir.path().join(format!("live-{version}.cast"));
        let mut writer = CastWriter::create(&path, &Header::new(version, 80, 24), false).unwrap();
        for i in 0..50 {
            writer
                .write_event(&Event::output(f64::from(i) * 0.01, format!("line {i}\r\n")))
                .unwrap();
            let cast = read_cast(&path).unwrap();
            assert_eq!(
                cast.events.len(),
                i as usize + 1,
                "{version}: event {i} not on disk yet"
            );
        }
        let on_disk = std::fs::metadata(&path).unwrap().len();
        assert_eq!(on_disk, writer.bytes_written());
        drop(writer);
    }
}

/// In the child process: write events until killed.
fn run_as_child(path: &Path) -> ! {
    let mut writer = CastWriter::create(path, &Header::new(CastVersion::V3, 80, 24), true).unwrap();
    let payload = "x".repeat(300);
    for i in 0u32.. {
        let event = Event::output(f64::from(i) * 0.001, format!("{i} {payload}\r\n"));
        writer.write_event(&event).unwrap();
    }
    unreachable!("the parent kills this process")
}

fn line_count(path: &PathBuf) -> usize {
    std::fs::read(path).map_or(0, |bytes| bytes.iter().filter(|&&b| b == b'\n').count())
}

#[test]
fn a_recorder_killed_with_sigkill_leaves_a_readable_cast() {
    if let Some(path) = std::env::var_os(CHILD_ENV) {
        run_as_child(Path::new(&path));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("killed.cast");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "a_recorder_killed_with_sigkill_leaves_a_readable_cast",
            "--nocapture",
        ])
        .env(CHILD_ENV, &path)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // A deadline on the wait so a broken child fails the test instead of hanging it.
    let deadline = Instant::now() + Duration::from_secs(15);
    while line_count(&path) < 2000 {
        assert!(
            Instant::now() < deadline,
            "child wrote only {} lines",
            line_count(&path)
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL on Unix: no destructor, no flush, no chance to tidy up.
    let status = child.wait().unwrap();
    assert!(!status.success());
    // A SIGKILL can cut the one write(2) of a line where it crosses a page: what a killed
    // writer leaves is whole lines, then at most a part of one, which the reader reports as
    // cut and leaves out. Every whole line must read.
    let bytes = std::fs::read(&path).unwrap();
    let whole_lines = bytes.iter().filter(|&&b| b == b'\n').count();
    let cut_short = bytes.last().is_some_and(|&b| b != b'\n');
    let (cast, cut) = read_cast_and_cut(&path).unwrap();
    assert!(
        cast.events.len() >= 1999,
        "only {} events",
        cast.events.len()
    );
    // The header is a line too. A part of a line that is whole JSON (cut just before its
    // newline) is an event like any other.
    match cut {
        Some(cut) => {
            assert!(cut_short, "{cut}");
            assert_eq!(cut.line, whole_lines + 1, "{cut}");
            assert_eq!(cast.events.len() + 1, whole_lines);
        }
        None => assert_eq!(cast.events.len() + 1, whole_lines + usize::from(cut_short)),
    }
}
