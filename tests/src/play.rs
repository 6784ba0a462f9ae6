//! Casts played into a test server: writing a cast, `phux play --json`, and waiting for text on
//! the played pane's screen, read over the wire. Shared by the `play` tests and `play_bench`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use phux_core::documents::ScreenState;
use phux_core::ids::PaneId;
use serde_json::json;

use crate::{wait_until, TestServer, WireClient};

/// How long a played pane has to show what is waited for.
pub const WAIT: Duration = Duration::from_secs(15);

/// Writes a v2 cast: header plus `[time, code, data]` events.
pub fn write_cast(
    dir: &Path,
    name: &str,
    header: serde_json::Value,
    events: &[(f64, &str, &str)],
) -> PathBuf {
    let path = dir.join(name);
    let mut file = std::fs::File::create(&path).unwrap();
    writeln!(file, "{header}").unwrap();
    for (t, code, data) in events {
        writeln!(file, "{}", json!([t, code, data])).unwrap();
    }
    path
}

pub fn v2(cols: u16, rows: u16) -> serde_json::Value {
    json!({"version": 2, "width": cols, "height": rows})
}

/// A server with one session to play beside; returns the server and that pane.
pub fn server() -> (TestServer, String) {
    let server = TestServer::start();
    let pane = server.new_session("main", &["sleep", "600"]);
    (server, pane)
}

/// `phux play ARGS --json` → the new pane.
pub fn play(server: &TestServer, args: &[&str]) -> (PaneId, serde_json::Value) {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    all.push("--json");
    let doc = server.json(&all);
    (PaneId(doc["terminal_id"].as_u64().unwrap() as u32), doc)
}

pub fn text(screen: &ScreenState) -> String {
    screen.lines.join("\n")
}

pub fn wait_for_text(wire: &mut WireClient, pane: PaneId, needle: &str) -> ScreenState {
    let mut last = None;
    wait_until(&format!("{needle:?} shows in {pane}"), WAIT, || {
        let screen = wire.screen(pane);
        let found = text(&screen).contains(needle);
        last = Some(screen);
        found
    });
    last.unwrap()
}

/// Polls every 0.5 ms (not the testkit's 10 ms) until `done` holds: for measurements, where the
/// polling period would otherwise be most of the figure.
pub fn poll_tightly(description: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < limit,
            "timed out after {limit:?} waiting until {description}"
        );
        std::thread::sleep(Duration::from_micros(500));
    }
}

pub fn wait_for_text_tightly(wire: &mut WireClient, pane: PaneId, needle: &str) {
    poll_tightly(&format!("{needle:?} shows in {pane}"), WAIT, || {
        text(&wire.screen(pane)).contains(needle)
    });
}
