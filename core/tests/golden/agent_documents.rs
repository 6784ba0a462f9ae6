//! The agent documents (§4.7 and the agent verbs): their golden files under
//! `tests/golden/docs/`.

use super::*;

/// The contract's §4.7 example: a codex pane whose record declares no state, raised to
/// blocked by a live ask title.
fn ask_report() -> AgentPaneReport {
    use phux_core::agents::AgentRecord;
    AgentPaneReport {
        pane: PaneId(3),
        session: "work".into(),
        window: "window-0".into(),
        title: Some("phux-ask[deploy]:Approve deploy??s=Yes|No".into()),
        cwd: Some("/repo".into()),
        record: Some(AgentRecord {
            name: "codex".into(),
            kind: "codex".into(),
            state: None,
            attention: None,
            session: None,
            declared: false,
            state_source: None,
        }),
        semantic: None,
        plugin_report: None,
        state: Some(phux_core::agents::AgentState::Blocked),
        origin: Some(StateOrigin::TitleAsk),
        ask: Some(ActiveAsk {
            id: "deploy".into(),
            question: "Approve deploy".into(),
            suggestions: vec!["Yes".into(), "No".into()],
            from_title: true,
            from_screen: false,
            selected: None,
        }),
        occupant: None,
        detection: None,
        foreground: None,
    }
}

#[test]
fn agent_documents_match_their_golden_files() {
    use phux_core::agents::AgentState;
    let entry = AgentEntry::from_report(&ask_report());
    doc("agent_state", &AgentStateJson::new(vec![entry.clone()]));
    // Without the ask, a plugin's report decides, and is listed among the sources.
    let reported = AgentPaneReport {
        title: None,
        ask: None,
        plugin_report: Some(phux_core::agents::PluginReport {
            plugin: "com.example.tracker".into(),
            state: AgentState::Working,
        }),
        state: Some(AgentState::Working),
        origin: Some(StateOrigin::PluginReport),
        ..ask_report()
    };
    doc(
        "agent_state_plugin_report",
        &AgentStateJson::new(vec![AgentEntry::from_report(&reported)]),
    );
    doc(
        "agent_wait",
        &AgentWaitJson {
            schema_version: 1,
            terminal: TerminalAddr::local(PaneId(7)),
            satisfied: true,
            edge: Some(AgentEdge {
                from: AgentState::Working,
                to: AgentState::Idle,
                via: "push".into(),
            }),
            baseline: AgentState::Working,
            state: AgentState::Idle,
            agent: WaitAgent {
                name: "reviewer".into(),
                kind: "claude".into(),
                session: None,
            },
            observations: WaitObservations {
                edges: 1,
                pushes: 2,
                polls: 3,
            },
            detection: None,
        },
    );
    doc(
        "agent_wait_timeout",
        &AgentWaitJson {
            schema_version: 1,
            terminal: TerminalAddr::local(PaneId(7)),
            satisfied: false,
            edge: None,
            baseline: AgentState::Idle,
            state: AgentState::Idle,
            agent: WaitAgent {
                name: "reviewer".into(),
                kind: "claude".into(),
                session: Some("s-1".into()),
            },
            observations: WaitObservations::default(),
            detection: Some(entry),
        },
    );
}

#[test]
fn agent_input_documents_match_their_golden_files() {
    use phux_core::agents::AgentState;
    doc(
        "agent_send_keys",
        &AgentSendKeysJson {
            schema_version: 1,
            terminal: TerminalAddr::local(PaneId(7)),
            agent: InputAgent {
                name: "reviewer".into(),
                kind: "claude".into(),
            },
            keys: 2,
            verified: true,
            delivery: "ok".into(),
            operation_id: "00112233445566778899aabbccddeeff".into(),
            attempts: 1,
        },
    );
    doc(
        "agent_prompt",
        &AgentPromptJson {
            schema_version: 1,
            terminal: TerminalAddr::local(PaneId(7)),
            delivery: "ok".into(),
            operation_id: "00112233445566778899aabbccddeeff".into(),
            agent: PromptAgent {
                name: "reviewer".into(),
                kind: "claude".into(),
                state: AgentState::Idle,
                session: None,
            },
            pre_submit_state: AgentState::Idle,
            staleness_bound_ms: None,
            attempts: 1,
            submit_ms: 8,
            transition_observed: true,
            matched_by: Some("transition".into()),
            edge: Some(AgentEdge {
                from: AgentState::Working,
                to: AgentState::Idle,
                via: "push".into(),
            }),
            waited_ms: Some(1200),
            degraded_to_polling: false,
        },
    );
}

#[test]
fn agent_answer_document_matches_its_golden_file() {
    doc(
        "agent_answer",
        &AgentAnswerJson {
            schema_version: 1,
            terminal: TerminalAddr::local(PaneId(7)),
            ask: AnsweredAsk {
                id: "deploy".into(),
                question: "Deploy?".into(),
                suggestions: vec!["Yes".into(), "No".into()],
            },
            answer: "Yes".into(),
            source: "choice".into(),
            operation_id: "00112233445566778899aabbccddeeff".into(),
            delivered: true,
        },
    );
}

#[test]
fn agent_start_document_matches_its_golden_file() {
    doc(
        "agent_start",
        &AgentStartJson {
            schema_version: 1,
            terminal: TerminalAddr::local(PaneId(7)),
            name: "reviewer".into(),
            kind: "claude".into(),
            integration: None,
            started: true,
            ready: true,
            state: Some(phux_core::agents::AgentState::Idle),
            shell_check: "passed".into(),
            readiness: Some(StartReadiness {
                identity: "claude".into(),
                transition: "none -> idle".into(),
                detector: "screen".into(),
                latency_ms: 420,
                observations: 9,
            }),
        },
    );
}
