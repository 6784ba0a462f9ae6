//! `phux tag ls|add|rm --json`: each resolved terminal with its complete tag list (§4.17).

use serde::{Deserialize, Serialize};

use crate::ids::TerminalAddr;

pub const TAG_SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TagRow {
    pub terminal: TerminalAddr,
    /// Read back from the server after a write; empty, never absent, when untagged.
    pub tags: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TagJson {
    pub schema_version: u32,
    pub terminals: Vec<TagRow>,
}

impl TagJson {
    pub fn new(terminals: Vec<TagRow>) -> Self {
        TagJson {
            schema_version: TAG_SCHEMA_VERSION,
            terminals,
        }
    }
}
