//! `phux service uninstall [--json]`: stops and disables the unit (or unloads the launchd
//! agent) where its manager runs, and removes its file. Uninstalling what is not installed
//! succeeds and says so.

use phux_core::error_code::ErrorCode;
use phux_core::exit_code::SUCCESS;
use serde::Serialize;

use super::manager::Manager;
use super::SERVICE_SCHEMA_VERSION;
use crate::failure::Failure;
use crate::output;

/// Stop, disable and remove the phux user unit (or launchd agent)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the outcome as JSON
    #[arg(long)]
    pub json: bool,
}

/// `phux service uninstall --json`.
#[derive(Debug, Serialize)]
pub struct UninstallJson {
    pub schema_version: u32,
    /// `systemd` or `launchd`.
    pub manager: &'static str,
    pub unit: String,
    pub removed: bool,
}

pub fn run(args: Args) -> i32 {
    let manager = match Manager::here() {
        Ok(manager) => manager,
        Err(failure) => return failure.report(args.json),
    };
    let path = manager.file();
    if !path.exists() {
        return report(&args, manager, &path, false);
    }
    if manager.available() {
        manager.stop();
    }
    if let Err(e) = std::fs::remove_file(&path) {
        return Failure::new(
            ErrorCode::Registry,
            format!("cannot remove {}: {e}", path.display()),
            "check that the file is yours",
        )
        .report(args.json);
    }
    if manager.available() {
        manager.forget();
    }
    report(&args, manager, &path, true)
}

fn report(args: &Args, manager: Manager, path: &std::path::Path, removed: bool) -> i32 {
    let unit = path.display().to_string();
    if args.json {
        output::print_json(&UninstallJson {
            schema_version: SERVICE_SCHEMA_VERSION,
            manager: manager.name(),
            unit,
            removed,
        });
    } else if removed {
        output::print_line(&format!("removed {unit}"));
    } else {
        output::print_line(&format!("{unit} is not installed"));
    }
    SUCCESS
}
