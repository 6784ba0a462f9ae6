//! `phux doctor --json`: each check of the installation with its verdict.

use serde::{Deserialize, Serialize};

pub const DOCTOR_SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoctorJson {
    pub schema_version: u32,
    /// No check failed (warnings allowed).
    pub ok: bool,
    /// How many checks failed.
    pub failed: u32,
    pub checks: Vec<DoctorCheck>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckStatus {
    Pass,
    Warn,
    Fail,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoctorCheck {
    pub name: String,
    pub status: CheckStatus,
    pub detail: String,
    /// What to do about a warning or failure; `None` on a pass.
    pub hint: Option<String>,
}
