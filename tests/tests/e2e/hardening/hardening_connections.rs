//! Issue 18, items 5 and 6, and issue 37, item 7, against a real server: a connection that
//! never says hello, or a frame whose body never comes, is dropped; connections are capped, the
//! oldest unfinished handshakes and then long-idle connections making room, so silent or idle
//! connections cannot starve real clients, and a newcomer refused is told the server is at its
//! connection limit; `phux mcp` bounds its concurrent calls; and a reply too large for one
//! frame is a typed error that says how to narrow the request.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::time::Duration;

use phux_tests::{stderr, wait_until, TestServer};

/// The server's cap (`phux_server::admission::MAX_CONNECTIONS`).
const CAP: usize = 512;

fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = u32::try_from(body.len() + 1)
        .unwrap()
        .to_be_bytes()
        .to_vec();
    out.push(1);
    out.extend_from_slice(body);
    out
}

const HELLO: &[u8] = br#"{"type":"hello","protocol":{"major":1,"minor":0},"client":"t"}"#;

/// True when the server closes `stream` (EOF, or a reset) within `limit`, after any answer.
fn closed_by_server(stream: &mut UnixStream, limit: Duration) -> bool {
    stream.set_read_timeout(Some(limit)).unwrap();
    let mut sink = [0u8; 4096];
    loop {
        match stream.read(&mut sink) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return false,
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => return false,
            Err(_) => return true,
        }
    }
}

fn open_fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .count()
}

/// ~6,660 silent connections exhausted the server's descriptors and every verb hung.
#[test]
fn a_connection_that_never_says_hello_is_dropped() {
    let server = TestServer::start();
    let mut silent = UnixStream::connect(&server.socket).unwrap();
    assert!(
        closed_by_server(&mut silent, Duration::from_secs(30)),
        "a silent connection was kept"
    );
}

/// 40 connections each holding a 16 MiB−1 partial frame pinned 668 MB.
#[test]
fn a_frame_whose_body_never_arrives_is_dropped() {
    let server = TestServer::start();
    let mut stream = UnixStream::connect(&server.socket).unwrap();
    stream.write_all(&frame(HELLO)).unwrap();
    let claimed = 16 * 1024 * 1024 - 1_u32;
    stream.write_all(&claimed.to_be_bytes()).unwrap();
    stream.write_all(&[1]).unwrap();
    stream.write_all(&[b' '; 4096]).unwrap();
    assert!(
        closed_by_server(&mut stream, Duration::from_secs(40)),
        "a connection holding a partial frame was kept"
    );
}

