//! `phux ask --json`: the ask that was reported on a pane.

use serde::{Deserialize, Serialize};

use crate::ids::TerminalAddr;

pub const ASK_SCHEMA_VERSION: u32 = 1;

/// `{schema_version, event:"asked", terminal, id, question, suggestions, elapsed_seconds}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AskJson {
    pub schema_version: u32,
    /// Always `"asked"`.
    pub event: String,
    pub terminal: TerminalAddr,
    pub id: String,
    pub question: String,
    pub suggestions: Vec<String>,
    pub elapsed_seconds: Option<u64>,
}

impl AskJson {
    pub fn new(
        terminal: TerminalAddr,
        id: impl Into<String>,
        question: impl Into<String>,
        suggestions: Vec<String>,
        elapsed_seconds: Option<u64>,
    ) -> Self {
        AskJson {
            schema_version: ASK_SCHEMA_VERSION,
            event: "asked".to_owned(),
            terminal,
            id: id.into(),
            question: question.into(),
            suggestions,
            elapsed_seconds,
        }
    }
}
