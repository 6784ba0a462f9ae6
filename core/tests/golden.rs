//! Pins every JSON document, every wire message's encoding, the error vocabulary and the
//! exit-code help text under `tests/golden/`. `PHUX_BLESS=1` rewrites them; any drift fails.

#![forbid(unsafe_code)]
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on the unexpected

use std::fmt::Write as _;
use std::path::PathBuf;

use phux_core::documents::*;
use phux_core::error_code::ErrorCode;
use phux_core::error_doc::ErrorDoc;
use phux_core::exit_code::EXIT_CODE_TABLE_HELP;
use phux_core::ids::{PaneId, SessionId, TerminalAddr};
use phux_core::split::SplitDirection;
use phux_core::wire::*;
use serde::de::DeserializeOwned;
use serde::Serialize;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/golden")
}

/// Compares `actual` with the golden file, or rewrites it under `PHUX_BLESS=1`.
#[track_caller]
fn check(rel: &str, actual: &str) {
    phux_golden::check(&golden_dir().join(rel), actual);
}

/// A document: pinned as one line of JSON, and it must read back to the same value.
fn doc<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(name: &str, value: &T) {
    let json = serde_json::to_string(value).unwrap();
    check(&format!("docs/{name}.json"), &format!("{json}\n"));
    let back: T = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, value, "{name} does not round-trip");
}

fn hex_dump(bytes: &[u8]) -> String {
    let mut out = String::new();
    for (i, line) in bytes.chunks(16).enumerate() {
        write!(out, "{:08x} ", i * 16).unwrap();
        for b in line {
            write!(out, " {b:02x}").unwrap();
        }
        out.push('\n');
    }
    out
}

/// A wire message: its JSON payload and its whole frame as a hex dump; it must decode back.
fn wire<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(name: &str, message: &T) {
    let frame = Frame::json(message).unwrap();
    let Frame::Json(json) = &frame else {
        unreachable!()
    };
    check(
        &format!("wire/{name}.json"),
        &format!("{}\n", String::from_utf8(json.clone()).unwrap()),
    );
    let bytes = frame.encode().unwrap();
    check(&format!("wire/{name}.hex"), &hex_dump(&bytes));
    let back: T = FrameReader::new(bytes.as_slice()).read_message().unwrap();
    assert_eq!(&back, message, "{name} does not round-trip");
}

fn style(bold: bool, fg: CellColor, bg: CellColor) -> CellStyle {
    CellStyle {
        bold,
        fg,
        bg,
        ..CellStyle::default()
    }
}

fn screen_plain() -> ScreenState {
    let mut s = ScreenState::new(
        PaneId(3),
        20,
        3,
        vec!["$ ls".into(), "a  b".into(), "$".into()],
    );
    s.cursor = Some(Cursor {
        x: 2,
        y: 2,
        visible: true,
    });
    s
}

fn screen_full() -> ScreenState {
    let mut s = screen_plain();
    s.scrollback = vec!["old line".into(), "a very long line that".into()];
    s.soft_wrap = Some(SoftWrap {
        lines: vec![],
        scrollback: vec![1],
    });
    s.cells = Some(vec![
        CellInfo {
            col: 0,
            row: 0,
            semantic: Some(Semantic::Prompt),
            style: style(true, CellColor::Palette { index: 2 }, CellColor::Default),
        },
        CellInfo {
            col: 2,
            row: 0,
            semantic: Some(Semantic::Input),
            style: style(
                false,
                CellColor::Rgb {
                    r: 255,
                    g: 128,
                    b: 0,
                },
                CellColor::Palette { index: 0 },
            ),
        },
        CellInfo {
            col: 0,
            row: 1,
            semantic: None,
            style: CellStyle {
                underline: true,
                inverse: true,
                ..CellStyle::default()
            },
        },
    ]);
    s.truncated = true;
    s.truncated_reason = Some("row_window".into());
    s.title = Some("vim notes.txt".into());
    s.ask = Some(phux_core::state_view::PendingAsk {
        pane: PaneId(3),
        id: "save".into(),
        question: "Save changes?".into(),
        suggestions: vec!["y".into(), "n".into()],
        source: "title".into(),
    });
    s
}