/// Silent connections beyond the cap push out the oldest handshakes: a real client still gets
/// its answer, and the server's descriptors stay bounded by the cap.
#[test]
fn silent_connections_beyond_the_cap_do_not_starve_a_real_client() {
    let server = TestServer::start();
    let pane = server.new_session("s", &["sleep", "600"]);
    let pid = server.server_pid();
    let silent: Vec<UnixStream> = (0..CAP + 200)
        .map(|_| UnixStream::connect(&server.socket).unwrap())
        .collect();
    wait_until(
        "the server holds at most its cap of connections",
        Duration::from_secs(30),
        || open_fds(pid) < 2 * CAP + 64,
    );
    let output = server.run(&["snapshot", &pane, "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    drop(silent);
}

/// The next frame's body on `stream`, as text.
fn read_frame(stream: &mut UnixStream) -> String {
    let mut header = [0u8; 4];
    stream.read_exact(&mut header).unwrap();
    let mut body = vec![0u8; u32::from_be_bytes(header) as usize];
    stream.read_exact(&mut body).unwrap();
    String::from_utf8_lossy(&body[1..]).into_owned()
}

/// A connection past its hello, welcomed.
fn welcomed(server: &TestServer) -> UnixStream {
    let mut stream = UnixStream::connect(&server.socket).unwrap();
    stream.write_all(&frame(HELLO)).unwrap();
    let welcome = read_frame(&mut stream);
    assert!(welcome.contains("welcome"), "{welcome}");
    stream
}

/// When every place is held by a client serving a stream, a newcomer gets one of the places
/// kept for control requests: `status` and `kill --server` are served (they failed with "the
/// server went away"), while a stream asked for there is refused, saying the server is at its
/// connection limit, instead of growing the server without bound.
#[test]
fn past_the_cap_of_active_clients_only_control_requests_are_served() {
    let server = TestServer::start();
    let mut active = Vec::new();
    for _ in 0..CAP {
        let mut stream = welcomed(&server);
        stream
            .write_all(&frame(br#"{"type":"subscribe","id":1}"#))
            .unwrap();
        let answer = read_frame(&mut stream);
        assert!(answer.contains("\"ok\":{"), "{answer}");
        active.push(stream);
    }
    let mut newcomer = welcomed(&server);
    newcomer
        .write_all(&frame(br#"{"type":"subscribe","id":2}"#))
        .unwrap();
    let refusal = read_frame(&mut newcomer);
    assert!(refusal.contains("at its connection limit"), "{refusal}");
    assert!(
        closed_by_server(&mut newcomer, Duration::from_secs(30)),
        "a stream past the cap was served"
    );
    let output = server.run(&["status", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = server.run(&["ls", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let killed = server.run(&["kill", "--server"]);
    assert!(killed.status.success(), "{}", stderr(&killed));
    drop(active);
}

/// 512 idle connections past their hello made `ls`, `status`, even `kill --server` fail with
/// "the server went away": those are served at once from the places kept for control, and any
/// request once a connection idle long enough gives its place to the newcomer.
#[test]
fn idle_connections_past_their_hello_give_way_to_a_new_client() {
    let server = TestServer::start();
    let pane = server.new_session("s", &["sleep", "600"]);
    let mut idle: Vec<UnixStream> = (0..CAP).map(|_| welcomed(&server)).collect();
    let output = server.run(&["status", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    // A snapshot is no control request: served once an idle connection has idled long enough.
    wait_until("snapshot is answered", Duration::from_secs(30), || {
        server.run(&["snapshot", &pane, "--json"]).status.success()
    });
    let evicted = idle
        .iter_mut()
        .map(|s| closed_by_server(s, Duration::from_millis(1)))
        .filter(|&closed| closed)
        .count();
    assert!(evicted >= 1, "no idle connection gave way");
    let killed = server.run(&["kill", "--server"]);
    assert!(killed.status.success(), "{}", stderr(&killed));
}

/// One `phux mcp` with 700 concurrent waits held 605 threads and every place the server had:
/// calls past the adapter's bound are refused at once, the rest go on.
#[test]
fn mcp_bounds_its_concurrent_calls() {
    use phux_tests::mcp::McpProcess;
    use serde_json::json;
    let server = TestServer::start();
    let pane = server.new_session("s", &["sleep", "600"]);
    let (mut mcp, _) = McpProcess::initialized(&server.socket, "2025-06-18");
    let bound = phux_cli::mcp::MAX_CALLS_IN_FLIGHT;
    let ids: Vec<u64> = (0..bound + 6)
        .map(|_| {
            mcp.send(
                "tools/call",
                json!({"name": "phux_wait", "arguments":
                    {"target": pane, "regex": "^never-printed$", "timeout_secs": 60}}),
            )
        })
        .collect();
    for id in &ids[bound..] {
        // A tool result with a typed code, which a host shows its model (issue 54), not a
        // JSON-RPC error.
        let reply = mcp.reply(*id, Duration::from_secs(30));
        let error = &reply["result"]["structuredContent"]["error"];
        assert_eq!(reply["result"]["isError"], true, "{reply}");
        assert_eq!(error["code"], "too_many_calls", "{reply}");
        let message = error["message"].as_str().unwrap_or_default();
        assert!(message.contains("in flight already"), "{reply}");
    }
    // The server still answers everyone else.
    let output = server.run(&["status", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
}

/// 170 connections each holding a partial 16 MiB frame held 2.8 GB (the connection cap allowed
/// 8.6 GB): the large frames being received are bounded together (256 MiB from local
/// connections), and the frame that would pass that is answered with a transport error saying
/// so. Only a kind that may be large (here a paste) draws on that budget.
#[test]
fn partial_frames_are_bounded_together_not_only_one_by_one() {
    let server = TestServer::start();
    let claimed = 16 * 1024 * 1024 - 1_u32;
    let fit = (256 << 20) / claimed as usize;
    let mut partial: Vec<UnixStream> = (0..=fit).map(|_| welcomed(&server)).collect();
    for stream in &mut partial {
        stream.write_all(&claimed.to_be_bytes()).unwrap();
        // The refused one may be closed before the rest is written.
        let _ = stream.write_all(&[1]);
        let _ = stream.write_all(br#"{"type":"paste","id":1,"pane":1,"text":""#);
        let _ = stream.write_all(&[b' '; 4096]);
    }
    let mut said = vec![Vec::new(); partial.len()];
    let refusal = "of large requests from local connections already";
    wait_until(
        "one frame past the budget is refused",
        Duration::from_secs(9),
        || {
            for (stream, said) in partial.iter_mut().zip(said.iter_mut()) {
                stream.set_nonblocking(true).unwrap();
                let mut buf = [0u8; 4096];
                while let Ok(n) = stream.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    said.extend_from_slice(&buf[..n]);
                }
            }
            said.iter()
                .any(|s| String::from_utf8_lossy(s).contains(refusal))
        },
    );
    let refused = said
        .iter()
        .filter(|s| String::from_utf8_lossy(s).contains(refusal))
        .count();
    assert_eq!(refused, 1, "{fit} frames fit, one more does not");
    // Meanwhile a hello and a small request are served: they draw on no budget.
    let output = server.run(&["status", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    drop(partial);
}

/// `snapshot --scrollback` of a wide pane with 10k rows of history is more than one frame may
/// carry: the connection was dropped and the CLI said "the server went away".
#[test]
fn a_reply_over_16_mib_is_a_typed_error_saying_how_to_narrow_it() {
    use phux_core::wire::{ClientMessage, NewSession, NewSessionOk};
    let server = TestServer::start();
    // 1000 columns of box drawing (3 bytes each) for 10,050 rows: ~30 MB of text.
    let script = "sleep 0.5; line=$(printf '%1000s' '' | sed 's/ /─/g'); \
                  i=0; while [ $i -lt 10050 ]; do echo \"$line\"; i=$((i+1)); done; \
                  echo finished; exec sleep 600";
    let mut client = phux_cli::client::Client::connect(&server.socket).unwrap();
    let created: NewSessionOk = client
        .request(ClientMessage::NewSession(NewSession {
            id: 0,
            name: Some("wide".into()),
            cwd: None,
            env: Vec::new(),
            command: Some(vec!["bash".into(), "-c".into(), script.into()]),
            cols: Some(1000),
            rows: Some(50),
            observe: false,
            history_limit: None,
        }))
        .unwrap();
    let pane = format!("@{}", created.pane.0);
    wait_until("the history is written", Duration::from_secs(120), || {
        phux_tests::screen(&server.socket, &pane)
            .lines
            .iter()
            .any(|l| l.contains("finished"))
    });
    let output = server.run(&["snapshot", &pane, "--scrollback", "--json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let line = phux_tests::error_line(&output);
    assert_eq!(line["error"]["code"], "reply_too_large", "{line}");
    assert!(
        line["remedy"].as_str().unwrap().contains("--scrollback N"),
        "{line}"
    );
    // Narrowed as the remedy says, it answers.
    let narrowed = server.run(&["snapshot", &pane, "--scrollback", "100", "--json"]);
    assert!(narrowed.status.success(), "{}", stderr(&narrowed));
}
