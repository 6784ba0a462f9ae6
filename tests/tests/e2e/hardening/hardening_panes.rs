//! Issue 18, item 4, through a real server and the real CLI: a pane's input queue is bounded in
//! bytes (`input_busy`, `input_too_large`), and a pane's threads and descriptors all end with
//! it, whether it is killed with input still queued or its program exits while flooding the
//! terminal with queries it never reads the answers to.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::io::Write;
use std::process::Stdio;
use std::time::Duration;

use phux_tests::{rss_of, stderr, threads_of, wait_until, TestServer};

/// A program that puts its terminal in raw mode (so the line discipline keeps every byte) and
/// never reads.
const DEAF: &[&str] = &["sh", "-c", "stty raw -echo; echo ready; exec sleep 600"];

/// The server's pane threads (`pane-N`, `pane-N-reader`, ...), by name.
fn pane_threads(pid: u32) -> Vec<String> {
    let mut names: Vec<String> = threads_of(pid)
        .into_iter()
        .map(|(_, name)| name)
        .filter(|n| n.starts_with("pane-"))
        .collect();
    names.sort();
    names
}

/// The server's pane threads and open descriptors once the one pane it has is fully up and
/// the connection that created it is gone.
fn settled_baseline(pid: u32) -> (Vec<String>, usize) {
    wait_until(
        "the first pane's five threads run (actor, reader, writer, waiter, agent supervisor)",
        Duration::from_secs(10),
        || pane_threads(pid).len() == 5,
    );
    // A baseline: descriptors the creating connection held close on their own time.
    std::thread::sleep(Duration::from_millis(500));
    (pane_threads(pid), open_fds(pid))
}

fn open_fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .count()
}

/// Starts `phux paste PANE` with `text` on stdin. Pastes are acknowledged: one into a program
/// that never reads answers `delivery_unknown` after the server's completion wait (its bytes
/// stay queued), so the tests start several at once instead of one after another.
fn start_paste(server: &TestServer, pane: &str, text: &[u8]) -> std::process::Child {
    let mut child = server
        .phux(&["paste", pane])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(text).unwrap();
    drop(stdin);
    child
}

/// 1,025 pastes of 2 MiB into a pane that does not read took the server to 2.1 GB.
#[test]
fn the_input_queue_is_bounded_in_bytes_busy_then_too_large() {
    let server = TestServer::start();
    let pane = server.new_session("deaf", DEAF);
    server.wait_for_text(&pane, "ready");
    let pid = server.server_pid();
    let before = rss_of(pid);
    let chunk = vec![b'a'; 2 * 1024 * 1024];
    // Six pastes of 2 MiB at once: the queue takes four (8 MiB), the rest are refused at once.
    let pastes: Vec<_> = (0..6)
        .map(|_| start_paste(&server, &pane, &chunk))
        .collect();
    let outputs: Vec<_> = pastes
        .into_iter()
        .map(|p| p.wait_with_output().unwrap())
        .collect();
    let busy: Vec<_> = outputs
        .iter()
        .filter(|o| stderr(o).contains("not reading its input"))
        .collect();
    assert!(
        !busy.is_empty(),
        "12 MiB were queued for a program that never reads"
    );
    for output in &outputs {
        assert_eq!(output.status.code(), Some(1), "{}", stderr(output));
        assert!(
            stderr(output).contains("not reading its input")
                || stderr(output).contains("may or may not have reached"),
            "{}",
            stderr(output)
        );
    }
    let grown = rss_of(pid).saturating_sub(before);
    assert!(grown < 48 * 1024 * 1024, "the server grew by {grown} bytes");
    // The queue stays full for as long as the program does not read. (It has as much room left
    // as the PTY took of the first paste at once, tens of KiB at most: not another paste.)
    let output = start_paste(&server, &pane, &chunk)
        .wait_with_output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("not reading its input"),
        "{}",
        stderr(&output)
    );
    // More than a pane ever queues is refused as such, not as busy.
    let server2 = TestServer::start();
    let pane2 = server2.new_session("deaf", DEAF);
    let huge = vec![b'b'; 9 * 1024 * 1024];
    let mut child = server2
        .phux(&["paste", &pane2])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&huge).unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("more than a pane queues"),
        "{}",
        stderr(&output)
    );
}

/// After `kill` of a pane with input queued, its writer thread and PTY descriptor leaked.
#[test]
fn a_killed_pane_with_input_queued_leaves_no_thread_or_descriptor() {
    let server = TestServer::start();
    server.new_session("keep", &["sleep", "600"]);
    let pid = server.server_pid();
    let (threads, fds) = settled_baseline(pid);
    let pane = server.new_session("deaf", DEAF);
    server.wait_for_text(&pane, "ready");
    let chunk = vec![b'a'; 1024 * 1024];
    let pastes: Vec<_> = (0..3)
        .map(|_| start_paste(&server, &pane, &chunk))
        .collect();
    wait_until(
        "the blocked pastes hold writers beside the pane's threads",
        Duration::from_secs(10),
        || pane_threads(pid).len() > threads.len(),
    );
    assert!(server.run(&["kill", &pane]).status.success());
    // The writes the pane never took end as unknown (in part) or not written, never as done.
    for paste in pastes {
        let output = paste.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    }
    wait_until(
        "the killed pane's threads and descriptors are gone",
        Duration::from_secs(15),
        || pane_threads(pid) == threads && open_fds(pid) == fds,
    );
}

/// A raw-mode program flooding `\e[6n` (whose answers it never reads) that exits on its own
/// left the writer blocked on a full PTY.
#[test]
fn a_program_flooding_queries_that_exits_leaves_no_thread_or_descriptor() {
    // An ended pane kept readable keeps its keeper's link (one descriptor) for as long as it
    // is kept: keep none, so every descriptor the pane had must go.
    let server =
        TestServer::start_with_env(&[], &[("PHUX_KEEP_EXITED", std::ffi::OsStr::new("0"))]);
    server.new_session("keep", &["sleep", "600"]);
    let pid = server.server_pid();
    let (threads, fds) = settled_baseline(pid);
    let flood = "stty raw -echo; i=0; while [ $i -lt 20000 ]; do printf '\\033[6n'; \
                 i=$((i+1)); done; sleep 1";
    server.new_session("flood", &["sh", "-c", flood]);
    wait_until(
        "the flooding pane's threads and descriptors are gone",
        Duration::from_secs(60),
        || pane_threads(pid) == threads && open_fds(pid) == fds,
    );
}
