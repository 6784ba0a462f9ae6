//! The wire messages pinned by `golden.rs`: one of every client and server message.

use phux_core::documents::WatchEventKind;
use phux_core::error_code::ErrorCode;
use phux_core::ids::{PaneId, SessionId, WindowId};
use phux_core::keys::InputAction;
use phux_core::split::SplitDirection;
use phux_core::state_view::{PaneView, SessionView, StateView, WindowView};
use phux_core::wire::*;

use super::screen_plain;

fn state() -> StateView {
    StateView {
        sessions: vec![SessionView {
            id: SessionId(1),
            name: "work".into(),
            attached_clients: 0,
            window_size: None,
            unplaced: Vec::new(),
            windows: vec![WindowView {
                id: WindowId(1),
                index: 0,
                name: "editor".into(),
                panes: vec![PaneView {
                    id: PaneId(3),
                    tags: vec!["build".into()],
                    title: Some("vim".into()),
                    cols: 80,
                    rows: 24,
                    recording: false,
                    lease: None,
                }],
                layout: None,
            }],
        }],
        focus_order: vec![PaneId(3)],
        unreachable: vec![],
        exited: vec![],
        asks: vec![phux_core::state_view::PendingAsk {
            pane: PaneId(3),
            id: "deploy".into(),
            question: "Deploy to prod?".into(),
            suggestions: vec!["yes".into(), "no".into()],
            source: "report".into(),
        }],
        satellites: vec![],
    }
}

