//! Clients across `phux upgrade`: a `watch` goes on, reads and acknowledged writes in flight
//! are answered (writes typed exactly once), a `rec` of a live pane follows it, and a
//! satellite comes back to its hub.

#![allow(clippy::expect_used, clippy::unwrap_used)] // tests fail loudly by design

use std::process::{Command, Stdio};
use std::time::Duration;

use phux_tests::{stderr, wait_until, TestServer};

use super::upgrade::upgrade;

/// A watch whose stream an upgrade ended subscribes again and goes on (it used to end with
/// exit 0 and no line).
#[test]
fn a_watch_goes_on_across_an_upgrade() {
    let server = TestServer::start();
    server.new_session("first", &["sh"]);
    let watch = server.spawn_connected(
        &[
            "watch",
            "--json",
            "--until",
            "pane_spawned",
            "--timeout",
            "30",
        ],
        1,
    );
    let out = upgrade(&server);
    assert!(out.status.success(), "{}", stderr(&out));
    wait_until(
        "the watch subscribed again",
        Duration::from_secs(10),
        || server.clients() > 1,
    );
    server.new_session("second", &["sh"]);
    let out = watch.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.contains("\"pane_spawned\""), "{printed}");
}

/// Reads in flight while the server upgrades are answered (asked again of the new process when
/// the old one went away before answering), never `server_disconnected`.
#[test]
fn reads_in_flight_across_upgrades_are_all_answered() {
    let server = TestServer::start();
    let pane = server.new_session("busy", &["sh"]);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let read = |args: &[&str]| {
        let mut calls = 0;
        let mut failures = Vec::new();
        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
            let out = server.phux(args).output().unwrap();
            calls += 1;
            if !out.status.success() {
                failures.push(String::from_utf8_lossy(&out.stderr).into_owned());
            }
        }
        (calls, failures)
    };
    std::thread::scope(|scope| {
        let readers = [
            scope.spawn(|| read(&["ls", "--json"])),
            scope.spawn(|| read(&["snapshot", "--json", &pane])),
        ];
        for _ in 0..3 {
            let out = upgrade(&server);
            assert!(out.status.success(), "{}", stderr(&out));
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for reader in readers {
            let (calls, failures) = reader.join().unwrap();
            assert!(calls > 0);
            assert!(
                failures.is_empty(),
                "{} of {calls} failed: {failures:?}",
                failures.len()
            );
        }
    });
}

/// A `rec` of a live pane follows it through an upgrade: the same cast goes on, with every line
/// the pane printed once, in order (it used to end there, blaming itself for falling behind).
#[test]
fn rec_keeps_recording_across_an_upgrade() {
    let server = TestServer::start();
    let stop = server.dir.path().join("stop");
    let pane = server.ticker("ticks", &stop);
    let cast = server.dir.path().join("through.cast");
    let cast_arg = cast.display().to_string();
    let rec = server
        .phux(&["rec", &pane, "-o", &cast_arg])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_until("the recording started", Duration::from_secs(10), || {
        std::fs::read_to_string(&cast).is_ok_and(|t| t.contains("tick-"))
    });
    for _ in 0..2 {
        let out = upgrade(&server);
        assert!(out.status.success(), "{}", stderr(&out));
        std::thread::sleep(Duration::from_millis(200));
    }
    std::fs::write(&stop, "").unwrap();
    wait_until("the recording has the end", Duration::from_secs(15), || {
        std::fs::read_to_string(&cast).is_ok_and(|t| t.contains("done-"))
    });
    Command::new("kill")
        .args(["-INT", &rec.id().to_string()])
        .status()
        .unwrap();
    let out = rec.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("fell behind"), "{}", stderr(&out));
    let recorded = phux_recorder::read_cast(&cast).unwrap();
    // After the first output, the screen's repaint as the recording began.
    let text: String = phux_tests::cast_outputs(&recorded)[1..].concat();
    let lines: Vec<&str> = text.split("\r\n").collect();
    let (ticks, last) = phux_tests::ticks(&lines);
    let first = *ticks.first().unwrap();
    assert_eq!(
        ticks,
        (first..=last).collect::<Vec<_>>(),
        "every line once, in order"
    );
}

