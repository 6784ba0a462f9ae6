//! `workspace save`'s operation: the server's sessions as an archive, and writing it atomically.

use std::path::Path;

use phux_core::config::edit::write_atomically;
use phux_core::documents::WorkspaceArchive;

use crate::failure::Failure;
use crate::values::connect;
use crate::workspace::{archive, WorkspaceError};
use crate::Context;

/// The server's sessions as an archive (the `phux_workspace` tool's `save` result too).
pub fn document(context: &Context) -> Result<WorkspaceArchive, Failure> {
    let mut client = connect(context)?;
    Ok(archive::save(&mut client)?)
}

/// Writes `document` to `path` atomically, as pretty JSON.
pub fn write(path: &Path, document: &WorkspaceArchive) -> Result<(), Failure> {
    let mut text = serde_json::to_vec_pretty(document).unwrap_or_default();
    text.push(b'\n');
    write_atomically(path, &text).map_err(|e| {
        Failure::from(WorkspaceError::Write {
            path: path.display().to_string(),
            problem: e.to_string(),
        })
    })
}
