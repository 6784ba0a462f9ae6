//! `phux mcp`: serves the Model Context Protocol on stdin/stdout for agent hosts (Claude Code,
//! Codex, Cursor, ...). Every tool calls the client library directly; `--schema` prints the
//! tool list without serving.

use phux_core::exit_code::{FAILURE, SUCCESS};

use crate::commands::Context;
use crate::mcp::tools;
use crate::output;

const REGISTER: &str = "\
Register it with a host:
  Claude Code:   claude mcp add phux -- phux mcp
  Any stdio host (Cursor, Codex, ...), in its MCP servers JSON:
    {\"mcpServers\": {\"phux\": {\"command\": \"phux\", \"args\": [\"mcp\"]}}}
  With a server socket of its own:  phux mcp --socket /path/to/phux.sock

It speaks MCP 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25 (JSON-RPC 2.0, one message
per line). Tools are phux_VERB for each agent-facing verb (phux_agent_SUB for `phux agent`,
phux_config_agents, and phux_plugin_action for `config run`); failures are isError results
carrying the JSON error document. `phux mcp --schema` lists them.";

/// Serve the Model Context Protocol on stdio, for agent hosts
#[derive(Debug, clap::Args)]
#[command(after_help = REGISTER)]
pub struct Args {
    /// Print the tool list (names, descriptions, input schemas) as JSON and exit
    #[arg(long)]
    pub schema: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    if args.schema {
        let list: Vec<serde_json::Value> = tools::all().iter().map(tools::listing).collect();
        output::print_line(&tools::pretty(&serde_json::Value::Array(list)));
        return SUCCESS;
    }
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        // A person ran it by hand: say what it waits for (stderr; stdout is the protocol's).
        output::stderr_line(
            "phux mcp: serving MCP (JSON-RPC, one message per line) on stdin/stdout for an agent host; \
             register it with `claude mcp add phux -- phux mcp` (see `phux mcp --help`). Ctrl-D ends it.",
        );
    }
    let stdin = std::io::stdin().lock();
    match crate::mcp::serve(stdin, Box::new(std::io::stdout()), context.socket.clone()) {
        Ok(()) => SUCCESS,
        Err(e) => {
            output::stderr_line(&format!("phux mcp: cannot read stdin: {e}"));
            FAILURE
        }
    }
}