pub fn client_messages() -> Vec<(&'static str, ClientMessage)> {
    use ClientMessage as C;
    vec![
        (
            "hello",
            C::Hello(Hello {
                protocol: PROTOCOL,
                client: "phux-cli 0.1.0".into(),
                read_only: false,
            }),
        ),
        ("get_state", C::GetState(IdOnly { id: 1 })),
        ("get_fleet", C::GetFleet(IdOnly { id: 1 })),
        (
            "tunnel",
            C::Tunnel(phux_core::wire::Tunnel {
                id: 1,
                satellite: "devbox".into(),
            }),
        ),
        ("status", C::Status(IdOnly { id: 2 })),
        (
            "new_session",
            C::NewSession(NewSession {
                id: 3,
                name: Some("work".into()),
                cwd: Some("/repo".into()),
                env: vec![("K".into(), "a=b".into())],
                command: Some(vec!["sh".into(), "-c".into(), "echo hi".into()]),
                cols: Some(120),
                rows: Some(40),
                observe: false,
                history_limit: None,
            }),
        ),
        (
            "new_session_minimal",
            C::NewSession(NewSession {
                id: 4,
                name: None,
                cwd: None,
                env: vec![],
                command: None,
                cols: None,
                rows: None,
                observe: false,
                history_limit: None,
            }),
        ),
        (
            "new_session_observed",
            C::NewSession(NewSession {
                id: 4,
                name: Some("rec-42".into()),
                cwd: None,
                env: vec![],
                command: Some(vec!["true".into()]),
                cols: Some(80),
                rows: Some(24),
                observe: true,
                history_limit: None,
            }),
        ),
        (
            "spawn_pane",
            C::Spawn(Spawn {
                id: 5,
                target: Some(SpawnTarget::Pane(PaneId(3))),
                split: SplitDirection::Vertical,
                ratio: 0.3,
                cwd: None,
                command: None,
                env: vec![],
                cols: None,
                rows: None,
                detached: false,
                unplaced: false,
            }),
        ),
        (
            "spawn_session",
            C::Spawn(Spawn {
                id: 6,
                target: Some(SpawnTarget::Session("work".into())),
                split: SplitDirection::Horizontal,
                ratio: 0.5,
                cwd: Some("/tmp".into()),
                command: Some(vec!["htop".into()]),
                env: vec![],
                cols: Some(80),
                rows: Some(24),
                detached: true,
                unplaced: false,
            }),
        ),
        (
            "kill",
            C::Kill(Kill {
                id: 7,
                panes: vec![PaneId(3), PaneId(4)],
            }),
        ),
        (
            "kill_window",
            C::KillWindow(KillWindow {
                id: 8,
                window: WindowId(2),
            }),
        ),
        (
            "kill_session",
            C::KillSession(KillSession {
                id: 9,
                session: "work".into(),
            }),
        ),
        ("kill_server", C::KillServer(IdOnly { id: 10 })),
        ("upgrade", C::Upgrade(IdOnly { id: 10 })),
        (
            "rename_session",
            C::RenameSession(RenameSession {
                id: 11,
                from: "work".into(),
                to: "play".into(),
            }),
        ),
        (
            "resize",
            C::Resize(Resize {
                id: 12,
                pane: PaneId(3),
                cols: 120,
                rows: 40,
            }),
        ),
        (
            "signal",
            C::Signal(Signal {
                id: 13,
                pane: PaneId(3),
                signal: SignalName::Interrupt,
            }),
        ),
        (
            "tags_get",
            C::TagsGet(Tags {
                id: 14,
                panes: vec![PaneId(3)],
                tags: vec![],
            }),
        ),
        (
            "tags_add",
            C::TagsAdd(Tags {
                id: 15,
                panes: vec![PaneId(3)],
                tags: vec!["build".into()],
            }),
        ),
        (
            "tags_remove",
            C::TagsRemove(Tags {
                id: 16,
                panes: vec![PaneId(3)],
                tags: vec!["build".into()],
            }),
        ),
        (
            "input",
            C::Input(Input {
                id: 17,
                pane: PaneId(3),
                actions: vec![
                    InputAction::Paste("cargo test".into()),
                    InputAction::Bytes(b"\r".to_vec()),
                ],
                keys: vec![],
                operation_id: None,
                actor: None,
                retry: false,
            }),
        ),
        (
            "input_keys",
            C::Input(Input {
                id: 18,
                pane: PaneId(3),
                actions: vec![],
                keys: vec!["Up".into(), "echo hi".into(), "Enter".into()],
                operation_id: Some("5f0c2a9e41b7d3806e1f4c2b9a7d5e30".into()),
                actor: None,
                retry: false,
            }),
        ),
        (
            "paste",
            C::Paste(Paste {
                id: 18,
                pane: PaneId(3),
                text: "line 1\nline 2".into(),
                operation_id: Some("0a1b2c3d4e5f60718293a4b5c6d7e8f9".into()),
                actor: None,
                retry: true,
            }),
        ),
        (
            "get_screen",
            C::GetScreen(GetScreen {
                id: 19,
                pane: PaneId(3),
                scrollback: Some(0),
                cells: true,
            }),
        ),
        (
            "get_screen_viewport",
            C::GetScreen(GetScreen {
                id: 20,
                pane: PaneId(3),
                scrollback: None,
                cells: false,
            }),
        ),
        (
            "subscribe",
            C::Subscribe(Subscribe {
                id: 21,
                pane: Some(PaneId(3)),
                events: vec!["bell".into(), "idle".into()],
                since_ms: None,
                after_ns: None,
            }),
        ),
        (
            "subscribe_since",
            C::Subscribe(Subscribe {
                id: 21,
                pane: None,
                events: vec!["asked".into(), "pane_closed".into()],
                since_ms: Some(120_000),
                after_ns: None,
            }),
        ),
        (
            "tap_input",
            C::TapInput(TapInput {
                id: 23,
                pane: PaneId(3),
            }),
        ),
        (
            "observe",
            C::Observe(Observe {
                id: 22,
                pane: PaneId(3),
                since_ms: Some(60_000),
                viewer: false,
                history_rows: None,
            }),
        ),
        (
            "insert_pane",
            C::InsertPane(InsertPane {
                id: 23,
                target: PaneId(3),
                new_pane: PaneId(9),
                split: SplitDirection::Vertical,
                ratio: 0.3,
            }),
        ),
        (
            "move_pane",
            C::MovePane(MovePane {
                id: 24,
                source: PaneId(9),
                target: PaneId(3),
                split: SplitDirection::Horizontal,
                ratio: 0.5,
            }),
        ),
        (
            "swap_pane",
            C::SwapPane(SwapPane {
                id: 25,
                first: PaneId(3),
                second: PaneId(9),
            }),
        ),
        (
            "report_asked",
            C::ReportAsked(ReportAsked {
                id: 26,
                pane: PaneId(3),
                ask_id: "deploy".into(),
                question: "Approve deploy?".into(),
                suggestions: vec!["Yes".into(), "No".into()],
                elapsed_seconds: Some(5),
            }),
        ),
        (
            "ask_answered",
            C::AskAnswered(AskAnswered {
                id: 26,
                pane: PaneId(3),
                ask_id: "deploy".into(),
            }),
        ),
        (
            "shell_state",
            C::ShellState(ShellState {
                id: 27,
                pane: PaneId(3),
                output_after: Some(4),
                since_mark: None,
            }),
        ),
        (
            "shell_state_since_mark",
            C::ShellState(ShellState {
                id: 28,
                pane: PaneId(3),
                output_after: None,
                since_mark: Some(120),
            }),
        ),
        (
            "claim_run",
            C::ClaimRun(ClaimRun {
                id: 29,
                pane: PaneId(3),
                command: "make test".into(),
            }),
        ),
        (
            "lease_take",
            C::Lease(Lease {
                id: 31,
                pane: PaneId(3),
                take: true,
                holder: "alice".into(),
                seize: false,
                ttl_secs: Some(600),
                with_connection: false,
                holder_process: None,
            }),
        ),
        (
            "release_run",
            C::ReleaseRun(ReleaseRun {
                id: 30,
                pane: PaneId(3),
            }),
        ),
        (
            "attach_client",
            C::AttachClient(AttachClient {
                id: 27,
                session: Some("work".into()),
                cols: 120,
                rows: 39,
            }),
        ),
        (
            "client_resize",
            C::ClientResize(ClientResize {
                id: 28,
                client: 1,
                key: "5f0c2a9e7b1d4c3a8e6f0b2d9c7a1e4f".into(),
                cols: 100,
                rows: 29,
                session: None,
            }),
        ),
        (
            "detach_clients",
            C::DetachClients(DetachClients {
                id: 29,
                session: Some("work".into()),
            }),
        ),
        (
            "select_pane",
            C::SelectPane(SelectPane {
                id: 30,
                pane: PaneId(4),
            }),
        ),
        (
            "new_window",
            C::NewWindow(NewWindow {
                id: 31,
                session: "work".into(),
                cwd: None,
                command: None,
                cols: Some(120),
                rows: Some(38),
            }),
        ),
        (
            "rename_window",
            C::RenameWindow(RenameWindow {
                id: 32,
                window: WindowId(2),
                name: "logs".into(),
            }),
        ),
        (
            "set_split_ratio",
            C::SetSplitRatio(SetSplitRatio {
                id: 33,
                pane: PaneId(4),
                split: SplitDirection::Vertical,
                ratio: 0.25,
                path: None,
            }),
        ),
        (
            "remote_connections",
            C::RemoteConnections(IdOnly { id: 34 }),
        ),
        (
            "remote_disconnect",
            C::RemoteDisconnect(RemoteDisconnect {
                id: 35,
                credential_id: "0123456789abcdef0123456789abcdef".into(),
            }),
        ),
        (
            "listen",
            C::Listen(Listen {
                id: 36,
                addr: "127.0.0.1:8787".into(),
            }),
        ),
    ]
}

