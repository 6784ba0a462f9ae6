//! `RunResult`: the `phux run --json` document on completion (§4.3), versioned like every other
//! document (`schema_version: 1`, added after the fact: additive).

use serde::{Deserialize, Serialize, Serializer};

/// The version `RunResult` documents carry.
pub const RUN_RESULT_SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
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
    /// The pane's output position once the command had finished (opaque; `wait --after`).
    pub mark: Option<u64>,
    /// `run --output FILE`: where the whole output was written (absolute).
    #[serde(default)]
    pub output_file: Option<String>,
}

/// The document as printed: `schema_version` first, then the fields in their order. (Kept out
/// of the struct so the code that builds a result never has to spell the version.)
#[derive(Serialize)]
struct Printed<'a> {
    schema_version: u32,
    command: &'a str,
    exit_code: i32,
    output: &'a str,
    duration_ms: u64,
    truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    mark: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_file: Option<&'a str>,
}

impl Serialize for RunResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Printed {
            schema_version: RUN_RESULT_SCHEMA_VERSION,
            command: &self.command,
            exit_code: self.exit_code,
            output: &self.output,
            duration_ms: self.duration_ms,
            truncated: self.truncated,
            mark: self.mark,
            output_file: self.output_file.as_deref(),
        }
        .serialize(serializer)
    }
}
