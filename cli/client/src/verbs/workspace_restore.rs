//! `workspace restore`'s operation: reads an archive and recreates the sessions it holds that
//! do not exist, starting a server when none runs.

use std::path::Path;

use phux_core::documents::WorkspaceRestoreJson;

use crate::failure::Failure;
use crate::output;
use crate::registry::integrations;
use crate::registry::registered;
use crate::workspace::{archive, restore, WorkspaceError};
use crate::Context;

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
    // Quiet: a document may follow on stdout.
    let mut client = crate::autostart::ensure_server_saying(&context.socket, true)?;
    Ok(restore::restore(&mut client, &document, &available)?)
}