pub fn server_messages() -> Vec<(&'static str, ServerMessage)> {
    use ServerMessage as S;
    vec![
        (
            "welcome",
            S::Welcome(Welcome {
                protocol: PROTOCOL,
                server_version: "0.1.0".into(),
                pid: 4242,
                instance: 7,
                read_only: false,
            }),
        ),
        (
            "refused",
            S::Refused(Refused {
                reason: "protocol major version mismatch".into(),
            }),
        ),
        (
            "response_state",
            S::Response(Response::ok(1, &state()).unwrap()),
        ),
        (
            "response_screen",
            S::Response(Response::ok(19, &screen_plain()).unwrap()),
        ),
        (
            "response_done",
            S::Response(Response::ok(7, &Done {}).unwrap()),
        ),
        (
            "response_observe",
            S::Response(
                Response::ok(
                    22,
                    &ObserveStart {
                        pane: PaneId(3),
                        cols: 80,
                        rows: 24,
                        repaint_seq: 0,
                        live_seq: None,
                        start_unix_ns: None,
                    },
                )
                .unwrap(),
            ),
        ),
        (
            "response_tap_input",
            S::Response(
                Response::ok(
                    23,
                    &TapInputStart {
                        pane: PaneId(3),
                        cols: 80,
                        rows: 24,
                        now_ns: 1_000_000_000,
                    },
                )
                .unwrap(),
            ),
        ),
        (
            "response_error",
            S::Response(Response::error(
                12,
                WireErrorBody::new(
                    ErrorCode::NoSuchTarget,
                    "no such target: @99",
                    "list panes with `phux ls --json`",
                ),
            )),
        ),
        (
            "event",
            S::Event(Event {
                pane: Some(PaneId(3)),
                event: WatchEventKind::TitleChanged {
                    title: "vim".into(),
                },
                t_ns: 123_456_789,
                ts_ns: Some(1_764_500_000_123_456_789),
            }),
        ),
        (
            "event_server_scope",
            S::Event(Event {
                pane: None,
                event: WatchEventKind::PaneSpawned,
                t_ns: 5,
                ts_ns: None,
            }),
        ),
        (
            "input_tapped",
            S::InputTapped(InputTapped {
                pane: PaneId(3),
                t_ns: 1_500_000_000,
                bytes: b"ls\r".to_vec(),
                paste: None,
            }),
        ),
        (
            "input_tapped_paste",
            S::InputTapped(InputTapped {
                pane: PaneId(3),
                t_ns: 1_600_000_000,
                bytes: Vec::new(),
                paste: Some("echo \"pasted\"\n".into()),
            }),
        ),
        (
            "observer_lagged",
            S::ObserverLagged(ObserverLagged {
                pane: PaneId(3),
                dropped_bytes: 65536,
            }),
        ),
        (
            "resized",
            S::Resized(Resized {
                pane: PaneId(3),
                cols: 120,
                rows: 40,
                t_ns: 1_500_000_000,
            }),
        ),
        (
            "screen_changed",
            S::ScreenChanged(ScreenChanged { pane: PaneId(3) }),
        ),
        (
            "client_notice",
            S::ClientNotice(ClientNotice {
                notice: ClientNoticeKind::Detach,
            }),
        ),
    ]
}
