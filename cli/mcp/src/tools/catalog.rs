//! What a host is told about each tool beyond its schema: the group it is listed in, a title,
//! and the MCP annotations (read-only, destructive, idempotent, open world). A host lists the
//! `core` group by default — the terminal loop — and others on request (`phux mcp --tools`),
//! so a session does not pay for forty tool descriptions it rarely needs.

use serde_json::{json, Value};

/// The groups `phux mcp --tools` takes (with `all`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// Sessions and panes, reading, typing, running, waiting, watching, recording.
    Core,
    /// Supervising coding agents.
    Agents,
    /// Splits, sizes, names, tags, playback.
    Layout,
    /// Plugins' actions and launchers.
    Plugins,
    /// Workspaces and the health check.
    Workspace,
}

impl Group {
    pub const ALL: [Group; 5] = [
        Group::Core,
        Group::Agents,
        Group::Layout,
        Group::Plugins,
        Group::Workspace,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Group::Core => "core",
            Group::Agents => "agents",
            Group::Layout => "layout",
            Group::Plugins => "plugins",
            Group::Workspace => "workspace",
        }
    }
}

/// Which groups a session lists: parsed from `core,agents`, or `all`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolSet(Vec<Group>);

impl Default for ToolSet {
    fn default() -> Self {
        ToolSet(vec![Group::Core])
    }
}

impl ToolSet {
    pub fn all() -> ToolSet {
        ToolSet(Group::ALL.to_vec())
    }

    pub fn parse(text: &str) -> Result<ToolSet, String> {
        let mut groups = Vec::new();
        for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            if word == "all" {
                return Ok(ToolSet::all());
            }
            let group = Group::ALL
                .into_iter()
                .find(|g| g.name() == word)
                .ok_or_else(|| {
                    let names: Vec<&str> = Group::ALL.iter().map(|g| g.name()).collect();
                    format!(
                        "unknown tool group {word:?}: use {} or all",
                        names.join(", ")
                    )
                })?;
            if !groups.contains(&group) {
                groups.push(group);
            }
        }
        if groups.is_empty() {
            return Err(
                "name at least one tool group (core, agents, layout, plugins, workspace, all)"
                    .into(),
            );
        }
        Ok(ToolSet(groups))
    }

    pub fn lists(&self, tool: &str) -> bool {
        meta(tool).is_some_and(|m| self.0.contains(&m.group))
    }
}

/// A tool's group, title and annotations.
#[derive(Debug, Clone, Copy)]
pub struct Meta {
    pub group: Group,
    pub title: &'static str,
    /// It only reads.
    pub read_only: bool,
    /// It may destroy or interrupt something (needs `confirm` where it always does).
    pub destructive: bool,
    /// Calling it again with the same arguments changes nothing more.
    pub idempotent: bool,
}

const fn read(group: Group, title: &'static str) -> Meta {
    Meta {
        group,
        title,
        read_only: true,
        destructive: false,
        idempotent: true,
    }
}

const fn write(group: Group, title: &'static str, destructive: bool, idempotent: bool) -> Meta {
    Meta {
        group,
        title,
        read_only: false,
        destructive,
        idempotent,
    }
}

use Group::*;

/// Every tool's entry.
#[rustfmt::skip]
const CATALOG: &[(&str, Meta)] = &[
    ("phux_ls", read(Core, "List sessions and panes")),
    ("phux_status", read(Core, "Server status")),
    ("phux_snapshot", read(Core, "Read a pane's screen")),
    ("phux_wait", read(Core, "Wait for text or quiet")),
    ("phux_watch", read(Core, "Collect pane events")),
    ("phux_send_keys", write(Core, "Type keys into a pane", false, false)),
    ("phux_paste", write(Core, "Paste text into a pane", false, false)),
    ("phux_run", write(Core, "Run a shell command", false, false)),
    ("phux_job", read(Core, "Collect a background run")),
    ("phux_new", write(Core, "Start a session", false, false)),
    ("phux_spawn", write(Core, "Open a pane", false, false)),
    ("phux_kill", write(Core, "Kill panes or sessions", true, true)),
    ("phux_signal", write(Core, "Signal a pane's program", true, false)),
    ("phux_rec", write(Core, "Record a pane", false, false)),
    ("phux_agent_show", read(Core, "An agent's state")),
    ("phux_ask", write(Agents, "Report a question", false, false)),
    ("phux_agent_list", read(Agents, "List agents")),
    ("phux_agent_explain", read(Agents, "Explain an agent's state")),
    ("phux_agent_set", write(Agents, "Declare a pane's agent", false, true)),
    ("phux_agent_clear", write(Agents, "Forget a pane's agent", false, true)),
    ("phux_agent_wait", read(Agents, "Wait for an agent's turn")),
    ("phux_agent_send_keys", write(Agents, "Type into an agent", false, false)),
    ("phux_agent_prompt", write(Agents, "Prompt an agent", false, false)),
    ("phux_agent_answer", write(Agents, "Answer an agent's ask", false, false)),
    ("phux_agent_start", write(Agents, "Start an agent", false, false)),
    ("phux_resize", write(Layout, "Resize a pane", false, true)),
    ("phux_rename", write(Layout, "Rename a session", false, true)),
    ("phux_detach", write(Layout, "Detach attached clients", false, true)),
    ("phux_tag", write(Layout, "Tag panes", false, true)),
    ("phux_insert_pane", write(Layout, "Place a pane", false, false)),
    ("phux_move_pane", write(Layout, "Move a pane", false, false)),
    ("phux_swap_pane", write(Layout, "Swap two panes", false, false)),
    ("phux_play", write(Layout, "Play a recording in a pane", false, false)),
    ("phux_plugin_action", write(Plugins, "Run a plugin action", false, false)),
    ("phux_config_agents", read(Plugins, "Configured agents")),
    ("phux_launch", write(Plugins, "Launch a plugin's workspace", false, false)),
    ("phux_doctor", read(Workspace, "Check what phux needs")),
    ("phux_workspace", write(Workspace, "Save, restore or inspect workspaces", false, false)),
];

/// The entry of the tool called `name`.
pub fn meta(name: &str) -> Option<Meta> {
    CATALOG.iter().find(|(n, _)| *n == name).map(|(_, m)| *m)
}

/// The `tools/list` fields the catalog adds: `title`, `annotations` and an `outputSchema`
/// (every result is a JSON object, given as `structuredContent`).
pub fn listing_fields(name: &str) -> Vec<(&'static str, Value)> {
    let Some(meta) = meta(name) else {
        return Vec::new();
    };
    vec![
        ("title", json!(meta.title)),
        (
            "annotations",
            json!({
                "title": meta.title,
                "readOnlyHint": meta.read_only,
                "destructiveHint": meta.destructive,
                "idempotentHint": meta.idempotent,
                "openWorldHint": false,
            }),
        ),
        ("outputSchema", json!({"type": "object"})),
    ]
}
