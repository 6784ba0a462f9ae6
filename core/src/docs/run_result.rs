//! `RunResult`: the `phux run --json` document on completion (§4.3; it has no `schema_version`).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunResult {
    pub command: String,
    /// The child's `$?`.
    pub exit_code: i32,
    /// The rows between the BEGIN and RC markers.
    pub output: String,
    /// Submit to sentinel seen: an upper bound on the child's runtime.
    pub duration_ms: u64,
    /// The BEGIN marker had scrolled away, so `output` is best effort.
    pub truncated: bool,
}
