//! Issue 52: the page across an outage. The server stops and another listens on the same port
//! with the same tokens; the page is connected again soon after (its redial starts at 50 ms
//! and doubles to 250 ms), with no error shown for a short outage. The time from the listener
//! saying it listens to the page connected is printed (the issue asks for half a second; the
//! log is read every 10 ms, so the figure may be short by that much).

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use phux_tests::listening::Listening;
use phux_tests::missing;

use phux_tests::browser::ready;

#[test]
fn the_page_is_back_soon_after_the_server_listens_again() {
    if let Err(what) = ready() {
        missing(&what);
        return;
    }
    let mut listening = Listening::start();
    listening.server.marked_bash("outage");
    let full = listening.pair(&[]);
    let plan = serde_json::json!({ "base": listening.base(), "token": full["token"] });
    let mut node = phux_tests::browser::script("reconnect.mjs", &plan)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node");
    let mut steps = BufReader::new(node.stdout.take().unwrap()).lines();
    let ready_step = steps.next().and_then(Result::ok).unwrap_or_default();
    // Long enough for the redial to reach its longest interval.
    let listening_at = listening.restart(std::time::Duration::from_secs(2));
    let ms = listening_at
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis();
    let mut stdin = node.stdin.take().unwrap();
    let _ = writeln!(stdin, "{ms}");
    let back_line = steps.next().and_then(Result::ok).unwrap_or_default();
    let _ = node.wait();
    assert!(ready_step.contains("\"ready\""), "{ready_step}");
    let back: serde_json::Value =
        serde_json::from_str(&back_line).unwrap_or_else(|_| panic!("{back_line:?}"));
    println!(
        "the page was connected again {} ms after the new server's listener said it listens \
         (the outage lasted {} ms)",
        back["after_listening_ms"], back["outage_ms"]
    );
    assert_eq!(
        back["red"],
        serde_json::json!([]),
        "a short outage shows no error: {back}"
    );
}
