//! `phux agent send-keys TARGET KEYS... [--expect-agent N] [--expect-kind K] [--json]`: keys
//! for an agent, after the occupant check (`agent_mismatch`, `no_agent_record`: nothing is
//! written). Silent on success like `send-keys`; `--json` prints the delivery document.

use phux_core::docs::{AgentSendKeysJson, InputAgent};
use phux_core::exit_code::SUCCESS;
use phux_core::ids::TerminalAddr;

use crate::client::agents::verify_occupant;
use crate::client::pane::{check_keys, operation_id, send_keys};
use crate::client::target;
use crate::commands::values::{connect, resolve_agent_pane};
use crate::commands::Context;
use crate::failure::{conclude, Failure, VerbResult};
use crate::output;

/// Type keys into an agent's pane after checking who occupies it
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Refuse (agent_mismatch) unless the pane's agent record has this name
    #[arg(long, value_name = "N")]
    pub expect_agent: Option<String>,
    /// Refuse (agent_mismatch) unless the pane's agent record has this kind
    #[arg(long, value_name = "K")]
    pub expect_kind: Option<String>,
    /// Print the delivery document
    #[arg(long)]
    pub json: bool,
    /// The pane
    #[arg(value_name = "TARGET")]
    pub target: String,
    /// Key specs (Enter, C-c, Up, ...) or literal text
    #[arg(value_name = "KEYS", required = true)]
    pub keys: Vec<String>,
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
    if json {
        output::print_json(&document);
    }
    Ok(SUCCESS)
}

/// Verifies the occupant, types the keys and returns what `--json` prints (the MCP tool too).
pub fn document(args: Args, context: &Context) -> Result<AgentSendKeysJson, Failure> {
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
