//! `phux workspace inspect|save|restore` (§4.9): a repository's worktrees, the archive of a
//! server's sessions, and what a restore did.

use serde::{Deserialize, Serialize};

use crate::split::SplitDirection;

pub const WORKSPACE_INSPECT_SCHEMA_VERSION: u32 = 1;
pub const WORKSPACE_ARCHIVE_SCHEMA_VERSION: u32 = 2;
pub const WORKSPACE_RESTORE_SCHEMA_VERSION: u32 = 2;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkspaceInspectJson {
    pub schema_version: u32,
    /// The worktree the inspected path is in.
    pub repo: RepoInfo,
    /// Every worktree of the repository, the current one flagged.
    pub worktrees: Vec<WorktreeInfo>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepoInfo {
    pub path: String,
    pub head: Option<String>,
    pub branch: Option<String>,
    pub detached: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorktreeInfo {
    pub path: String,
    pub head: Option<String>,
    /// `None` for a detached worktree.
    pub branch: Option<String>,
    pub detached: bool,
    pub current: bool,
}

/// `workspace save`: every session, window and pane, enough to rebuild them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkspaceArchive {
    pub schema_version: u32,
    pub sessions: Vec<ArchivedSession>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArchivedSession {
    pub name: String,
    #[serde(default)]
    pub active: bool,
    pub windows: Vec<ArchivedWindow>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArchivedWindow {
    pub name: String,
    #[serde(default)]
    pub active: bool,
    pub panes: Vec<ArchivedPane>,
    /// The split tree, leaves naming panes by their index in `panes` (absent in schema 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<ArchivedLayout>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArchivedPane {
    #[serde(default)]
    pub active: bool,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub cwd: Option<String>,
    /// `None` for the default shell (or when unknown).
    #[serde(default)]
    pub command: Option<Vec<String>>,
    #[serde(default)]
    pub agent_session: Option<AgentSession>,
    pub cols: u16,
    pub rows: u16,
}

/// A launched agent's identity: provenance only; restore resumes it through the current
/// integration of the same plugin, never from archived argv.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentSession {
    pub plugin_id: String,
    pub integration_id: String,
    pub native_id: Option<String>,
}

/// A window's split tree: a pane (by index) or a split whose `first` keeps `ratio`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ArchivedLayout {
    Pane {
        pane: usize,
    },
    Split {
        split: SplitDirection,
        ratio: f64,
        first: Box<ArchivedLayout>,
        second: Box<ArchivedLayout>,
    },
}

/// `workspace restore`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkspaceRestoreJson {
    pub schema_version: u32,
    pub restored: Vec<String>,
    pub skipped_existing: Vec<String>,
}
