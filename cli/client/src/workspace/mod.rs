//! Workspaces as a library: a repository's worktrees (`git worktree list --porcelain`), the
//! archive of a server's sessions, and restoring one. Nothing here prints.

pub mod archive;
mod error;
pub mod git;
pub mod restore;
pub mod worktree;

pub use error::WorkspaceError;
