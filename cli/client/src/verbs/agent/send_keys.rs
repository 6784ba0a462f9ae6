//! `agent send-keys`' operation: keys for an agent, after the occupant check (`agent_mismatch`,
//! `no_agent_record`: nothing is written), and the delivery document.

use phux_core::documents::{AgentSendKeysJson, InputAgent};
use phux_core::ids::TerminalAddr;

use crate::agents::verify_occupant;
use crate::failure::Failure;
use crate::pane::{check_keys, operation_id, send_keys};
use crate::target;
use crate::values::{connect, resolve_agent_pane};
use crate::Context;

/// Type keys into an agent's pane after checking who occupies it
#[derive(Debug, Clone)]
pub struct AgentSendKeysOptions {
    /// Refuse (agent_mismatch) unless the pane's agent record has this name
    pub expect_agent: Option<String>,
    /// Refuse (agent_mismatch) unless the pane's agent record has this kind
    pub expect_kind: Option<String>,
    /// The pane
    pub target: String,
    /// Key specs (Enter, C-c, Up, ...) or literal text
    pub keys: Vec<String>,
}

/// Verifies the occupant, types the keys and returns what `--json` prints (the MCP tool too).
pub fn document(
    args: AgentSendKeysOptions,
    context: &Context,
) -> Result<AgentSendKeysJson, Failure> {
    check_keys(&args.keys)?;
    let selector = target::parse(&args.target)?;
    let mut client = connect(context)?;
    let pane = resolve_agent_pane(&mut client, &selector, "agent send-keys")?;
    let (_, record, verified) = verify_occupant(
        &mut client,
        pane,
        args.expect_agent.as_deref(),
        args.expect_kind.as_deref(),
    )?;
    let keys = u32::try_from(args.keys.len()).unwrap_or(u32::MAX);
    let operation = operation_id();
    send_keys(&mut client, pane, args.keys, &operation)?;
    Ok(AgentSendKeysJson {
        schema_version: 1,
        terminal: TerminalAddr::local(pane),
        agent: InputAgent {
            name: record.name,
            kind: record.kind,
        },
        keys,
        verified,
        delivery: "ok".into(),
        operation_id: operation,
        attempts: 1,
    })
}
