//! `phux service status [--json]`: whether the unit file is installed and, where systemd runs,
//! whether it is enabled and active. Without systemctl it says so and still succeeds.

use phux_core::exit_code::SUCCESS;
use serde::Serialize;

use super::{unit, SERVICE_SCHEMA_VERSION};
use crate::output;

/// Say whether the phux user unit is installed, enabled and running
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print {schema_version, unit, installed, systemctl, enabled, active} as JSON
    #[arg(long)]
    pub json: bool,
}

/// `phux service status --json`.
#[derive(Debug, Serialize)]
pub struct StatusJson {
    pub schema_version: u32,
    pub unit: String,
    pub installed: bool,
    /// Whether systemctl exists here; enabled and active are null without it.
    pub systemctl: bool,
    pub enabled: Option<bool>,
    pub active: Option<bool>,
}

pub fn run(args: Args) -> i32 {
    let path = unit::unit_path();
    let systemctl = unit::systemctl_available();
    let ask = |verb: &str| systemctl.then(|| unit::systemctl(&[verb, unit::UNIT]).0);
    let doc = StatusJson {
        schema_version: SERVICE_SCHEMA_VERSION,
        unit: path.display().to_string(),
        installed: path.is_file(),
        systemctl,
        enabled: ask("is-enabled"),
        active: ask("is-active"),
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
        _ => lines.push("systemctl not available: cannot tell whether it is enabled".into()),
    }
    output::print_lines(&lines);
    SUCCESS
}
