//! The MCP server (`phux mcp`): the protocol, its tools, hosts' configs and the official SDK.

mod mcp_hosts;
mod mcp_protocol;
mod mcp_sdk;
mod mcp_tools;
mod mcp_truth;
