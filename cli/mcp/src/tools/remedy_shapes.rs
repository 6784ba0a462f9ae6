//! How a verb's command line reads as its tool's arguments, for the remedies: which argument
//! each positional word fills (`phux signal @3 interrupt` → `target`, `signal`), the flags whose
//! argument has another name (`--idle` → `idle_ms`), and the sub-verb words that are an
//! argument's value (`phux tag ls` → `action: "ls"`). Everything else follows from the tool's
//! input schema: `--flag` is the argument `flag` (dashes as underscores), boolean arguments take
//! no value, and `--json` is every tool's way of answering.

/// One tool's reading of its verb's words.
pub struct Shape {
    pub tool: &'static str,
    /// The arguments positional words fill, in order; a last name ending in `...` takes every
    /// remaining word (as an array).
    pub positionals: &'static [&'static str],
    /// `(flag, argument)` where the names differ (a short flag too: `("s", "name")`).
    pub flags: &'static [(&'static str, &'static str)],
    /// The argument the word after the verb fills, when it is a sub-verb (`tag ls`).
    pub action: Option<&'static str>,
}

const TARGET: &[&str] = &["target"];

#[rustfmt::skip]
const SHAPES: &[Shape] = &[
    Shape { tool: "phux_signal", positionals: &["target", "signal"], flags: &[], action: None },
    Shape { tool: "phux_play", positionals: &["file"], flags: &[], action: None },
    Shape { tool: "phux_wait", positionals: TARGET, flags: &[("idle", "idle_ms"), ("timeout", "timeout_secs")], action: None },
    Shape { tool: "phux_send_keys", positionals: &["target", "keys..."], flags: &[], action: None },
    Shape { tool: "phux_agent_send_keys", positionals: &["target", "keys..."], flags: &[], action: None },
    Shape { tool: "phux_paste", positionals: &["target", "text"], flags: &[], action: None },
    Shape { tool: "phux_run", positionals: &["target", "command"], flags: &[("timeout", "timeout_secs"), ("output", "output_file")], action: None },
    Shape { tool: "phux_new", positionals: &["command"], flags: &[("s", "name"), ("c", "cwd")], action: None },
    Shape { tool: "phux_rec", positionals: &[], flags: &[("o", "out"), ("duration", "duration_secs")], action: None },
    Shape { tool: "phux_tag", positionals: &["target", "tags..."], flags: &[], action: Some("action") },
    Shape { tool: "phux_workspace", positionals: &["path"], flags: &[], action: Some("action") },
    Shape { tool: "phux_plugin_action", positionals: &["plugin_id", "action_id"], flags: &[("timeout", "timeout_secs")], action: None },
    Shape { tool: "phux_launch", positionals: &["id"], flags: &[], action: None },
    Shape { tool: "phux_agent_answer", positionals: TARGET, flags: &[], action: None },
    Shape { tool: "phux_rename", positionals: &["session", "new_name"], flags: &[], action: None },
    Shape { tool: "phux_detach", positionals: &["session"], flags: &[], action: None },
    Shape { tool: "phux_resize", positionals: &["target", "cols", "rows"], flags: &[], action: None },
];

/// The shape of `tool`: its own entry, or a lone `target` positional.
pub fn of(tool: &str) -> &'static Shape {
    static DEFAULT: Shape = Shape {
        tool: "",
        positionals: TARGET,
        flags: &[],
        action: None,
    };
    SHAPES.iter().find(|s| s.tool == tool).unwrap_or(&DEFAULT)
}

/// Every tool with an entry of its own.
#[cfg(test)]
pub fn tools() -> impl Iterator<Item = &'static str> {
    SHAPES.iter().map(|s| s.tool)
}
