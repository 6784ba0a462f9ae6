//! `phux engine install` and `phux engine status`: put the pinned libghostty-vt in place, and
//! say which library phux uses and whether it is the pinned one.

use crate::failure::Failure;
use crate::output::{print_error, print_json, print_line};
use clap::Subcommand;
use phux_core::engine::{self, data_dir, EngineError, LoaderConfig};
use phux_core::error_code::ErrorCode;
use std::path::PathBuf;

/// Install or inspect the terminal engine (libghostty-vt)
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Subcommand)]
enum Action {
    /// Download pyghostty==0.1.3 from PyPI with pip, verify it, and install the library
    Install {
        /// Install from this already-downloaded wheel instead of asking pip
        #[arg(long)]
        wheel: Option<PathBuf>,
        /// Print a JSON document instead of prose
        #[arg(long)]
        json: bool,
    },
    /// Show which engine library phux loads (installing it first if there is none)
    Status {
        /// Print a JSON document instead of prose
        #[arg(long)]
        json: bool,
    },
}

const SCHEMA_VERSION: u32 = 1;

pub fn run(args: Args) -> i32 {
    match args.action {
        Action::Install { wheel, json } => install(wheel, json),
        Action::Status { json } => status(json),
    }
}

fn install(wheel: Option<PathBuf>, json: bool) -> i32 {
    let dir = LoaderConfig::from_env().data_dir;
    match engine::install(&dir, wheel.as_deref()) {
        Ok(report) => {
            if json {
                print_json(&serde_json::json!({
                    "schema_version": SCHEMA_VERSION,
                    "path": report.path,
                    "sha256": report.sha256,
                    "wheel_sha256": report.wheel_sha256,
                }));
            } else {
                print_line(&format!(
                    "installed {} (sha256 {})",
                    report.path.display(),
                    report.sha256
                ));
            }
            0
        }
        Err(error) => {
            report_failure(&EngineError::Install(error), json);
            1
        }
    }
}

fn status(json: bool) -> i32 {
    match engine::engine() {
        Ok(loaded) => {
            let info = loaded.info();
            if json {
                print_json(&serde_json::json!({
                    "schema_version": SCHEMA_VERSION,
                    "ok": true,
                    "path": info.path,
                    "sha256": info.sha256,
                    "pinned": info.pinned,
                    "build": { "version": info.version, "optimize": info.optimize },
                    "wheel": engine::WHEEL_REQUIREMENT,
                }));
            } else {
                print_line(&format!("engine: {}", info.path));
                print_line(&format!(
                    "sha256: {} ({})",
                    info.sha256,
                    if info.pinned {
                        "pinned"
                    } else {
                        "NOT the pinned build"
                    }
                ));
                print_line(&format!(
                    "build:  libghostty-vt {} ({})",
                    info.version, info.optimize
                ));
            }
            0
        }
        Err(error) => {
            if json {
                // Like `phux status --json`, the document is printed even when the answer is "no".
                print_json(&serde_json::json!({
                    "schema_version": SCHEMA_VERSION,
                    "ok": false,
                    "path": null,
                    "sha256": null,
                    "searched": LoaderConfig::from_env().candidates(),
                    "data_dir": data_dir(),
                    "error": error.to_string(),
                    "remedy": error.remedy(),
                }));
            } else {
                print_error(&error.to_string(), &error.remedy());
            }
            1
        }
    }
}

fn report_failure(error: &EngineError, json: bool) {
    if json {
        // The code comes from the one vocabulary (§5.3), like every other verb's failure.
        Failure::new(
            ErrorCode::EngineUnavailable,
            error.to_string(),
            error.remedy(),
        )
        .report(true);
    } else {
        print_error(&error.to_string(), &error.remedy());
    }
}
