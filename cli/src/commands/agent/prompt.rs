//! `phux agent prompt TARGET TEXT [--expect-agent N] [--expect-kind K] [--wait [--until S]...
//! [--timeout SECS]] [--json]`: one line typed and submitted to an agent after the occupant
//! check, then optionally the `agent wait` edge rule, in one document. With `--wait` the wait
//! is subscribed before the line is typed, so the agent's first transition cannot be missed.

use std::time::{Duration, Instant};

use phux_core::agents::AgentState;
use phux_core::docs::{AgentPromptJson, PromptAgent};
use phux_core::error_code::ErrorCode;
use phux_core::exit_code::{SUCCESS, WAIT_TIMEOUT};
use phux_core::ids::TerminalAddr;

use crate::client::agent_wait::AgentWaitSession;
use crate::client::agents::verify_occupant;
use crate::client::pane::{operation_id, send_keys};
use crate::client::target;
use crate::commands::values::{connect, parse_seconds, resolve_agent_pane};
use crate::commands::Context;
use crate::failure::{conclude, Failure, VerbResult};
use crate::output;

/// Type one line into an agent and submit it, optionally waiting for its answer
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Refuse (agent_mismatch) unless the pane's agent record has this name
    #[arg(long, value_name = "N")]
    pub expect_agent: Option<String>,
    /// Refuse (agent_mismatch) unless the pane's agent record has this kind
    #[arg(long, value_name = "K")]
    pub expect_kind: Option<String>,
    /// After submitting, wait for a transition (see `agent wait`)
    #[arg(long)]
    pub wait: bool,
    /// A state to wait for; repeat for several [default: idle, blocked, done] (needs --wait)
    #[arg(long, value_name = "STATE", requires = "wait")]
    pub until: Vec<AgentState>,
    /// Give up waiting after SECS seconds and exit 124 (needs --wait) [default: never]
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, requires = "wait")]
    pub timeout: Option<Duration>,
    /// Print the prompt document (also on a wait timeout)
    #[arg(long)]
    pub json: bool,
    /// The pane
    #[arg(value_name = "TARGET")]
    pub target: String,
    /// The prompt: one line
    #[arg(value_name = "TEXT")]
    pub text: String,
}

pub fn run(args: Args, context: &Context) -> i32 {
    // A shared-resolver verb: a partial view keeps exit 1 (§5.2).
    conclude(
        args.json,
        execute(args, context).map_err(crate::failure::Failure::partial_view_exits_1),
    )
}

fn execute(args: Args, context: &Context) -> VerbResult {
    let json = args.json;
    let document = document(args, context)?;
    let pane = document.terminal.clone();
    if json {
        output::print_json(&document);
    }
    if timed_out(&document) {
        if !json {
            output::stderr_line(&format!(
                "phux: the prompt was delivered, but no wanted transition was observed on {pane} before the timeout"
            ));
        }
        return Ok(WAIT_TIMEOUT);
    }
    if let (false, Some(edge)) = (json, &document.edge) {
        output::print_line(&format!(
            "{pane}\t{}\t{} -> {}\tvia {}",
            document.agent.name, edge.from, edge.to, edge.via
        ));
    }
    Ok(SUCCESS)
}

/// Whether a `--wait` prompt saw no wanted transition before its timeout (exit 124).
pub fn timed_out(document: &AgentPromptJson) -> bool {
    document.waited_ms.is_some() && !document.transition_observed
}

/// Submits the prompt (and with `--wait` waits for the transition); returns what `--json`
/// prints, on a timeout too.
pub fn document(args: Args, context: &Context) -> Result<AgentPromptJson, Failure> {
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
