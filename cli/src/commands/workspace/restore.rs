//! `phux workspace restore ARCHIVE|-`: recreates the archived sessions that do not exist, with
//! their windows, split layouts, directories and commands (fresh processes); says which were
//! restored and which skipped (`--json`: `{schema_version: 2, restored, skipped_existing}`).
//! Starts a server when none runs.

use std::path::{Path, PathBuf};

use phux_core::docs::WorkspaceRestoreJson;
use phux_core::exit_code::SUCCESS;

use crate::client::ensure_server;
use crate::commands::plugin::registered;
use crate::commands::Context;
use crate::failure::{conclude, Failure, VerbResult};
use crate::output;
use crate::registry::integrations;
use crate::workspace::{archive, restore, WorkspaceError};

/// Recreate the sessions of a saved archive that do not exist yet
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The archive written by `phux workspace save`, or - for stdin
    #[arg(value_name = "ARCHIVE")]
    pub archive: PathBuf,
    /// Print a WorkspaceRestoreJson document instead of a line
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let name = args.archive.display().to_string();
    let text = read(&args.archive)?;
    let document = document(&text, &name, context)?;
    if args.json {
        output::print_json(&document);
    } else {
        output::print_line(&restored_line(&document));
    }
    Ok(SUCCESS)
}

/// `restored dev, logs; already running: ops`.
fn restored_line(document: &WorkspaceRestoreJson) -> String {
    let mut line = if document.restored.is_empty() {
        "restored no session".to_owned()
    } else {
        format!("restored {}", document.restored.join(", "))
    };
    if !document.skipped_existing.is_empty() {
        line.push_str(&format!(
            "; already running, left as they are: {}",
            document.skipped_existing.join(", ")
        ));
    }
    line
}

/// The archive's text: the file, or stdin for `-`.
/// At most [`MAX_DOCUMENT_BYTES`](bounded_read::MAX_DOCUMENT_BYTES), from a regular file or
/// stdin (`restore /dev/zero` passed 4 GB).
pub fn read(archive: &Path) -> Result<String, WorkspaceError> {
    use phux_core::bounded_read::{self, MAX_DOCUMENT_BYTES};
    const WHAT: &str = "a workspace archive";
    let name = archive.display().to_string();
    let fail = |problem: String| WorkspaceError::Archive {
        source_name: name.clone(),
        problem,
    };
    let bytes = if name == "-" {
        bounded_read::read_all(std::io::stdin().lock(), archive, MAX_DOCUMENT_BYTES, WHAT)
    } else {
        bounded_read::read_file(archive, MAX_DOCUMENT_BYTES, WHAT)
    }
    .map_err(|e| fail(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| fail(e.to_string()))
}

/// Restores the archive `text` (read from `name`) and returns what was restored and skipped
/// (the `phux_workspace` tool's `restore` result too).
pub fn document(
    text: &str,
    name: &str,
    context: &Context,
) -> Result<WorkspaceRestoreJson, Failure> {
    let document = archive::parse(text, name)?;
    // Agents resume only through an enabled integration; without a readable config, none do.
    let available = match registered().and_then(|p| integrations::available(&p)) {
        Ok(available) => available,
        Err(error) => {
            output::warn(&format!("{error}; launched agents restart as shells"));
            Vec::new()
        }
    };
    let mut client = ensure_server(&context.socket).map_err(WorkspaceError::from)?;
    Ok(restore::restore(&mut client, &document, &available)?)
}
