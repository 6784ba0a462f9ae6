//! `agent wait`: the edge rule. The wait is satisfied only by an observed transition into a
//! wanted state, never by the level it finds (that is recorded as `baseline`, not evaluated).
//! Transitions arrive as pushed `agent_state` events; a re-read every `POLL_FLOOR` recovers an
//! edge the push half never delivered. The record going away, or its state withdrawing to
//! unknown, is a departure, never a completion.

use std::path::Path;
use std::time::{Duration, Instant};

use phux_core::agents::AgentState;
use phux_core::documents::{
    AgentEdge, AgentEntry, AgentWaitJson, WaitAgent, WaitObservations, WatchEventKind,
};
use phux_core::error_code::ErrorCode;
use phux_core::error_doc::ContractError;
use phux_core::ids::{PaneId, TerminalAddr};
use phux_core::wire::{AgentPaneReport, Event, ServerMessage};

use crate::agents::inspect;
use crate::connection::Client;
use crate::error::ClientError;
use crate::stop::Stop;
use crate::Pushed;

/// How often the wait re-reads the record in case a push was lost.
pub const POLL_FLOOR: Duration = Duration::from_secs(1);

/// Why a wait ended without a document.
#[derive(Debug, thiserror::Error)]
pub enum AgentWaitError {
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error("{0} has no phux.agent/v1 record, so there is no lifecycle to wait on")]
    NoRecord(PaneId),
    #[error("the agent in {pane} departed mid-wait ({why}); a departure is not a completion")]
    Departed { pane: PaneId, why: String },
}

impl ContractError for AgentWaitError {
    fn code(&self) -> ErrorCode {
        match self {
            AgentWaitError::Client(e) => e.code(),
            AgentWaitError::NoRecord(_) => ErrorCode::NoAgentRecord,
            AgentWaitError::Departed { .. } => ErrorCode::AgentDeparted,
        }
    }

    fn remedy(&self) -> String {
        match self {
            AgentWaitError::Client(e) => e.remedy(),
            AgentWaitError::NoRecord(pane) => format!(
                "declare one with `phux agent set {pane} --name NAME`, or start a recognised agent (claude, codex, opencode, pi, omp) in the pane"
            ),
            AgentWaitError::Departed { pane, .. } => format!(
                "see what is in the pane now with `phux agent show {pane}` and `phux snapshot {pane}`"
            ),
        }
    }

    fn exit_code(&self) -> i32 {
        match self {
            AgentWaitError::Client(e) => e.exit_code(),
            _ => self.code().default_exit_code(),
        }
    }
}

struct Watch {
    pane: PaneId,
    wanted: Vec<AgentState>,
    last: AgentState,
    agent: WaitAgent,
    observations: WaitObservations,
}

impl Watch {
    /// Takes a newly observed level; `Some(edge)` when it satisfies the wait.
    fn observe(
        &mut self,
        state: Option<AgentState>,
        via: &str,
    ) -> Result<Option<AgentEdge>, AgentWaitError> {
        let Some(state) = state else {
            return Err(AgentWaitError::Departed {
                pane: self.pane,
                why: "its record was deleted".into(),
            });
        };
        if state == AgentState::Unknown && self.last != AgentState::Unknown {
            return Err(AgentWaitError::Departed {
                pane: self.pane,
                why: "its state withdrew to unknown".into(),
            });
        }
        if state == self.last {
            return Ok(None);
        }
        self.observations.edges += 1;
        let edge = AgentEdge {
            from: self.last,
            to: state,
            via: via.to_owned(),
        };
        self.last = state;
        Ok(self.wanted.contains(&state).then_some(edge))
    }
}

fn record_state(report: &AgentPaneReport) -> Option<AgentState> {
    report.record.as_ref()?;
    Some(report.state.unwrap_or(AgentState::Unknown))
}

fn one(client: &mut Client, pane: PaneId) -> Result<AgentPaneReport, AgentWaitError> {
    inspect(client, vec![pane])?
        .into_iter()
        .next()
        .ok_or_else(|| {
            ClientError::Transport {
                socket: Default::default(),
                message: format!("the server reported nothing about {pane}"),
            }
            .into()
        })
}

/// A wait that is subscribed and has read its baseline: transitions from here on are seen.
pub struct AgentWaitSession {
    stream: Client,
    baseline: AgentState,
    watch: Watch,
    /// Ends the wait early, unsatisfied (an MCP client cancelling the call).
    stop: Option<Stop>,
}

impl AgentWaitSession {
    /// Subscribes to `pane`'s agent events, then reads the baseline (in that order, so no
    /// transition falls between the two). A pane without a record is `NoRecord`.
    pub fn open(
        client: &mut Client,
        socket: &Path,
        pane: PaneId,
        wanted: Vec<AgentState>,
    ) -> Result<AgentWaitSession, AgentWaitError> {
        let mut stream = Client::connect(socket)?;
        stream.subscribe(
            Some(pane),
            vec!["agent_state".into(), "pane_closed".into(), "lease".into()],
        )?;
        let report = one(client, pane)?;
        let baseline = record_state(&report).ok_or(AgentWaitError::NoRecord(pane))?;
        let record = report.record.ok_or(AgentWaitError::NoRecord(pane))?;
        Ok(AgentWaitSession {
            stream,
            baseline,
            watch: Watch {
                pane,
                wanted,
                last: baseline,
                agent: WaitAgent {
                    name: record.name,
                    kind: record.kind,
                    session: record.session,
                },
                observations: WaitObservations::default(),
            },
            stop: None,
        })
    }