#[path = "golden/wire_fixtures.rs"]
mod wire_fixtures;

#[path = "golden/config_fixtures.rs"]
mod config_fixtures;

/// The config, plugin, workspace, launch and doctor documents.
#[test]
fn config_and_plugin_documents_are_pinned() {
    for (name, json) in config_fixtures::documents() {
        check(&format!("docs/{name}.json"), &format!("{json}\n"));
    }
}
use wire_fixtures::{client_messages, server_messages};

#[test]
fn documents_are_pinned() {
    doc("screen_state_plain", &screen_plain());
    doc("screen_state_cells", &screen_full());
    let mut no_cursor = screen_plain();
    no_cursor.cursor = None;
    doc("screen_state_no_cursor", &no_cursor);
    doc(
        "run_result",
        &RunResult {
            command: "cargo test".into(),
            exit_code: 0,
            output: "ok\n".into(),
            duration_ms: 8123,
            truncated: false,
            mark: None,
            output_file: None,
        },
    );
    doc(
        "session_list",
        &SessionListJson::new(
            vec![
                SessionEntry::new("work", 3, 2),
                SessionEntry::new("build", 1, 0),
            ],
            vec![
                TerminalAddr::local(PaneId(3)),
                TerminalAddr::remote("devbox", PaneId(7)),
            ],
            vec![],
        ),
    );
    doc(
        "session_list_unreachable",
        &SessionListJson::new(
            vec![],
            vec![],
            vec!["satellite build-box is unreachable: link is down".into()],
        ),
    );
    host_documents();
    doc("new", &NewJson::new("NAME", PaneId(2)));
    doc("spawn_local", &SpawnJson::local(PaneId(7)));
    doc(
        "spawn_satellite",
        &SpawnJson {
            satellite: Some("devbox".into()),
            ..SpawnJson::local(PaneId(7))
        },
    );
    doc(
        "spatial_insert",
        &SpatialEditJson::new(SpatialEdit::Insert {
            session_id: SessionId(3),
            target_terminal_id: PaneId(7),
            new_terminal_id: PaneId(9),
            direction: SplitDirection::Vertical,
            ratio: 0.3,
        }),
    );
    doc(
        "spatial_move",
        &SpatialEditJson::moved(
            SessionId(3),
            PaneId(9),
            PaneId(7),
            SplitDirection::Horizontal,
            0.5,
            None,
        ),
    );
    doc(
        "spatial_move_cross_session",
        &SpatialEditJson::moved(
            SessionId(3),
            PaneId(9),
            PaneId(7),
            SplitDirection::Horizontal,
            0.5,
            Some(SessionId(1)),
        ),
    );
    doc(
        "spatial_swap",
        &SpatialEditJson::new(SpatialEdit::Swap {
            session_id: SessionId(3),
            first_terminal_id: PaneId(7),
            second_terminal_id: PaneId(9),
        }),
    );
    doc(
        "rec",
        &RecJson {
            schema_version: 1,
            path: "demo.gif".into(),
            format: RecFormat::Gif,
            bytes: 188742,
            duration_ms: 42130,
            frames: 211,
            cols: 120,
            rows: 34,
            truncated: false,
            exit_status: None,
            played_ms: Some(45130),
        },
    );
    doc(
        "rec_command_failed",
        &RecJson {
            schema_version: 1,
            path: "build.cast".into(),
            format: RecFormat::Cast,
            bytes: 5120,
            duration_ms: 2300,
            frames: 48,
            cols: 80,
            rows: 24,
            truncated: false,
            exit_status: Some(2),
            played_ms: None,
        },
    );
    doc(
        "resize_held",
        &ResizeJson::new(
            PaneId(7),
            GridSize {
                cols: 120,
                rows: 40,
            },
            GridSize {
                cols: 120,
                rows: 40,
            },
        ),
    );
    doc(
        "resize_not_held",
        &ResizeJson::new(
            PaneId(7),
            GridSize {
                cols: 120,
                rows: 40,
            },
            GridSize {
                cols: 100,
                rows: 40,
            },
        ),
    );
    doc(
        "play",
        &PlayJson {
            schema_version: 1,
            terminal_id: PaneId(7),
            path: "/home/me/demo.cast".into(),
            cols: 80,
            rows: 24,
            events: 63,
            speed: 1.0,
            idle_limit: Some(2.0),
            duration_ms: Some(17198),
            passes: Some(1),
            satellite: None,
        },
    );
    doc(
        "play_forever",
        &PlayJson {
            schema_version: 1,
            terminal_id: PaneId(7),
            path: "/home/me/demo.cast".into(),
            cols: 80,
            rows: 24,
            events: 63,
            speed: 2.5,
            idle_limit: None,
            duration_ms: None,
            passes: None,
            satellite: None,
        },
    );
    doc(
        "tag",
        &TagJson::new(vec![
            TagRow {
                terminal: TerminalAddr::local(PaneId(7)),
                tags: vec!["build".into(), "ci".into()],
            },
            TagRow {
                terminal: TerminalAddr::remote("edge", PaneId(3)),
                tags: vec![],
            },
        ]),
    );
    doc(
        "status_running",
        &StatusJson {
            schema_version: 1,
            running: true,
            pid: Some(4242),
            socket: "/run/user/1000/phux/phux.sock".into(),
            since_unix_secs: Some(1_700_000_000),
            protocol: Some(StatusProtocol {
                major: 1,
                minor: 0,
                patch: 0,
            }),
            clients: 1,
            sessions: vec![StatusSession {
                name: "work".into(),
                windows: 2,
                attached_clients: 1,
            }],
            satellite_terminals: vec![],
            unreachable: vec![],
            logs: StatusLogs {
                server: Some("/home/me/.local/state/phux/server.log".into()),
                client_dir: Some("/home/me/.local/state/phux".into()),
            },
            exited: vec![],
            asks: vec![phux_core::state_view::PendingAsk {
                pane: PaneId(3),
                id: "deploy".into(),
                question: "Deploy to prod?".into(),
                suggestions: vec!["yes".into(), "no".into()],
                source: "report".into(),
            }],
            leases: vec![phux_core::state_view::PaneLease {
                terminal: phux_core::ids::TerminalAddr::local(PaneId(3)),
                lease: phux_core::state_view::LeaseView {
                    holder: "alice".into(),
                    since: 1_764_000_000,
                    expires: None,
                },
            }],
            unplaced: vec![],
            listener: Some(phux_core::wire::ListenerView {
                addr: "127.0.0.1:8787".into(),
                fingerprint: "3F:A2:00:17:5B:C4:9E:01".into(),
                admitted: 1,
            }),
        },
    );
    doc(
        "status_not_running",
        &StatusJson::not_running("/tmp/phux-1000/phux.sock", StatusLogs::default()),
    );
    doc(
        "ask",
        &AskJson::new(
            TerminalAddr::local(PaneId(7)),
            "deploy",
            "Approve deploy?",
            vec!["Yes".into(), "No".into()],
            Some(12),
        ),
    );
    for (name, doc) in [
        (
            "no_server",
            ErrorDoc::new(
                ErrorCode::NoServer,
                "no server running at /run/phux.sock",
                "start one with `phux server`",
            )
            .unwrap(),
        ),
        (
            "partial_view_status_1",
            ErrorDoc::new(
                ErrorCode::PartialView,
                "cannot answer for @9: satellite devbox unreachable",
                "retry once the satellite is reachable",
            )
            .unwrap()
            .with_exit_code(1),
        ),
    ] {
        check(
            &format!("docs/error_{name}.json"),
            &format!("{}\n", doc.render()),
        );
        assert_eq!(
            serde_json::from_str::<ErrorDoc>(&doc.render()).unwrap(),
            doc
        );
    }
}

