//! Every verb of the command line, in the order `phux --help` lists them, and each sub-verb an
//! agent host sees on its own (`agent wait`), with what an MCP host gets for it: a tool, or the
//! reason it gets none. The binary's clap description is checked against this table (its verbs,
//! their order, each described alone), and so is the MCP server's tool list: a verb added to
//! the command line fails those tests until it is named here, with a tool or a reason.

/// One verb (`snapshot`) or sub-verb (`agent wait`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verb {
    pub name: &'static str,
    pub mcp: Mcp,
}

/// What an MCP host gets for a verb.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mcp {
    /// The tool of this name.
    Tool(&'static str),
    /// No tool, for this reason.
    NoTool(&'static str),
    /// Each of its sub-verbs (`agent wait`) is listed with its own.
    PerSubVerb,
}

impl Verb {
    /// A verb of the command line itself, not a sub-verb.
    pub fn is_top_level(&self) -> bool {
        !self.name.contains(' ')
    }
}

/// The verbs, in `phux --help`'s order, each verb's sub-verbs right after it.
pub const VERBS: &[Verb] = &[
    Verb {
        name: "attach",
        mcp: Mcp::NoTool(
            "a full-screen terminal UI for a person, not a call",
        ),
    },
    Verb {
        name: "detach",
        mcp: Mcp::Tool("phux_detach"),
    },
    Verb {
        name: "new",
        mcp: Mcp::Tool("phux_new"),
    },
    Verb {
        name: "ls",
        mcp: Mcp::Tool("phux_ls"),
    },
    Verb {
        name: "status",
        mcp: Mcp::Tool("phux_status"),
    },
    Verb {
        name: "spawn",
        mcp: Mcp::Tool("phux_spawn"),
    },
    Verb {
        name: "kill",
        mcp: Mcp::Tool("phux_kill"),
    },
    Verb {
        name: "rename",
        mcp: Mcp::Tool("phux_rename"),
    },
    Verb {
        name: "resize",
        mcp: Mcp::Tool("phux_resize"),
    },
    Verb {
        name: "signal",
        mcp: Mcp::Tool("phux_signal"),
    },
    Verb {
        name: "tag",
        mcp: Mcp::Tool("phux_tag"),
    },
    Verb {
        name: "play",
        mcp: Mcp::Tool("phux_play"),
    },
    Verb {
        name: "send-keys",
        mcp: Mcp::Tool("phux_send_keys"),
    },
    Verb {
        name: "paste",
        mcp: Mcp::Tool("phux_paste"),
    },
    Verb {
        name: "take",
        mcp: Mcp::NoTool(
            "a person takes a pane from an agent; an agent host's writes are what the lease refuses",
        ),
    },
    Verb {
        name: "give",
        mcp: Mcp::NoTool(
            "gives back what `take` took: a person's verb, like take",
        ),
    },
    Verb {
        name: "insert-pane",
        mcp: Mcp::Tool("phux_insert_pane"),
    },
    Verb {
        name: "move-pane",
        mcp: Mcp::Tool("phux_move_pane"),
    },
    Verb {
        name: "swap-pane",
        mcp: Mcp::Tool("phux_swap_pane"),
    },
    Verb {
        name: "rec",
        mcp: Mcp::Tool("phux_rec"),
    },
    Verb {
        name: "tape",
        mcp: Mcp::NoTool(
            "runs a demo script in real time and writes its files; phux_rec records a pane",
        ),
    },
    Verb {
        name: "tape record",
        mcp: Mcp::NoTool(
            "records what a person types until they stop it; an agent writes a tape's text itself",
        ),
    },
    Verb {
        name: "snapshot",
        mcp: Mcp::Tool("phux_snapshot"),
    },
    Verb {
        name: "wait",
        mcp: Mcp::Tool("phux_wait"),
    },
    Verb {
        name: "run",
        mcp: Mcp::Tool("phux_run"),
    },
    Verb {
        name: "watch",
        mcp: Mcp::Tool("phux_watch"),
    },
    Verb {
        name: "ask",
        mcp: Mcp::Tool("phux_ask"),
    },
    Verb {
        name: "agent",
        mcp: Mcp::PerSubVerb,
    },
    Verb {
        name: "agent list",
        mcp: Mcp::Tool("phux_agent_list"),
    },
    Verb {
        name: "agent show",
        mcp: Mcp::Tool("phux_agent_show"),
    },
    Verb {
        name: "agent explain",
        mcp: Mcp::Tool("phux_agent_explain"),
    },
    Verb {
        name: "agent set",
        mcp: Mcp::Tool("phux_agent_set"),
    },
    Verb {
        name: "agent clear",
        mcp: Mcp::Tool("phux_agent_clear"),
    },
    Verb {
        name: "agent report-state",
        mcp: Mcp::NoTool(
            "the hook ingress an agent's own hooks call, not an agent host",
        ),
    },
    Verb {
        name: "agent wait",
        mcp: Mcp::Tool("phux_agent_wait"),
    },
    Verb {
        name: "agent send-keys",
        mcp: Mcp::Tool("phux_agent_send_keys"),
    },
    Verb {
        name: "agent prompt",
        mcp: Mcp::Tool("phux_agent_prompt"),
    },
    Verb {
        name: "agent answer",
        mcp: Mcp::Tool("phux_agent_answer"),
    },
    Verb {
        name: "agent start",
        mcp: Mcp::Tool("phux_agent_start"),
    },
    Verb {
        name: "mcp",
        mcp: Mcp::NoTool("this adapter itself"),
    },
    Verb {
        name: "config",
        mcp: Mcp::PerSubVerb,
    },
    Verb {
        name: "config init",
        mcp: Mcp::NoTool(
            "writes a config file on this machine: operator work",
        ),
    },
    Verb {
        name: "config path",
        mcp: Mcp::NoTool(
            "for a person editing the config file; phux_doctor says where it is and whether it loads",
        ),
    },
    Verb {
        name: "config show",
        mcp: Mcp::NoTool(
            "for a person editing the config file; phux_doctor reports whether it loads",
        ),
    },
    Verb {
        name: "config check",
        mcp: Mcp::NoTool(
            "for a person editing the config file; phux_doctor reports its problems",
        ),
    },
    Verb {
        name: "config run",
        mcp: Mcp::Tool("phux_plugin_action"),
    },
    Verb {
        name: "config agents",
        mcp: Mcp::Tool("phux_config_agents"),
    },
    Verb {
        name: "plugin",
        mcp: Mcp::NoTool(
            "installs, links and enables code on this machine: operator work an agent host \
             must not do on its own",
        ),
    },
    Verb {
        name: "workspace",
        mcp: Mcp::Tool("phux_workspace"),
    },
    Verb {
        name: "worktree",
        mcp: Mcp::NoTool(
            "a person's repository chores (git worktrees and their sessions); phux_workspace inspects them",
        ),
    },
    Verb {
        name: "launch",
        mcp: Mcp::Tool("phux_launch"),
    },
    Verb {
        name: "doctor",
        mcp: Mcp::Tool("phux_doctor"),
    },
    Verb {
        name: "logs",
        mcp: Mcp::NoTool(
            "a person reading this machine's log files; phux_doctor and phux_status say where they are",
        ),
    },
    Verb {
        name: "update",
        mcp: Mcp::NoTool(
            "replaces the phux binary on this machine: operator work an agent host must not do on its own",
        ),
    },
    Verb {
        name: "upgrade",
        mcp: Mcp::NoTool(
            "re-execs the server under every pane: operator work, deliberately no tool",
        ),
    },
    Verb {
        name: "service",
        mcp: Mcp::NoTool(
            "installs a systemd unit on this machine: operator work",
        ),
    },
    Verb {
        name: "completion",
        mcp: Mcp::NoTool(
            "prints a shell's completion script for a person's shell, not for an agent",
        ),
    },
    Verb {
        name: "engine",
        mcp: Mcp::NoTool(
            "installs and inspects the terminal engine on this machine: operator work",
        ),
    },
    Verb {
        name: "server",
        mcp: Mcp::NoTool(
            "runs the server itself in the foreground; tools start one when needed (phux_new)",
        ),
    },
    Verb {
        name: "host",
        mcp: Mcp::NoTool(
            "edits this machine's registry of other machines and dials ssh: operator work",
        ),
    },
    Verb {
        name: "pair",
        mcp: Mcp::NoTool("minting a bearer token is a person's decision about who may reach this machine; a token printed to an agent would be a secret in its transcript"),
    },
    Verb {
        name: "listen",
        mcp: Mcp::NoTool("opening this machine to the network is a person's decision, like `pair`"),
    },
    Verb {
        name: "web",
        mcp: Mcp::NoTool("installs the browser page's terminal once, an operator's chore"),
    },
    Verb {
        name: "proxy",
        mcp: Mcp::NoTool(
            "the far end of an ssh link (a stdio bridge to the socket), not a call",
        ),
    },
    Verb {
        name: "skill",
        mcp: Mcp::NoTool(
            "the guide is text a host loads once (phux skill), and the tools carry their own descriptions",
        ),
    },
    Verb {
        name: "__remote-link",
        mcp: Mcp::NoTool("internal: the far end of a hub's wss link, run by the hub"),
    },
    Verb {
        name: "__pane-exec",
        mcp: Mcp::NoTool("internal: the process a pane starts"),
    },
    Verb {
        name: "__play-cast",
        mcp: Mcp::NoTool(
            "internal: the player `play` starts in a pane",
        ),
    },
    Verb {
        name: "__keeper",
        mcp: Mcp::NoTool("internal: the process that holds a pane for as long as its program runs"),
    },
];

/// The verb called `name` (`agent wait` for a sub-verb).
pub fn find(name: &str) -> Option<&'static Verb> {
    VERBS.iter().find(|verb| verb.name == name)
}

/// The sub-verbs of `verb`, in order (`agent` → `agent list`, `agent show`, ...).
pub fn sub_verbs(verb: &str) -> impl Iterator<Item = &'static Verb> + '_ {
    VERBS.iter().filter(move |sub| {
        sub.name
            .split_once(' ')
            .is_some_and(|(parent, _)| parent == verb)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_every_reason_says_why() {
        for (i, verb) in VERBS.iter().enumerate() {
            assert!(
                VERBS[..i].iter().all(|other| other.name != verb.name),
                "{} is listed twice",
                verb.name
            );
            if let Mcp::NoTool(why) = verb.mcp {
                assert!(why.len() > 10, "{}: say why it has no tool", verb.name);
            }
            if verb.mcp == Mcp::PerSubVerb {
                assert!(sub_verbs(verb.name).count() > 0, "{}", verb.name);
            }
        }
    }
}
