//! Contract §4.16 (`phux play --json`): `duration_ms` is "how long the playback will take at the
//! requested speed, after the idle clamp — the wait you are actually in for". Every pass counts;
//! a loop that repeats until the pane is killed has no end to wait for, so it is `null`
//! (with `passes: null`).

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::io::Write;
use std::path::{Path, PathBuf};

use phux_tests::TestServer;

/// 0.4 s raw; the trailing marker keeps time passing after the last output.
fn short_cast(dir: &Path) -> PathBuf {
    let path = dir.join("short.cast");
    let mut file = std::fs::File::create(&path).unwrap();
    writeln!(file, r#"{{"version":2,"width":20,"height":3}}"#).unwrap();
    writeln!(file, r#"[0.0,"o","A"]"#).unwrap();
    writeln!(file, r#"[0.4,"m","end"]"#).unwrap();
    path
}

fn play(server: &TestServer, beside: &str, cast: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["play", cast.to_str().unwrap(), beside, "--json"];
    args.extend_from_slice(extra);
    server.json(&args)
}

#[test]
fn s4_16_play_duration_ms_counts_every_pass_at_the_requested_speed() {
    let server = TestServer::start();
    let beside = server.new_session("main", &["sleep", "600"]);
    let cast = short_cast(server.dir.path());
    let once = play(&server, &beside, &cast, &[]);
    assert_eq!(once["duration_ms"], 400, "{once}");
    assert_eq!(once["passes"], 1);
    let thrice = play(&server, &beside, &cast, &["--loop", "3"]);
    assert_eq!(thrice["passes"], 3);
    assert_eq!(thrice["duration_ms"], 1200, "{thrice}");
    let fast = play(&server, &beside, &cast, &["--loop", "3", "--speed", "2"]);
    assert_eq!(fast["duration_ms"], 600, "{fast}");
}

#[test]
fn s4_16_play_duration_ms_of_an_endless_loop_is_null() {
    let server = TestServer::start();
    let beside = server.new_session("main", &["sleep", "600"]);
    let cast = short_cast(server.dir.path());
    let forever = play(&server, &beside, &cast, &["--loop"]);
    assert!(forever["passes"].is_null(), "{forever}");
    assert!(forever["duration_ms"].is_null(), "{forever}");
    assert!(forever.as_object().unwrap().contains_key("duration_ms"));
}
