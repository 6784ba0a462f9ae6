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
    ) {
        Ok(()) => SUCCESS,
        Err(e) => {
            output::stderr_line(&format!("phux mcp: cannot read stdin: {e}"));
            FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use phux_mcp::tools::{all, find, tool_name, NO_TOOL, RENAMED};

    fn verbs() -> Vec<String> {
        let cli = <crate::cli::Cli as clap::CommandFactory>::command();
        let mut verbs = Vec::new();
        for verb in cli.get_subcommands() {
            let name = verb.get_name();
            // Verbs whose sub-verbs each get a tool (or a reason) of their own.
            if name == "agent" || name == "config" {
                verbs.extend(
                    verb.get_subcommands()
                        .map(|sub| format!("{name} {}", sub.get_name())),
                );
            } else {
                verbs.push(name.to_owned());
            }
        }
        verbs
    }

    #[test]
    fn every_verb_has_a_tool_or_a_reason() {
        let tools: Vec<&str> = all().iter().map(|t| t.name).collect();
        let mut missing = Vec::new();
        for verb in verbs() {
            let excluded = NO_TOOL.iter().any(|(name, _)| *name == verb);
            let has_tool = tools.contains(&tool_name(&verb).as_str());
            assert!(
                !(excluded && has_tool),
                "{verb} has a tool and an exclusion: drop the exclusion"
            );
            if !excluded && !has_tool {
                missing.push(verb);
            }
        }
        assert!(
            missing.is_empty(),
            "verbs with no MCP tool: {missing:?}; add a tool in cli/mcp/src/tools/ or a reason to NO_TOOL"
        );
    }

    #[test]
    fn every_exclusion_names_a_verb_and_says_why() {
        let verbs = verbs();
        for (name, why) in NO_TOOL {
            assert!(
                verbs.iter().any(|v| v == name),
                "{name} is no verb any more"
            );
            assert!(why.len() > 10);
        }
        for (name, tool) in RENAMED {
            assert!(
                verbs.iter().any(|v| v == name),
                "{name} is no verb any more"
            );
            assert!(find(tool).is_some(), "{tool} is no tool");
        }
    }
}
