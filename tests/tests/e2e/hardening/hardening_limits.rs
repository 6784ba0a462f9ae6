//! Issue 18, items 1 and 10, through a real server and the real CLI: no way of giving a pane a
//! size gets past the grid cap, and session names that forge lines or cannot be addressed are
//! refused at creation, while what a person reads is escaped and `--json` keeps exact strings.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::io::Write;
use std::time::Duration;

use phux_cli::client::{Client, ClientError};
use phux_core::error_code::ErrorCode;
use phux_core::ids::PaneId;
use phux_core::limits::{MAX_GRID_COLS, MAX_GRID_ROWS};
use phux_core::wire::{ClientMessage, NewSession, Resize, ResizeOk, Tags, TagsOk};
use phux_tests::{error_line, stderr, stdout, wait_until, TestServer, WireClient};

fn size_of(wire: &mut WireClient, pane: &str) -> (u16, u16) {
    let id: u32 = pane.trim_start_matches('@').parse().unwrap();
    let view = wire
        .panes()
        .into_iter()
        .find(|p| p.id == PaneId(id))
        .expect("the pane exists");
    (view.cols, view.rows)
}

fn server_code(error: ClientError) -> ErrorCode {
    match error {
        ClientError::Server { code, .. } => code,
        other => panic!("expected a refusal from the server, got {other:?}"),
    }
}

/// `resize P 65535x65535` was accepted (`held: true`) and would have needed ~33 GB.
#[test]
fn resize_beyond_the_grid_cap_is_invalid_argument_at_once() {
    let server = TestServer::start();
    let pane = server.new_session("cap", &["sleep", "600"]);
    for geometry in ["65535x65535", "20000x20000", "1001x10", "10x1001"] {
        let output = server.run(&["resize", &pane, geometry, "--json"]);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{geometry}: {}",
            stderr(&output)
        );
        assert_eq!(error_line(&output)["error"]["code"], "invalid_argument");
    }
    let mut wire = WireClient::connect(&server);
    assert_eq!(size_of(&mut wire, &pane), (80, 24));
    // The largest size the cap allows holds.
    let at_cap = format!("{MAX_GRID_COLS}x{MAX_GRID_ROWS}");
    let doc = server.json(&["resize", &pane, &at_cap, "--json"]);
    assert_eq!(doc["held"], true, "{doc}");
}

/// The server, not only the CLI, refuses: `__play-cast` and other clients send sizes directly.
#[test]
fn the_server_refuses_a_grid_beyond_the_cap_from_any_client() {
    let server = TestServer::start();
    let pane = server.new_session("cap", &["sleep", "600"]);
    let id = phux_tests::pane_id(&pane);
    let mut client = Client::connect(&server.socket).unwrap();
    let refused = client
        .request::<ResizeOk>(ClientMessage::Resize(Resize {
            id: 0,
            pane: id,
            cols: 65535,
            rows: 65535,
        }))
        .unwrap_err();
    assert_eq!(server_code(refused), ErrorCode::InvalidArgument);
    let refused = client
        .request::<serde_json::Value>(ClientMessage::NewSession(NewSession {
            id: 0,
            name: Some("huge".into()),
            cwd: None,
            env: Vec::new(),
            command: Some(vec!["sleep".into(), "600".into()]),
            cols: Some(24000),
            rows: Some(24000),
            observe: false,
            history_limit: None,
        }))
        .unwrap_err();
    assert_eq!(server_code(refused), ErrorCode::InvalidArgument);
    let mut wire = WireClient::connect(&server);
    assert_eq!(wire.panes().len(), 1, "no pane was created");
}

