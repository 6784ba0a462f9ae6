//! Beyond one server: hosts and satellites, workspaces and worktrees.

mod hosts;
mod workspace;
mod worktree;