fn watch_events() -> Vec<(&'static str, WatchEvent)> {
    let at = |kind| WatchEvent {
        terminal: Some(TerminalAddr::local(PaneId(7))),
        kind,
        t: None,
        ts: None,
    };
    vec![
        ("bell", at(WatchEventKind::Bell)),
        (
            "title_changed",
            at(WatchEventKind::TitleChanged {
                title: "vim".into(),
            }),
        ),
        ("command_started", at(WatchEventKind::CommandStarted)),
        (
            "command_finished",
            at(WatchEventKind::CommandFinished { exit_code: Some(2) }),
        ),
        (
            "command_finished_unknown",
            at(WatchEventKind::CommandFinished { exit_code: None }),
        ),
        ("dirty", at(WatchEventKind::Dirty)),
        ("idle", at(WatchEventKind::Idle)),
        ("pane_spawned", at(WatchEventKind::PaneSpawned)),
        (
            "pane_closed",
            at(WatchEventKind::PaneClosed {
                exit_status: Some(0),
            }),
        ),
        (
            "cwd_changed",
            at(WatchEventKind::CwdChanged {
                cwd: "/repo".into(),
            }),
        ),
        (
            "asked",
            at(WatchEventKind::Asked {
                id: "deploy".into(),
                question: "Approve?".into(),
                suggestions: vec!["Yes".into(), "No".into()],
                elapsed_seconds: None,
                source: None,
            }),
        ),
        (
            "server_scope",
            WatchEvent {
                terminal: None,
                kind: WatchEventKind::PaneSpawned,
                t: None,
                ts: None,
            },
        ),
        (
            "resized_with_times",
            WatchEvent {
                terminal: Some(TerminalAddr::local(PaneId(7))),
                kind: WatchEventKind::Resized {
                    cols: 100,
                    rows: 30,
                },
                t: Some(1.25),
                ts: Some(1_764_500_000.5),
            },
        ),
    ]
}

