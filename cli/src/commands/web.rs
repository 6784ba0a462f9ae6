//! `phux web install`: fetch the browser's terminal (ghostty-web, pinned, integrity-checked)
//! into the data directory, so the listener's page works on a machine that will not reach the
//! npm registry later. `--from FILE` (or `PHUX_WEB_BUNDLE=FILE`) installs from a tarball
//! already on disk: `npm pack ghostty-web@VERSION` writes one on a machine with the registry.

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
    /// Fetch ghostty-web from the npm registry (or take it from --from FILE or
    /// $PHUX_WEB_BUNDLE), check its integrity hash and keep it in the data directory
    Install {
        /// Install again even when it is there
        #[arg(long)]
        force: bool,
        /// Install from this tarball (`npm pack ghostty-web@0.4.0` writes it) instead of the
        /// registry, for a machine without one; implies --force
        #[arg(long, value_name = "FILE")]
        from: Option<std::path::PathBuf>,
        /// Print {schema_version, package, version, integrity, path, installed}
        #[arg(long)]
        json: bool,
    },
}

pub fn run(args: Args) -> i32 {
    match args.action {
        Action::Install { force, from, json } => {
            conclude(json, install(force, from.as_deref(), json))
        }
    }
}

fn install(force: bool, from: Option<&std::path::Path>, json: bool) -> VerbResult {
    let existing = web_bundle::installed().filter(|_| !force && from.is_none());
    let (path, installed) = match existing {
        Some(path) => (path, false),
        None => {
            let done = match from {
                Some(file) => web_bundle::install_from(Some(file)),
                None => web_bundle::install(),
            };
            (done.map_err(|e| install_failure(&e, from))?, true)
        }
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

/// Why an install failed, with the way out that fits: a tarball that is not the pinned
/// release is replaced, a registry out of reach is done without.
fn install_failure(error: &web_bundle::WebError, from: Option<&std::path::Path>) -> Failure {
    let remedy = match (error, from) {
        (web_bundle::WebError::Fetch { .. }, _) => format!(
            "reach registry.npmjs.org, or run `npm pack {}@{}` on a machine that does and \
             `phux web install --from {}-{}.tgz` here",
            web_bundle::PACKAGE,
            web_bundle::VERSION,
            web_bundle::PACKAGE,
            web_bundle::VERSION
        ),
        (_, Some(_)) => format!(
            "give the tarball `npm pack {}@{}` writes (integrity {})",
            web_bundle::PACKAGE,
            web_bundle::VERSION,
            web_bundle::INTEGRITY
        ),
        _ => "check the data directory is writable, then run `phux web install --force`".into(),
    };
    let code = match error {
        web_bundle::WebError::Fetch { .. } => ErrorCode::UpdateFetchFailed,
        web_bundle::WebError::Integrity { .. } => ErrorCode::UpdateChecksumMismatch,
        web_bundle::WebError::Unpack { .. } => ErrorCode::UpdateArchiveRejected,
        web_bundle::WebError::Io(_) => ErrorCode::UpdateInstallFailed,
    };
    Failure::new(code, error.to_string(), remedy)
}
