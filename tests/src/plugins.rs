//! Plugin directories written by tests: a manifest in a directory of its own, the
//! `[[plugins]]` table that registers it, and a plugin with one agent integration.

use std::path::{Path, PathBuf};

/// A plugin directory `name` under `parent` holding `manifest`.
pub fn plugin_dir(parent: &Path, name: &str, manifest: &str) -> PathBuf {
    let dir = parent.join(name);
    std::fs::create_dir_all(&dir).expect("create the plugin directory");
    std::fs::write(dir.join("phux-plugin.toml"), manifest).expect("write the manifest");
    dir
}

/// The config file's `[[plugins]]` entries for `dirs`, each enabled or not.
pub fn plugins_table(dirs: &[(&Path, bool)]) -> String {
    dirs.iter()
        .map(|(dir, enabled)| {
            format!(
                "[[plugins]]\nmanifest = \"{}\"\nenabled = {enabled}\n",
                dir.join("phux-plugin.toml").display()
            )
        })
        .collect()
}

const AGENT_PLUGIN: &str = r#"id = "com.example.agent-tools"
name = "Agent tools"
version = "0.2.0"

[[agents]]
id = "fakeagent"
label = "Fake agent"
state = "idle"
contexts = ["pane"]
"#;

const FAKE_INTEGRATION: &str = r#"schema_version = 1
id = "fake"
display_name = "Fake agent"
kind = "fakeagent"

[launch]
command = ["sh", "${PHUX_PLUGIN_ROOT}/agent.sh"]
working_directory = "plugin"

[agent_identity]
name = "fakeagent"
kind = "fakeagent"

[session_identity]
mode = "argv"
fresh_args = ["--session-id", "${PHUX_AGENT_SESSION_ID}"]
resume_args = ["--resume", "${PHUX_AGENT_SESSION_ID}"]
"#;

/// A plugin (`com.example.agent-tools`) declaring the agent `fakeagent`, with one integration
/// (`fake`) whose "agent" prints its arguments and directory, then waits.
pub fn agent_plugin(parent: &Path) -> PathBuf {
    let dir = plugin_dir(parent, "agent-tools", AGENT_PLUGIN);
    std::fs::create_dir_all(dir.join("integrations")).expect("create integrations/");
    std::fs::write(dir.join("integrations/fake.toml"), FAKE_INTEGRATION)
        .expect("write the integration");
    std::fs::write(
        dir.join("agent.sh"),
        "echo \"agent args: $*\"; echo \"agent cwd: $(pwd)\"; exec sleep 600\n",
    )
    .expect("write agent.sh");
    dir
}

/// A private home for the verbs that never contact a server (config, plugins): its own config
/// file, data directory and a socket nothing listens on.
pub struct PluginHome {
    pub dir: tempfile::TempDir,
}

impl Default for PluginHome {
    fn default() -> Self {
        PluginHome::new()
    }
}

impl PluginHome {
    pub fn new() -> PluginHome {
        PluginHome {
            dir: tempfile::tempdir().expect("a temporary home"),
        }
    }

    pub fn config(&self) -> PathBuf {
        self.dir.path().join("config").join("config.toml")
    }

    /// `XDG_DATA_HOME`: where `plugin install` puts plugins.
    pub fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// Runs `phux ARGS` in this home.
    pub fn run(&self, args: &[&str]) -> std::process::Output {
        crate::run_with_deadline(
            crate::phux(args)
                .env("PHUX_CONFIG", self.config())
                .env("XDG_DATA_HOME", self.data())
                .env("PHUX_SOCKET", self.dir.path().join("no-server.sock")),
            std::time::Duration::from_secs(60),
        )
    }

    /// Runs `phux ARGS`, which must succeed, and parses its JSON document.
    pub fn ok(&self, args: &[&str]) -> serde_json::Value {
        let output = self.run(args);
        assert!(
            output.status.success(),
            "{args:?}: {}",
            crate::stderr(&output)
        );
        crate::json(&output)
    }

    /// A plugin directory `name` in this home holding `manifest`.
    pub fn plugin(&self, name: &str, manifest: &str) -> PathBuf {
        plugin_dir(self.dir.path(), name, manifest)
    }
}

/// Runs `git -C DIR ARGS` with a fixed identity; a failure fails the test.
pub fn git(dir: &Path, args: &[&str]) {
    let output = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .output()
        .expect("git");
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}
