//! `agent prompt`'s operation: one line typed and submitted to an agent after the occupant
//! check, then optionally the `agent wait` edge rule, in one document. With `wait` the wait is
//! subscribed before the line is typed, so the agent's first transition cannot be missed.

use std::time::{Duration, Instant};

use phux_core::agents::AgentState;
use phux_core::documents::{AgentPromptJson, PromptAgent};
use phux_core::error_code::ErrorCode;
use phux_core::ids::TerminalAddr;

use crate::agent_wait::AgentWaitSession;
use crate::agents::verify_occupant;
use crate::failure::Failure;
use crate::pane::{operation_id, send_keys};
use crate::target;
use crate::values::{connect, resolve_agent_pane};
use crate::Context;

/// Type one line into an agent and submit it, optionally waiting for its answer
#[derive(Debug, Clone)]
pub struct PromptOptions {
    /// Refuse (agent_mismatch) unless the pane's agent record has this name
    pub expect_agent: Option<String>,
    /// Refuse (agent_mismatch) unless the pane's agent record has this kind
    pub expect_kind: Option<String>,
    /// After submitting, wait for a transition (see `agent wait`)
    pub wait: bool,
    /// A state to wait for; repeat for several [default: idle, blocked, done] (needs --wait)
    pub until: Vec<AgentState>,
    /// Give up waiting after SECS seconds and exit 124 (needs --wait) [default: never]
    pub timeout: Option<Duration>,
    /// The pane
    pub target: String,
    /// The prompt: one line
    pub text: String,
}

/// Whether a `--wait` prompt saw no wanted transition before its timeout (exit 124).
pub fn timed_out(document: &AgentPromptJson) -> bool {
    document.waited_ms.is_some() && !document.transition_observed
}

/// Submits the prompt (and with `--wait` waits for the transition); returns what `--json`
/// prints, on a timeout too.
pub fn document(args: PromptOptions, context: &Context) -> Result<AgentPromptJson, Failure> {
    if args.text.contains(['\n', '\r']) {
        return Err(Failure::new(
            ErrorCode::InvalidInputBatch,
            "a prompt is one line; this text has a line break, so nothing was typed",
            "use `phux paste` then `phux send-keys TARGET Enter` for a block",
        ));
    }
    let selector = target::parse(&args.target)?;
    let mut client = connect(context)?;
    let pane = resolve_agent_pane(&mut client, &selector, "agent prompt")?;
    let (report, record, _) = verify_occupant(
        &mut client,
        pane,
        args.expect_agent.as_deref(),
        args.expect_kind.as_deref(),
    )?;
    let pre_submit_state = report.state.unwrap_or(AgentState::Unknown);
    let wanted = if args.until.is_empty() {
        vec![AgentState::Idle, AgentState::Blocked, AgentState::Done]
    } else {
        args.until
    };
    let session = if args.wait {
        Some(AgentWaitSession::open(
            &mut client,
            &context.socket,
            pane,
            wanted,
        )?)
    } else {
        None
    };
    let started = Instant::now();
    let operation = operation_id();
    send_keys(
        &mut client,
        pane,
        vec![args.text, "Enter".into()],
        &operation,
    )?;
    let submit_ms = elapsed_ms(started);
    let waited = match session {
        Some(session) => {
            let begun = Instant::now();
            let document = session.run(&mut client, args.timeout)?;
            Some((document, elapsed_ms(begun)))
        }
        None => None,
    };
    let edge = waited.as_ref().and_then(|(d, _)| d.edge.clone());
    let state = waited.as_ref().map_or(pre_submit_state, |(d, _)| d.state);
    let document = AgentPromptJson {
        schema_version: 1,
        terminal: TerminalAddr::local(pane),
        delivery: "ok".into(),
        operation_id: operation,
        agent: PromptAgent {
            name: record.name,
            kind: record.kind,
            state,
            session: record.session,
        },
        pre_submit_state,
        staleness_bound_ms: None,
        attempts: 1,
        submit_ms,
        transition_observed: edge.is_some(),
        matched_by: edge.as_ref().map(|_| "transition".to_owned()),
        degraded_to_polling: edge.as_ref().is_some_and(|e| e.via == "poll"),
        waited_ms: waited.as_ref().map(|(_, ms)| *ms),
        edge,
    };
    Ok(document)
}

fn elapsed_ms(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}