/// A satellite that upgrades comes back in its hub's listing by itself; the time it took is
/// printed (the link redials from 250 ms, doubling).
#[test]
fn a_satellite_that_upgrades_comes_back_to_its_hub() {
    let mut fleet = phux_tests::fleet::Fleet::start();
    let satellite = fleet.add_satellite("devbox");
    let local = satellite.plain_shell("work", "sh");
    let remote = format!("devbox/{local}");
    fleet.wait_listed(&remote);
    let out = upgrade(&fleet.satellites["devbox"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let upgraded = std::time::Instant::now();
    // Until the hub has noticed the link drop and dialed again, or seen it whole all along.
    let mut was_unreachable = false;
    wait_until(
        "the hub lists the satellite again",
        Duration::from_secs(20),
        || {
            let doc = fleet.listing();
            let unreachable = !doc["unreachable"].as_array().is_some_and(Vec::is_empty);
            was_unreachable |= unreachable;
            let listed = doc["terminals"]
                .as_array()
                .is_some_and(|t| t.iter().any(|v| v == remote.as_str()));
            listed && !unreachable
        },
    );
    println!(
        "the satellite was listed again {} ms after its upgrade returned (unreachable meanwhile: {was_unreachable})",
        upgraded.elapsed().as_millis()
    );
    let out = fleet.run(&["send-keys", &remote, "echo back-$((2*21))", "Enter"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// Acknowledged writes in flight while the server upgrades are typed exactly once: the old
/// server's ledger of what it typed goes to the new one, a write that came during the freeze
/// waits for the exec and is asked again of the new server, which types it (issue 49).
#[test]
fn writes_in_flight_across_upgrades_are_typed_exactly_once() {
    let server = TestServer::start();
    let out = server.dir.path().join("typed.txt");
    let pane = server.new_session("sink", &["sh", "-c", &format!("cat > {}", out.display())]);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let write = |writer: usize| {
        let mut sent = Vec::new();
        let mut failures = Vec::new();
        let mut n = 0;
        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
            n += 1;
            let word = format!("W{writer}-{n}");
            let out = server
                .phux(&["send-keys", &pane, &word, "Enter"])
                .output()
                .unwrap();
            if out.status.success() {
                sent.push(word);
            } else {
                failures.push(String::from_utf8_lossy(&out.stderr).into_owned());
            }
        }
        (sent, failures)
    };
    let results = std::thread::scope(|scope| {
        let writers = [1, 2, 3, 4].map(|n| scope.spawn(move || write(n)));
        for _ in 0..8 {
            let out = upgrade(&server);
            assert!(out.status.success(), "{}", stderr(&out));
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        writers.map(|w| w.join().unwrap())
    });
    let sent: Vec<String> = results.iter().flat_map(|(s, _)| s.clone()).collect();
    let failures: Vec<String> = results.iter().flat_map(|(_, f)| f.clone()).collect();
    assert!(!sent.is_empty());
    println!(
        "{} writes across 8 upgrades, {} failed",
        sent.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} writes failed: {failures:?}",
        failures.len()
    );
    let last = sent.last().unwrap().clone();
    wait_until(
        "the last word reached the file",
        Duration::from_secs(20),
        || std::fs::read_to_string(&out).is_ok_and(|t| t.lines().any(|l| l == last)),
    );
    // Every word the writers were told was typed is in the file once, and nothing else is.
    let typed = std::fs::read_to_string(&out).unwrap();
    let mut lines: Vec<&str> = typed.lines().collect();
    lines.sort_unstable();
    let mut expected: Vec<&str> = sent.iter().map(String::as_str).collect();
    expected.sort_unstable();
    assert_eq!(
        lines, expected,
        "each acknowledged write typed exactly once"
    );
}
