//! `phux service status [--json]`: whether the unit file (or launchd plist) is installed and,
//! where its manager runs, whether it is enabled and active. Without the manager's tool it
//! says so and still succeeds.

use phux_core::exit_code::SUCCESS;
use serde::Serialize;

use super::manager::Manager;
use super::SERVICE_SCHEMA_VERSION;

use crate::output;

/// Say whether the phux user unit is installed, enabled and running
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print {schema_version, manager, unit, installed, systemctl, enabled, active} as JSON
    #[arg(long)]
    pub json: bool,
}

/// `phux service status --json`.
#[derive(Debug, Serialize)]
pub struct StatusJson {
    pub schema_version: u32,
    /// `systemd` or `launchd`.
    pub manager: &'static str,
    pub unit: String,
    pub installed: bool,
    /// Whether the manager's tool (systemctl, or launchctl) can be used here; enabled and
    /// active are null without it.
    pub systemctl: bool,
    pub enabled: Option<bool>,
    pub active: Option<bool>,
}

pub fn run(args: Args) -> i32 {
    let manager = match Manager::here() {
        Ok(manager) => manager,
        Err(failure) => return failure.report(args.json),
    };
    let path = manager.file();
    let systemctl = manager.available();
    let doc = StatusJson {
        schema_version: SERVICE_SCHEMA_VERSION,
        manager: manager.name(),
        unit: path.display().to_string(),
        installed: path.is_file(),
        systemctl,
        enabled: systemctl.then(|| manager.enabled()),
        active: systemctl.then(|| manager.active()),
    };
    if args.json {
        output::print_json(&doc);
        return SUCCESS;
    }
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let mut lines = vec![format!(
        "unit        {} ({})",
        doc.unit,
        if doc.installed {
            "installed"
        } else {
            "not installed"
        }
    )];
    match (doc.enabled, doc.active) {
        (Some(enabled), Some(active)) => {
            lines.push(format!("enabled     {}", yes_no(enabled)));
            lines.push(format!("active      {}", yes_no(active)));
        }
        _ => lines.push(format!(
            "{} not available: cannot tell whether it is enabled",
            manager.tool()
        )),
    }
    output::print_lines(&lines);
    SUCCESS
}
