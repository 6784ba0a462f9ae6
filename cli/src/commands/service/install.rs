//! `phux service install [--restore [--archive PATH]] [--print] [--json]`: writes the user unit
//! or the launchd agent's plist (again only when its text changed, so installing twice is a
//! no-op) and, where its manager runs, enables and starts it.

use std::path::PathBuf;

use phux_core::error_code::ErrorCode;
use phux_core::exit_code::SUCCESS;
use serde::Serialize;

use super::manager::Manager;
use super::{unit, SERVICE_SCHEMA_VERSION};
use crate::commands::Context;
use crate::failure::Failure;
use crate::output;

/// Write (and, where systemd or launchd runs, enable and start) the phux user unit
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Save the workspace when the service stops and restore it when it starts
    #[arg(long)]
    pub restore: bool,
    /// With --restore: the archive to save to and restore from
    /// [default: <data dir>/service-workspace.json]
    #[arg(long, value_name = "PATH", requires = "restore")]
    pub archive: Option<PathBuf>,
    /// The remote listener the service's server starts with [default: $PHUX_WS_ADDR, else the
    /// address the running server listens on now (`phux listen`); `[listener] ws_addr` in
    /// config.toml is read by the server itself]
    #[arg(long, value_name = "HOST:PORT")]
    pub ws_addr: Option<String>,
    /// Print the unit (or plist) instead of writing it
    #[arg(long)]
    pub print: bool,
    /// Print the outcome as JSON
    #[arg(long)]
    pub json: bool,
}

/// `phux service install --json`.
#[derive(Debug, Serialize)]
pub struct InstallJson {
    pub schema_version: u32,
    /// `systemd` or `launchd`.
    pub manager: &'static str,
    /// The file written: the unit, or the plist.
    pub unit: String,
    /// False when the unit already had this text.
    pub changed: bool,
    pub restore: Option<String>,
    /// The listener's address the unit starts the server with (null: none beyond config.toml's).
    pub ws_addr: Option<String>,
    /// Whether the manager's tool (systemctl, or launchctl) can be used here.
    pub systemctl: bool,
    /// Whether `systemctl --user enable --now` (or `launchctl bootstrap`) succeeded (null
    /// without the tool).
    pub enabled: Option<bool>,
}

pub fn run(args: Args, context: &Context) -> i32 {
    match install(&args, context) {
        Ok(()) => SUCCESS,
        Err(failure) => failure.report(args.json),
    }
}

fn install(args: &Args, context: &Context) -> Result<(), Failure> {
    let manager = Manager::here()?;
    let binary = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("phux"));
    let archive = args
        .restore
        .then(|| args.archive.clone().unwrap_or_else(unit::default_archive));
    let env = super::listener_env::listener_env(args.ws_addr.as_deref(), &context.socket);
    let text = manager.text(&binary, &context.socket, archive.as_deref(), &env);
    if args.print {
        output::print_lines(&[text.trim_end().to_owned()]);
        return Ok(());
    }
    let path = manager.file();
    let changed = std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str());
    if changed {
        write(&path, &text)?;
    }
    let archive_dir = archive.as_ref().and_then(|a| a.parent()).map(PathBuf::from);
    for dir in manager.directories().into_iter().chain(archive_dir) {
        let _ = std::fs::create_dir_all(dir);
    }
    let systemctl = manager.available();
    let enabled = systemctl.then(|| manager.start(changed));
    let doc = InstallJson {
        schema_version: SERVICE_SCHEMA_VERSION,
        manager: manager.name(),
        unit: path.display().to_string(),
        changed,
        restore: archive.map(|a| a.display().to_string()),
        ws_addr: (env.iter())
            .find(|(name, _)| name == "PHUX_WS_ADDR")
            .map(|(_, addr)| addr.clone()),
        systemctl,
        enabled,
    };
    if args.json {
        output::print_json(&doc);
        return Ok(());
    }
    let mut lines = vec![if changed {
        format!("wrote {}", doc.unit)
    } else {
        format!("{} is already installed (unchanged)", doc.unit)
    }];
    let start = manager.start_command();
    lines.push(match enabled {
        Some(true) => format!("enabled and started {}", doc.unit),
        Some(false) => format!("`{start}` failed; see `phux service status`"),
        None => format!(
            "{} not available: start it where {} runs with `{start}`",
            manager.tool(),
            manager.name()
        ),
    });
    output::print_lines(&lines);
    Ok(())
}

fn write(path: &std::path::Path, text: &str) -> Result<(), Failure> {
    let failed = |e: String| {
        Failure::new(
            ErrorCode::Registry,
            format!("cannot write {}: {e}", path.display()),
            "check that the directory is yours and writable",
        )
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| failed(e.to_string()))?;
    }
    phux_core::config::edit::write_atomically(path, text.as_bytes())
        .map_err(|e| failed(e.to_string()))
}
