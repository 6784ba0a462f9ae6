//! Debian's chromium driven by playwright-core (pinned in `tests/browser/`): whether it can run
//! here, and a script of `tests/browser/` started with its plan (`PHUX_BROWSER_PLAN`, JSON).

use std::path::{Path, PathBuf};
use std::process::Command;

/// `tests/browser/`, where the scripts and their `node_modules` are.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("browser")
}

/// Node, chromium and playwright-core, or the first one missing.
pub fn ready() -> Result<(), String> {
    if Command::new("node").arg("--version").output().is_err() {
        return Err("node (Node.js)".into());
    }
    if !Path::new("/usr/bin/chromium").exists() {
        return Err("chromium (Debian's package)".into());
    }
    if !dir().join("node_modules/playwright-core").exists() {
        return Err("playwright-core (`npm ci` in tests/browser)".into());
    }
    Ok(())
}

/// `node tests/browser/SCRIPT` with `plan` as its `PHUX_BROWSER_PLAN`, not started yet.
pub fn script(script: &str, plan: &serde_json::Value) -> Command {
    let mut node = Command::new("node");
    node.arg(dir().join(script))
        .current_dir(dir())
        .env("PHUX_BROWSER_PLAN", plan.to_string());
    node
}
