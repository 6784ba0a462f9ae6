//! `phux config init [--force]`: writes a commented starter config file. An existing file is
//! kept unless `--force`.

use phux_core::config::edit::write_atomically;
use phux_core::config::paths::config_path;
use phux_core::error_code::ErrorCode;
use phux_core::exit_code::SUCCESS;

use crate::failure::{conclude, Failure, VerbResult};
use crate::output;

/// Write a commented starter config file
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Replace an existing file
    #[arg(long)]
    pub force: bool,
}

pub const STARTER: &str = r#"# phux config. Every key is optional; delete what you do not need.
# `phux config check` reports unknown keys and mistakes; `phux config show` prints what is in effect.

[defaults]
# shell = "/bin/bash"            # the program a new pane runs (else $SHELL, else /bin/sh)
# term = "xterm-256color"        # TERM inside panes
# history-limit = 10000          # rows of scrollback per pane
# window-size = "smallest"       # smallest | largest | latest | manual
# cwd-inheritance = "inherit-focused"  # inherit-focused | home
# session-name-template = "default"
# Recording defaults (phux rec):
# idle-limit = 2.0               # longest pause kept, seconds
# fps = 30
# theme = "dark"
# scale = 1
# max-bytes = 0                  # 0: no cap
# flight-bytes = 4194304         # per-pane memory for `phux rec --since`

[keybindings]
# prefix = "C-a"
# "|" = "split-right"
# "-" = "split-down"

# A plugin: a directory with phux-plugin.toml (`phux plugin link DIR` writes this for you).
# [[plugins]]
# manifest = "plugins/my-tools/phux-plugin.toml"   # absolute, or relative to this file
# enabled = true
"#;

pub fn run(args: Args) -> i32 {
    conclude(false, execute(&args))
}

fn execute(args: &Args) -> VerbResult {
    let path = config_path();
    if path.exists() && !args.force {
        return Err(Failure::new(
            ErrorCode::Registry,
            format!("{} exists already", path.display()),
            "edit it, or replace it with `phux config init --force`",
        ));
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| {
            Failure::new(
                ErrorCode::Registry,
                format!("cannot create {}: {e}", dir.display()),
                "check the directory's permissions, or set PHUX_CONFIG",
            )
        })?;
    }
    write_atomically(&path, STARTER.as_bytes()).map_err(|e| {
        Failure::new(
            ErrorCode::Registry,
            e.to_string(),
            "check the directory's permissions, or set PHUX_CONFIG",
        )
    })?;
    output::print_line(&path.display().to_string());
    Ok(SUCCESS)
}
