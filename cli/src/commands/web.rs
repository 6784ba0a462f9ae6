//! `phux web install`: fetch the browser's terminal (ghostty-web, pinned, integrity-checked)
//! into the data directory, so the listener's page works on a machine that will not reach the
//! npm registry later. `PHUX_WEB_BUNDLE=FILE` installs from a tarball already on disk.

use phux_core::error_code::ErrorCode;
use phux_core::exit_code::SUCCESS;
use phux_core::web_bundle;

use crate::failure::{conclude, Failure, VerbResult};
use crate::output;

/// The browser page's terminal: install the pinned ghostty-web release
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Fetch ghostty-web from the npm registry (or $PHUX_WEB_BUNDLE), check its integrity
    /// hash and keep it in the data directory
    Install {
        /// Install again even when it is there
        #[arg(long)]
        force: bool,
        /// Print {schema_version, package, version, integrity, path, installed}
        #[arg(long)]
        json: bool,
    },
}

pub fn run(args: Args) -> i32 {
    match args.action {
        Action::Install { force, json } => conclude(json, install(force, json)),
    }
}

fn install(force: bool, json: bool) -> VerbResult {
    let existing = web_bundle::installed().filter(|_| !force);
    let (path, installed) = match existing {
        Some(path) => (path, false),
        None => (
            web_bundle::install().map_err(|e| {
                Failure::new(
                    ErrorCode::UpdateFetchFailed,
                    e.to_string(),
                    format!(
                        "reach registry.npmjs.org, or download {} elsewhere and run with \
                         PHUX_WEB_BUNDLE=FILE",
                        web_bundle::TARBALL_URL
                    ),
                )
            })?,
            true,
        ),
    };
    if json {
        output::print_json(&serde_json::json!({
            "schema_version": 1,
            "package": web_bundle::PACKAGE,
            "version": web_bundle::VERSION,
            "integrity": web_bundle::INTEGRITY,
            "path": path.display().to_string(),
            "installed": installed,
        }));
    } else if installed {
        output::print_line(&format!(
            "installed {} {} ({})",
            web_bundle::PACKAGE,
            web_bundle::VERSION,
            path.display()
        ));
    } else {
        output::print_line(&format!(
            "{} {} is installed ({}); --force installs it again",
            web_bundle::PACKAGE,
            web_bundle::VERSION,
            path.display()
        ));
    }
    Ok(SUCCESS)
}
