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
phux_config_agents, and phux_plugin_action for `config run`), in groups: `core` is listed by
default (15 tools), `--tools core,agents,layout,plugins,workspace` or `--tools all` lists more.
Failures are isError results carrying the JSON error document. `phux mcp --schema` lists them.";

/// Serve the Model Context Protocol on stdio, for agent hosts
#[derive(Debug, clap::Args)]
#[command(after_help = REGISTER)]
pub struct Args {
    /// Print the tool list (names, descriptions, input schemas) as JSON and exit
    #[arg(long)]
    pub schema: bool,
    /// The tool groups listed: core (sessions, panes, run, wait, watch, snapshot, rec, agent
    /// state), agents, layout, plugins, workspace, or all; comma-separated [default:
    /// $PHUX_MCP_TOOLS, else core]
    #[arg(long, value_name = "GROUPS", value_parser = parse_tools)]
    pub tools: Option<tools::catalog::ToolSet>,
}

fn parse_tools(text: &str) -> Result<tools::catalog::ToolSet, String> {
    tools::catalog::ToolSet::parse(text)
}

/// The groups listed: `--tools`, else `PHUX_MCP_TOOLS`, else core.
fn tool_set(args: &Args) -> Result<tools::catalog::ToolSet, String> {
    if let Some(set) = &args.tools {
        return Ok(set.clone());
    }
    match std::env::var("PHUX_MCP_TOOLS") {
        Ok(text) if !text.trim().is_empty() => {
            tools::catalog::ToolSet::parse(&text).map_err(|e| format!("PHUX_MCP_TOOLS: {e}"))
        }
        _ => Ok(tools::catalog::ToolSet::default()),
    }
}

pub fn run(args: Args, context: &Context) -> i32 {
    let set = match tool_set(&args) {
        Ok(set) => set,
        Err(e) => {
            output::stderr_line(&format!("phux mcp: {e}"));
            return phux_core::exit_code::USAGE;
        }
    };
    if args.schema {
        let list: Vec<serde_json::Value> = tools::listed(&set).iter().map(tools::listing).collect();
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
    match crate::mcp::serve(
        stdin,
        Box::new(std::io::stdout()),
        context.socket.clone(),
        set,
        Box::new(crate::mcp::stdout_reader_gone),
    ) {
        Ok(()) => SUCCESS,
        Err(e) => {
            output::stderr_line(&format!("phux mcp: cannot read stdin: {e}"));
            FAILURE
        }
    }
}