    /// Lets `stop` end the wait early, unsatisfied.
    pub fn with_stop(mut self, stop: Stop) -> Self {
        self.stop = Some(stop);
        self
    }

    pub fn baseline(&self) -> AgentState {
        self.baseline
    }

    pub fn agent(&self) -> &WaitAgent {
        &self.watch.agent
    }

    /// Waits for a wanted transition until `timeout`, then reads the pane once more for the
    /// document's `detection`.
    pub fn run(
        mut self,
        client: &mut Client,
        timeout: Option<Duration>,
    ) -> Result<AgentWaitJson, AgentWaitError> {
        let pane = self.watch.pane;
        let edge = self.next_edge(client, timeout)?;
        let detection = one(client, pane).ok().map(|r| AgentEntry::from_report(&r));
        let state = detection.as_ref().map_or(self.watch.last, |d| d.state);
        Ok(AgentWaitJson {
            schema_version: 1,
            terminal: TerminalAddr::local(pane),
            satisfied: edge.is_some(),
            edge,
            baseline: self.baseline,
            state,
            agent: self.watch.agent,
            observations: self.watch.observations,
            detection,
        })
    }

    fn next_edge(
        &mut self,
        client: &mut Client,
        timeout: Option<Duration>,
    ) -> Result<Option<AgentEdge>, AgentWaitError> {
        let pane = self.watch.pane;
        let departed = || AgentWaitError::Departed {
            pane,
            why: "the pane closed".into(),
        };
        let deadline = timeout.map(|t| Instant::now() + t);
        let mut next_poll = Instant::now() + POLL_FLOOR;
        // A wanted transition seen while someone held the pane's input (`phux take`): not the
        // agent's turn yet; it counts once the pane is given back, if the state still holds.
        let mut held_back: Option<AgentEdge> = None;
        let turn = |edge: Option<AgentEdge>, client: &mut Client, held: &mut Option<AgentEdge>| {
            let Some(edge) = edge else {
                return Ok::<_, AgentWaitError>(None);
            };
            if taken(client, pane)? {
                *held = Some(edge);
                return Ok(None);
            }
            Ok(Some(edge))
        };
        loop {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(None);
            }
            let wake = deadline.map_or(next_poll, |d| d.min(next_poll));
            let fd = self.stop.as_ref().map(Stop::fd);
            match self.stream.next_message_or_stop(Some(wake), fd)? {
                Pushed::Message(ServerMessage::Event(Event { event, .. })) => match event {
                    WatchEventKind::AgentState(change) => {
                        self.watch.observations.pushes += 1;
                        let edge = self.watch.observe(change.state, "push")?;
                        if edge.is_some() {
                            held_back = None;
                        }
                        if let Some(edge) = turn(edge, client, &mut held_back)? {
                            return Ok(Some(edge));
                        }
                    }
                    WatchEventKind::Lease { holder: None, .. } => {
                        let still = held_back.take().filter(|e| e.to == self.watch.last);
                        if let Some(edge) = turn(still, client, &mut held_back)? {
                            return Ok(Some(edge));
                        }
                    }
                    WatchEventKind::PaneClosed { .. } => return Err(departed()),
                    _ => {}
                },
                Pushed::Stopped => return Ok(None),
                Pushed::Message(_) => {}
                Pushed::Ended => return Err(departed()),
                Pushed::TimedOut => {
                    if Instant::now() >= next_poll {
                        next_poll = Instant::now() + POLL_FLOOR;
                        self.watch.observations.polls += 1;
                        let report = one(client, pane)?;
                        let edge = self.watch.observe(record_state(&report), "poll")?;
                        let edge = match edge {
                            Some(edge) => Some(edge),
                            // A lease given back while its event was missed.
                            None => held_back.take().filter(|e| e.to == self.watch.last),
                        };
                        if let Some(edge) = turn(edge, client, &mut held_back)? {
                            return Ok(Some(edge));
                        }
                    }
                }
            }
        }
    }
}

/// Whether someone holds `pane`'s input (`phux take`): then it is not the agent's turn.
fn taken(client: &mut Client, pane: PaneId) -> Result<bool, ClientError> {
    Ok(crate::screen::get_screen(client, pane, None, false)?
        .lease
        .is_some())
}

/// Waits on `pane`'s agent for a transition into one of `wanted`, until `timeout`.
pub fn agent_wait(
    client: &mut Client,
    socket: &Path,
    pane: PaneId,
    wanted: Vec<AgentState>,
    timeout: Option<Duration>,
) -> Result<AgentWaitJson, AgentWaitError> {
    AgentWaitSession::open(client, socket, pane, wanted)?.run(client, timeout)
}