/// §4.10: `host ls/add/enroll/rm --json`.
fn host_documents() {
    use phux_core::documents::host::{HostJson, HostListJson, HostRemovedJson};
    use phux_core::hosts::{HostEntry, HostRole};
    let satellite = HostEntry {
        name: "devbox".into(),
        role: HostRole::Satellite,
        endpoint: "ssh://devbox".into(),
        enabled: Some(true),
        token_file: None,
        cert_fingerprint: None,
        session: None,
    };
    let remote = HostEntry {
        name: "box".into(),
        role: HostRole::Remote,
        endpoint: "ssh://me@box:2222".into(),
        enabled: None,
        token_file: None,
        cert_fingerprint: None,
        session: Some("work".into()),
    };
    doc(
        "host_ls",
        &HostListJson::new(vec![satellite.clone(), remote]),
    );
    doc("host_add", &HostJson::new(satellite));
    doc(
        "host_rm",
        &HostRemovedJson::new("devbox".into(), HostRole::Satellite),
    );
}

#[test]
fn watch_lines_are_pinned() {
    let mut ndjson = String::new();
    for (name, event) in watch_events() {
        let line = serde_json::to_string(&event).unwrap();
        assert!(
            !line.contains("schema_version"),
            "{name}: watch lines are unversioned"
        );
        assert_eq!(
            serde_json::from_str::<WatchEvent>(&line).unwrap(),
            event,
            "{name}"
        );
        ndjson.push_str(&line);
        ndjson.push('\n');
    }
    check("docs/watch_events.ndjson", &ndjson);
}

#[test]
fn wire_messages_are_pinned() {
    for (name, message) in client_messages() {
        wire(&format!("client/{name}"), &message);
    }
    for (name, message) in server_messages() {
        wire(&format!("server/{name}"), &message);
    }
}

#[test]
fn output_chunk_frame_is_pinned() {
    let frame = Frame::Output(OutputChunk {
        pane: 3,
        seq: 42,
        t_ns: 1_000_000_007,
        bytes: b"hi\x1b[0m\r\n".to_vec(),
    });
    let bytes = frame.encode().unwrap();
    check("wire/output_chunk.hex", &hex_dump(&bytes));
    assert_eq!(
        FrameReader::new(bytes.as_slice()).read_frame().unwrap(),
        frame
    );
}

#[test]
fn vocabulary_and_help_are_pinned() {
    let mut table = String::new();
    for code in ErrorCode::ALL {
        writeln!(table, "{} {}", code.as_str(), code.default_exit_code()).unwrap();
    }
    check("error_codes.txt", &table);
    check("help/exit_codes.txt", EXIT_CODE_TABLE_HELP);
    let names: Vec<&str> = WatchEventName::ALL.iter().map(|n| n.as_str()).collect();
    check("watch_event_names.txt", &format!("{}\n", names.join("\n")));
}

#[path = "golden/agent_documents.rs"]
mod agent_documents;
