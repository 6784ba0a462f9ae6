//! Fixtures of the config, plugin, workspace, launch and doctor documents, pinned by
//! `golden.rs`.

use phux_core::config::manifest::{ActionDecl, BuildStep, EventHook, LinkHandler, PaneProvider};
use phux_core::config::ConfigFile;
use phux_core::documents::*;
use phux_core::split::SplitDirection;

pub fn plugin() -> PluginJson {
    PluginJson {
        id: "example.agent-tools".into(),
        name: Some("Agent Tools".into()),
        version: Some("0.1.0".into()),
        min_phux_version: Some("0.0.2".into()),
        description: None,
        manifest: "./plugins/agent-tools/phux-plugin.toml".into(),
        manifest_path: "/abs/path/phux-plugin.toml".into(),
        plugin_root: "/abs/path".into(),
        enabled: true,
        platforms: None,
        build: vec![BuildStep {
            id: Some("deps".into()),
            title: None,
            description: None,
            command: Some(vec!["make".into(), "deps".into()]),
        }],
        actions: vec![ActionDecl {
            id: Some("summarize".into()),
            title: Some("Summarize".into()),
            description: None,
            contexts: Some(vec!["pane".into()]),
            command: Some(vec!["python3".into(), "summarize.py".into()]),
            keys: Some("C-s".into()),
        }],
        events: vec![EventHook {
            id: Some("autosave".into()),
            title: None,
            description: None,
            on: Some("pane.idle".into()),
            command: Some(vec!["./autosave.sh".into()]),
        }],
        panes: vec![PaneProvider {
            id: Some("logs".into()),
            title: Some("Logs".into()),
            description: None,
            placement: Some("split".into()),
            command: Some(vec!["tail".into(), "-f".into(), "log".into()]),
        }],
        links: vec![LinkHandler {
            id: Some("issues".into()),
            title: None,
            description: None,
            contexts: None,
            patterns: Some(vec!["https://example.com/*".into()]),
            command: Some(vec!["open".into(), "{url}".into()]),
        }],
    }
}

pub fn documents() -> Vec<(&'static str, String)> {
    let v = |doc: &dyn erased::Doc| doc.value();
    vec![
        (
            "plugin_list",
            v(&PluginListJson {
                schema_version: 1,
                valid: None,
                plugins: vec![plugin()],
                warnings: Vec::new(),
            }),
        ),
        (
            "plugin_validate",
            v(&PluginListJson {
                schema_version: 1,
                valid: Some(true),
                plugins: vec![plugin()],
                warnings: Vec::new(),
            }),
        ),
        (
            "plugin_validate_warnings",
            v(&PluginListJson {
                schema_version: 1,
                valid: Some(true),
                plugins: vec![plugin()],
                warnings: vec![phux_core::documents::ManifestWarning {
                    file: "/abs/path/phux-plugin.toml".into(),
                    line: Some(7),
                    message: "[[workspaces]] id \"bench\" - unknown key `layout` (ignored); [[workspaces]] has id, title, description, contexts, agents, actions, events, panes".into(),
                }],
            }),
        ),
        (
            "plugin_link",
            v(&PluginWrapJson {
                schema_version: 1,
                plugin: plugin(),
            }),
        ),
        (
            "plugin_unlink",
            v(&PluginRemovedJson {
                schema_version: 1,
                removed: plugin(),
            }),
        ),
        (
            "plugin_action_completed",
            v(&action(ActionOutcome::Completed, Some(0))),
        ),
        (
            "plugin_action_timed_out",
            v(&action(ActionOutcome::TimedOut, None)),
        ),
        ("configured_agents", v(&configured_agents())),
        ("workspace_inspect", v(&inspect())),
        ("workspace_archive", v(&archive())),
        (
            "workspace_restore",
            v(&WorkspaceRestoreJson {
                schema_version: 2,
                restored: vec!["work".into()],
                skipped_existing: vec!["default".into()],
            }),
        ),
        (
            "launch",
            v(&LaunchJson {
                schema_version: 1,
                terminal_id: 11,
                integration: "codex".into(),
                plugin: "com.phux.agent-tools".into(),
                argv: vec!["phux-agent-wrap.sh".into(), "codex".into()],
            }),
        ),
        (
            "launch_print",
            v(&LaunchPrintJson {
                schema_version: 1,
                integration: "codex".into(),
                plugin: "com.phux.agent-tools".into(),
                cwd: "/repo".into(),
                working_directory: "workspace".into(),
                argv: vec![
                    "codex".into(),
                    "--session-id".into(),
                    "019c2f31-77d2-7a93-8931-47d27b46ceda".into(),
                ],
            }),
        ),
        (
            "launch_list",
            v(&LaunchListJson {
                schema_version: 1,
                integrations: vec![IntegrationRow {
                    id: "codex".into(),
                    plugin: "com.phux.agent-tools".into(),
                    display_name: Some("Codex".into()),
                    kind: Some("codex".into()),
                    description: None,
                    capabilities: vec!["resume".into()],
                    command: vec!["codex".into()],
                    working_directory: "workspace".into(),
                    path: "/abs/integrations/codex.toml".into(),
                }],
            }),
        ),
        ("doctor", v(&doctor())),
        (
            "config_check",
            v(&ConfigCheckJson {
                schema_version: 1,
                path: "/home/me/.config/phux/config.toml".into(),
                ok: false,
                problems: vec![ConfigProblem {
                    severity: "warning".into(),
                    file: "/home/me/.config/phux/config.toml".into(),
                    line: Some(3),
                    message: "unknown key `shel` in [defaults] (ignored)".into(),
                }],
            }),
        ),
        (
            "config_show",
            v(&ConfigShowJson {
                schema_version: 1,
                path: "/home/me/.config/phux/config.toml".into(),
                exists: false,
                config: ConfigFile::default(),
            }),
        ),
    ]
}

