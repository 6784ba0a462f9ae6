//! `phux workspace restore ARCHIVE|-`: recreates the archived sessions that do not exist, with
//! their windows, split layouts, directories and commands (fresh processes); says which were
//! restored and which skipped (`--json`: `{schema_version: 2, restored, skipped_existing}`).
//! Starts a server when none runs.

use std::path::PathBuf;

pub use phux_client::verbs::workspace_restore::{document, read};
use phux_core::documents::WorkspaceRestoreJson;
use phux_core::exit_code::SUCCESS;

use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

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