/// A 77-byte cast whose header says 24000x24000 made `play` fit a pane to it.
#[test]
fn a_cast_whose_header_is_beyond_the_cap_is_refused_before_any_pane_exists() {
    let server = TestServer::start();
    let beside = server.new_session("main", &["sleep", "600"]);
    let cast = server.dir.path().join("huge.cast");
    std::fs::write(
        &cast,
        "{\"version\":2,\"width\":24000,\"height\":24000}\n[0.1,\"o\",\"\\u001b[2J\"]\n",
    )
    .unwrap();
    let mut wire = WireClient::connect(&server);
    let output = server.run(&["play", cast.to_str().unwrap(), &beside, "--json"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert_eq!(error_line(&output)["error"]["code"], "invalid_argument");
    assert_eq!(wire.panes().len(), 1);
}

/// An `r` event beyond the cap in a played cast leaves the pane at its size; playback goes on.
#[test]
fn an_r_event_beyond_the_cap_does_not_resize_the_played_pane() {
    let server = TestServer::start();
    let beside = server.new_session("main", &["sleep", "600"]);
    let cast = server.dir.path().join("r.cast");
    let mut file = std::fs::File::create(&cast).unwrap();
    writeln!(file, "{{\"version\":2,\"width\":40,\"height\":10}}").unwrap();
    writeln!(file, "[0.05,\"o\",\"before \"]").unwrap();
    writeln!(file, "[0.1,\"r\",\"30000x30000\"]").unwrap();
    writeln!(file, "[0.15,\"o\",\"after\"]").unwrap();
    drop(file);
    let doc = server.json(&["play", cast.to_str().unwrap(), &beside, "--json"]);
    let played = format!("@{}", doc["terminal_id"]);
    phux_tests::wait_for_text(&server.socket, &played, "after");
    let mut wire = WireClient::connect(&server);
    assert_eq!(size_of(&mut wire, &played), (40, 10));
}

/// `rec --size` beyond the cap is refused before the command runs.
#[test]
fn rec_size_beyond_the_cap_is_refused_before_the_command_runs() {
    let server = TestServer::start();
    let marker = server.dir.path().join("ran");
    let out = server.dir.path().join("x.cast");
    let output = server.run(&[
        "rec",
        "--size",
        "5000x5000",
        "-o",
        out.to_str().unwrap(),
        "--json",
        "--",
        "touch",
        marker.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert_eq!(error_line(&output)["error"]["code"], "invalid_argument");
    phux_tests::assert_quiet_for("the command ran", Duration::from_millis(200), || {
        marker.exists() || out.exists()
    });
}

/// `phux new $'x\ny'` made `ls` print a forged line; `new -s ''` and `new -s 'a:b'` made
/// sessions nobody could address.
#[test]
fn new_refuses_session_names_that_rename_refuses() {
    let server = TestServer::start();
    for bad in [
        "x\ny",
        "",
        "bad name:x",
        "\x1b[31mred",
        "a\u{202E}b",
        &"n".repeat(65),
    ] {
        let output = server.run(&["new", "-s", bad, "--json", "--", "sleep", "600"]);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{bad:?}: {}",
            stderr(&output)
        );
        assert_eq!(error_line(&output)["error"]["code"], "invalid_argument");
    }
    // The server applies the same rule to any client.
    let mut client = Client::connect(&server.socket).unwrap();
    let refused = client
        .request::<serde_json::Value>(ClientMessage::NewSession(NewSession {
            id: 0,
            name: Some("x\nforged: 1 window".into()),
            cwd: None,
            env: Vec::new(),
            command: Some(vec!["sleep".into(), "600".into()]),
            cols: None,
            rows: None,
            observe: false,
            history_limit: None,
        }))
        .unwrap_err();
    assert_eq!(server_code(refused), ErrorCode::InvalidArgument);
    let listing = server.run(&["ls"]);
    assert_eq!(stdout(&listing), "", "no session was created");
}

/// A title with an escape, a C1 control and a bidi override reached the terminal of whoever
/// ran `watch`; `--json` must still carry it exactly.
#[test]
fn watch_escapes_control_and_bidi_characters_in_titles_but_json_keeps_them() {
    let server = TestServer::start();
    let title = "ab\u{202E}cd\u{9b}2J";
    let script = "sleep 1; printf '\\033]0;ab\\342\\200\\256cd\\302\\2332J\\007'; sleep 600";
    let watch = |json: bool| {
        let mut args = vec!["watch", "--until", "title_changed", "--timeout", "20"];
        if json {
            args.push("--json");
        }
        server
            .phux(&args)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (human, machine) = (watch(false), watch(true));
    // Both watches must be subscribed before the pane is born: a bounded wait.
    std::thread::sleep(Duration::from_millis(300));
    server.new_session("t", &["sh", "-c", script]);
    let human = human.wait_with_output().unwrap();
    let machine = machine.wait_with_output().unwrap();
    let human = stdout(&human);
    assert!(human.contains("title_changed"), "{human}");
    assert!(
        human.contains("<U+202E>") && human.contains("<U+009B>"),
        "{human}"
    );
    assert!(
        !human.contains('\u{202E}') && !human.contains('\u{9b}'),
        "{human}"
    );
    let line = stdout(&machine)
        .lines()
        .find(|l| l.contains("title_changed"))
        .map(str::to_owned)
        .unwrap();
    let event: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(event["title"], title, "{line}");
    wait_until("session listed", Duration::from_secs(5), || {
        !stdout(&server.run(&["ls"])).is_empty()
    });
}

/// `rec --from` of a cast 65535 wide aborted ("memory allocation of 2198956147200 bytes
/// failed", SIGABRT); 2000x1000 took 2.3 GB. The pixel size is checked before the canvas.
#[test]
fn rec_from_a_huge_cast_is_refused_before_the_canvas_is_allocated() {
    let dir = tempfile::tempdir().unwrap();
    for (cols, rows, ext) in [
        (65535, 65535, "gif"),
        (2000, 1000, "gif"),
        (2000, 1000, "png"),
    ] {
        let cast = dir.path().join(format!("{cols}x{rows}.cast"));
        std::fs::write(
            &cast,
            format!("{{\"version\":2,\"width\":{cols},\"height\":{rows}}}\n[0.1,\"o\",\"x\"]\n"),
        )
        .unwrap();
        let out = dir.path().join(format!("out.{ext}"));
        let output = phux_tests::run(&mut phux_tests::phux(&[
            "rec",
            "--from",
            cast.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--json",
        ]));
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        let line = error_line(&output);
        assert_eq!(line["error"]["code"], "encode_failed");
        let message = line["error"]["message"].as_str().unwrap();
        assert!(message.contains("px"), "{message}");
        assert!(
            line["remedy"].as_str().unwrap().contains("--scale"),
            "{line}"
        );
        assert!(!out.exists());
    }
}

/// An `attach_client` at 65535x65535 (a client from a huge terminal) made the pane
/// 65535x65534, past the cap; so did a `client_resize`. The client sees the capped grid.
#[test]
fn attach_and_client_resize_from_a_huge_terminal_give_the_capped_grid() {
    use phux_core::wire::{AttachClient, AttachOk, ClientResize, Done};
    let server = TestServer::start();
    let pane = server.new_session("huge", &["sleep", "600"]);
    let mut attached = Client::connect(&server.socket).unwrap();
    let ok = attached
        .request::<AttachOk>(ClientMessage::AttachClient(AttachClient {
            id: 0,
            session: Some("huge".into()),
            cols: 65535,
            rows: 65535,
        }))
        .unwrap();
    let mut wire = WireClient::connect(&server);
    // The pane gets the session's area less its own frame: 1000x999 at the cap.
    let at_cap = size_of(&mut wire, &pane);
    assert_eq!(at_cap.0, MAX_GRID_COLS);
    assert!(
        at_cap.1 <= MAX_GRID_ROWS && at_cap.1 > MAX_GRID_ROWS - 5,
        "{at_cap:?}"
    );
    let mut other = Client::connect(&server.socket).unwrap();
    other
        .request::<Done>(ClientMessage::ClientResize(ClientResize {
            id: 0,
            client: ok.client,
            key: ok.key.clone(),
            cols: 100,
            rows: 30,
            session: None,
        }))
        .unwrap();
    assert_eq!(
        size_of(&mut wire, &pane),
        (100, 30 - (MAX_GRID_ROWS - at_cap.1))
    );
    other
        .request::<Done>(ClientMessage::ClientResize(ClientResize {
            id: 0,
            client: ok.client,
            key: ok.key.clone(),
            cols: 65535,
            rows: 65535,
            session: None,
        }))
        .unwrap();
    assert_eq!(size_of(&mut wire, &pane), at_cap);
    // What the client draws from: the session's size is the capped one too.
    let state = other.state().unwrap();
    let session = state.sessions.iter().find(|s| s.name == "huge").unwrap();
    let size = session.window_size.unwrap();
    assert_eq!((size.cols, size.rows), (MAX_GRID_COLS, MAX_GRID_ROWS));
    drop(attached);
}

/// `rec --from --still` and `--frame N` replayed a 72-byte cast declaring a 65535x65535 grid
/// (past 4 GB) before the canvas size was checked; animations checked first. Run under a
/// 2 GB address-space limit, so a regression fails here instead of exhausting the machine.
#[test]
fn rec_from_still_checks_the_canvas_before_replaying_the_cast() {
    let dir = tempfile::tempdir().unwrap();
    let cast = dir.path().join("huge.cast");
    std::fs::write(
        &cast,
        "{\"version\":2,\"width\":65535,\"height\":65535}\n[0.1,\"o\",\"\\u001b[2J\"]\n",
    )
    .unwrap();
    let out = dir.path().join("still.png");
    for still in [&["--still"][..], &["--frame", "1"][..]] {
        let mut command = std::process::Command::new("sh");
        command
            .arg("-c")
            .arg("ulimit -v 2097152 && exec \"$0\" \"$@\"")
            .arg(phux_tests::phux_bin())
            .args(["rec", "--from", cast.to_str().unwrap(), "-o"])
            .arg(&out)
            .args(still)
            .arg("--json");
        let output = phux_tests::run_with_deadline(&mut command, Duration::from_secs(60));
        assert_eq!(
            output.status.code(),
            Some(1),
            "{still:?}: {}",
            stderr(&output)
        );
        let line = error_line(&output);
        assert_eq!(line["error"]["code"], "encode_failed", "{line}");
        let message = line["error"]["message"].as_str().unwrap();
        assert!(message.contains("px"), "{still:?}: {message}");
        assert!(!out.exists());
    }
}

fn add_tags(client: &mut Client, pane: PaneId, tags: Vec<String>) -> Result<TagsOk, ClientError> {
    client.request::<TagsOk>(ClientMessage::TagsAdd(Tags {
        id: 0,
        panes: vec![pane],
        tags,
    }))
}

/// 100,000 tags in one request held the registry lock for 27 s, and ~750,000 made every `ls`
/// and `status` fail `reply_too_large` until a restart: tags are capped per request, per pane
/// and in length, each refusal typed and changing nothing.
#[test]
fn tags_are_capped_per_request_and_per_pane_and_a_refusal_changes_nothing() {
    use phux_core::limits::{MAX_TAGS_PER_PANE, MAX_TAG_BYTES};
    let server = TestServer::start();
    let pane = server.new_session("tags", &["sleep", "600"]);
    let id = phux_tests::pane_id(&pane);
    let mut client = Client::connect(&server.socket).unwrap();
    // 100,000 tags are a request past what a tag request may carry (64 KiB): refused from
    // its length, before its body is read, and the connection with it.
    let many: Vec<String> = (0..100_000).map(|n| format!("t{n}")).collect();
    assert!(add_tags(&mut client, id, many).is_err());
    let mut client = Client::connect(&server.socket).unwrap();
    // Past the per-request count, within a small frame: the server's own refusal.
    let several: Vec<String> = (0..MAX_TAGS_PER_PANE + 1)
        .map(|n| format!("t{n}"))
        .collect();
    let refused = add_tags(&mut client, id, several).unwrap_err();
    assert_eq!(server_code(refused), ErrorCode::InvalidArgument);
    let long = vec!["x".repeat(MAX_TAG_BYTES + 1)];
    let refused = add_tags(&mut client, id, long).unwrap_err();
    assert_eq!(server_code(refused), ErrorCode::InvalidArgument);
    // Up to the cap, a request at a time; one more is refused whole.
    let first: Vec<String> = (0..MAX_TAGS_PER_PANE - 1)
        .map(|n| format!("a{n}"))
        .collect();
    let ok = add_tags(&mut client, id, first).unwrap();
    assert_eq!(ok.panes[0].tags.len(), MAX_TAGS_PER_PANE - 1);
    let refused = add_tags(&mut client, id, vec!["b1".into(), "b2".into()]).unwrap_err();
    assert_eq!(server_code(refused), ErrorCode::InvalidArgument);
    // Tags already there, and repeats within a request, count once.
    let ok = add_tags(
        &mut client,
        id,
        vec!["a0".into(), "b1".into(), "#b1".into()],
    )
    .unwrap();
    assert_eq!(ok.panes[0].tags.len(), MAX_TAGS_PER_PANE);
    let output = server.run(&["tag", "add", &pane, "one-more", "--json"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert_eq!(error_line(&output)["error"]["code"], "invalid_argument");
    // What `ls` and `status` read is still within its limit.
    let listing = server.run(&["ls", "--json"]);
    assert!(listing.status.success(), "{}", stderr(&listing));
    let status = server.run(&["status", "--json"]);
    assert!(status.status.success(), "{}", stderr(&status));
}
