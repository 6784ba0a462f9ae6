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
