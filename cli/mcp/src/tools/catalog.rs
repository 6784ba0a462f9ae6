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

/// What a tool does to the world, which decides its MCP annotations: a host that approves
/// "non-destructive" tools without asking must never let a typed `rm -rf` through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Only reads (the server's state, a pane's screen, files): `readOnlyHint: true`.
    Reads,
    /// Types into a pane or starts a program (or signals one): whatever that program does
    /// follows, so `destructiveHint: true` and `openWorldHint: true`.
    RunsPrograms,
    /// Changes phux's own state (layout, names, tags, records) and nothing a program does.
    Edits,
    /// Ends something phux holds for people (their attached view): destructive, not open.
    Ends,
}

/// A tool's group, title and annotations.
#[derive(Debug, Clone, Copy)]
pub struct Meta {
    pub group: Group,
    pub title: &'static str,
    pub effect: Effect,
    /// Calling it again with the same arguments changes nothing more.
    pub idempotent: bool,
}

impl Meta {
    /// The MCP `annotations` object.
    pub fn annotations(&self) -> Value {
        let (read_only, destructive, open_world) = match self.effect {
            Effect::Reads => (true, false, false),
            Effect::RunsPrograms => (false, true, true),
            Effect::Edits => (false, false, false),
            Effect::Ends => (false, true, false),
        };
        json!({
            "title": self.title,
            "readOnlyHint": read_only,
            "destructiveHint": destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": open_world,
        })
    }
}

const fn read(group: Group, title: &'static str) -> Meta {
    Meta {
        group,
        title,
        effect: Effect::Reads,
        idempotent: true,
    }
}

/// Types into a pane or starts a program.
const fn runs(group: Group, title: &'static str, idempotent: bool) -> Meta {
    Meta {
        group,
        title,
        effect: Effect::RunsPrograms,
        idempotent,
    }
}

const fn edit(group: Group, title: &'static str, idempotent: bool) -> Meta {
    Meta {
        group,
        title,
        effect: Effect::Edits,
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
    ("phux_send_keys", runs(Core, "Type keys into a pane", false)),
    ("phux_paste", runs(Core, "Paste text into a pane", false)),
    ("phux_run", runs(Core, "Run a shell command", false)),
    ("phux_job", read(Core, "Collect a background run")),
    ("phux_new", runs(Core, "Start a session", false)),
    ("phux_spawn", runs(Core, "Open a pane", false)),
    ("phux_kill", runs(Core, "Kill panes or sessions", true)),
    ("phux_signal", runs(Core, "Signal a pane's program", false)),
    // With `command`, it starts that program in a new pane.
    ("phux_rec", runs(Core, "Record a pane", false)),
    ("phux_agent_show", read(Core, "An agent's state")),
    ("phux_ask", edit(Agents, "Report a question", false)),
    ("phux_agent_list", read(Agents, "List agents")),
    ("phux_agent_explain", read(Agents, "Explain an agent's state")),
    ("phux_agent_set", edit(Agents, "Declare a pane's agent", true)),
    ("phux_agent_clear", edit(Agents, "Forget a pane's agent", true)),
    ("phux_agent_wait", read(Agents, "Wait for an agent's turn")),
    ("phux_agent_send_keys", runs(Agents, "Type into an agent", false)),
    ("phux_agent_prompt", runs(Agents, "Prompt an agent", false)),
    ("phux_agent_answer", runs(Agents, "Answer an agent's ask", false)),
    ("phux_agent_start", runs(Agents, "Start an agent", false)),
    ("phux_resize", edit(Layout, "Resize a pane", true)),
    ("phux_rename", edit(Layout, "Rename a session", true)),
    ("phux_detach", Meta { group: Layout, title: "Detach attached clients", effect: Effect::Ends, idempotent: true }),
    ("phux_tag", edit(Layout, "Tag panes", true)),
    ("phux_insert_pane", edit(Layout, "Place a pane", false)),
    ("phux_move_pane", edit(Layout, "Move a pane", false)),
    ("phux_swap_pane", edit(Layout, "Swap two panes", false)),
    ("phux_play", runs(Layout, "Play a recording in a pane", false)),
    ("phux_plugin_action", runs(Plugins, "Run a plugin action", false)),
    ("phux_config_agents", read(Plugins, "Configured agents")),
    ("phux_launch", runs(Plugins, "Launch a plugin's workspace", false)),
    ("phux_doctor", read(Workspace, "Check what phux needs")),
    // `restore` starts the archive's programs; `save` may replace a file.
    ("phux_workspace", runs(Workspace, "Save, restore or inspect workspaces", false)),
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
        ("annotations", meta.annotations()),
        ("outputSchema", super::output::schema_of(name)),
    ]
}