fn action(outcome: ActionOutcome, exit_code: Option<i32>) -> PluginActionOutput {
    PluginActionOutput {
        schema_version: 1,
        plugin_id: "example.agent-tools".into(),
        action_id: "summarize".into(),
        command: vec!["python3".into(), "summarize.py".into()],
        cwd: "/path/to/plugin".into(),
        outcome,
        exit_code,
        stdout: "...".into(),
        stderr: String::new(),
        duration_ms: 42,
    }
}

fn configured_agents() -> ConfiguredAgentsJson {
    ConfiguredAgentsJson {
        schema_version: 2,
        live: true,
        agents: vec![ConfiguredAgent {
            plugin_id: "example.agent-tools".into(),
            plugin_enabled: true,
            id: "codex".into(),
            label: Some("Codex".into()),
            description: Some("Coding agent".into()),
            state: "blocked".into(),
            attention: "high".into(),
            source: "runtime".into(),
            declared: DeclaredBaseline {
                state: "working".into(),
                attention: "normal".into(),
            },
            runtime: Some(RuntimeBinding {
                terminal: "@3".into(),
                name: "codex".into(),
                kind: "codex".into(),
                state: "blocked".into(),
                attention: "high".into(),
                asked: false,
            }),
            contexts: vec!["workspace".into(), "pane".into()],
        }],
    }
}

fn inspect() -> WorkspaceInspectJson {
    WorkspaceInspectJson {
        schema_version: 1,
        repo: RepoInfo {
            path: "/abs/path/repo".into(),
            head: Some("012345".into()),
            branch: Some("main".into()),
            detached: false,
        },
        worktrees: vec![
            WorktreeInfo {
                path: "/abs/path/repo".into(),
                head: Some("012345".into()),
                branch: Some("main".into()),
                detached: false,
                current: true,
            },
            WorktreeInfo {
                path: "/abs/path/repo-feature".into(),
                head: Some("89abcd".into()),
                branch: None,
                detached: true,
                current: false,
            },
        ],
    }
}

fn archive() -> WorkspaceArchive {
    let pane =
        |cwd: &str, command: Option<Vec<String>>, agent: Option<AgentSession>| ArchivedPane {
            active: agent.is_some(),
            title: Some("codex".into()),
            cwd: Some(cwd.into()),
            command,
            agent_session: agent,
            cols: 120,
            rows: 40,
        };
    WorkspaceArchive {
        schema_version: 2,
        sessions: vec![ArchivedSession {
            name: "agent-bench-codex".into(),
            active: true,
            windows: vec![ArchivedWindow {
                name: "0".into(),
                active: true,
                panes: vec![
                    pane(
                        "/repo",
                        None,
                        Some(AgentSession {
                            plugin_id: "com.phux.agent-tools".into(),
                            integration_id: "codex".into(),
                            native_id: Some("019c2f31-77d2-7a93-8931-47d27b46ceda".into()),
                        }),
                    ),
                    pane(
                        "/repo/docs",
                        Some(vec!["less".into(), "README.md".into()]),
                        None,
                    ),
                ],
                layout: Some(ArchivedLayout::Split {
                    split: SplitDirection::Vertical,
                    ratio: 0.6,
                    first: Box::new(ArchivedLayout::Pane { pane: 0 }),
                    second: Box::new(ArchivedLayout::Pane { pane: 1 }),
                }),
            }],
        }],
    }
}

fn doctor() -> DoctorJson {
    DoctorJson {
        schema_version: 1,
        ok: true,
        failed: 0,
        checks: vec![
            DoctorCheck {
                name: "engine".into(),
                status: CheckStatus::Pass,
                detail: "libghostty-vt loaded".into(),
                hint: None,
            },
            DoctorCheck {
                name: "ssh".into(),
                status: CheckStatus::Warn,
                detail: "ssh not found on PATH".into(),
                hint: Some("install OpenSSH's client to reach remote hosts".into()),
            },
        ],
    }
}

/// Each document as its JSON line, checked to read back to itself.
mod erased {
    pub trait Doc {
        fn value(&self) -> String;
    }

    impl<T> Doc for T
    where
        T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        fn value(&self) -> String {
            let json = serde_json::to_string(self).expect("serialize");
            let back: T = serde_json::from_str(&json).expect("read back");
            assert_eq!(&back, self, "does not round-trip: {json}");
            json
        }
    }
}
