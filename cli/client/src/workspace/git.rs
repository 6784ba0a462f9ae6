//! `workspace inspect`: the worktree a path is in and its siblings, from git's porcelain
//! worktree listing. Read-only.

use std::path::Path;
use std::process::Command;

use phux_core::documents::{
    RepoInfo, WorkspaceInspectJson, WorktreeInfo, WORKSPACE_INSPECT_SCHEMA_VERSION,
};

use super::WorkspaceError;

/// Inspects the repository `path` is in.
pub fn inspect(path: &Path) -> Result<WorkspaceInspectJson, WorkspaceError> {
    if !path.exists() {
        return Err(WorkspaceError::NotARepository {
            path: format!("{} (no such path)", path.display()),
        });
    }
    let dir = if path.is_dir() {
        path
    } else {
        path.parent().unwrap_or(path)
    };
    let top = git(dir, &["rev-parse", "--show-toplevel"]).map_err(|e| match e {
        WorkspaceError::GitFailed { .. } => WorkspaceError::NotARepository {
            path: path.display().to_string(),
        },
        other => other,
    })?;
    let top = canonical(top.trim());
    let listing = git(Path::new(&top), &["worktree", "list", "--porcelain"])?;
    let worktrees = parse_porcelain(&listing, &top)?;
    let current = worktrees
        .iter()
        .find(|w| w.current)
        .cloned()
        .ok_or_else(|| WorkspaceError::GitOutput {
            command: "worktree list --porcelain".into(),
            problem: format!("{top} is not among the worktrees listed"),
        })?;
    Ok(WorkspaceInspectJson {
        schema_version: WORKSPACE_INSPECT_SCHEMA_VERSION,
        repo: RepoInfo {
            path: current.path,
            head: current.head,
            branch: current.branch,
            detached: current.detached,
        },
        worktrees,
    })
}

/// Parses `git worktree list --porcelain`: blocks of `worktree PATH`, `HEAD SHA`,
/// `branch refs/heads/NAME` or `detached` (and `bare`, `locked`, `prunable`), separated by
/// blank lines. `current` is the worktree at `top`.
pub fn parse_porcelain(text: &str, top: &str) -> Result<Vec<WorktreeInfo>, WorkspaceError> {
    let mut out = Vec::new();
    for block in text.split("\n\n").filter(|b| !b.trim().is_empty()) {
        let mut info = WorktreeInfo {
            path: String::new(),
            head: None,
            branch: None,
            detached: false,
            current: false,
        };
        for line in block.lines() {
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "worktree" => info.path = value.to_string(),
                "HEAD" => info.head = Some(value.to_string()),
                "branch" => {
                    info.branch = Some(
                        value
                            .strip_prefix("refs/heads/")
                            .unwrap_or(value)
                            .to_string(),
                    );
                }
                "detached" => info.detached = true,
                _ => {}
            }
        }
        if info.path.is_empty() {
            return Err(WorkspaceError::GitOutput {
                command: "worktree list --porcelain".into(),
                problem: format!("a block without a `worktree` line: {block:?}"),
            });
        }
        info.current = canonical(&info.path) == top;
        out.push(info);
    }
    Ok(out)
}

pub(crate) fn canonical(path: &str) -> String {
    std::fs::canonicalize(path).map_or_else(|_| path.to_string(), |p| p.display().to_string())
}

pub(crate) fn git(dir: &Path, args: &[&str]) -> Result<String, WorkspaceError> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(WorkspaceError::GitMissing)?;
    if !output.status.success() {
        return Err(WorkspaceError::GitFailed {
            command: args.join(" "),
            stderr: String::from_utf8_lossy(&output.stderr).trim().to_string(),
        });
    }
    String::from_utf8(output.stdout).map_err(|e| WorkspaceError::GitOutput {
        command: args.join(" "),
        problem: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn porcelain_blocks_become_worktrees() {
        let text = "worktree /r\nHEAD aaa\nbranch refs/heads/main\n\nworktree /r-x\nHEAD bbb\ndetached\n\n";
        let list = parse_porcelain(text, "/r").unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].branch.as_deref(), Some("main"));
        assert!(list[0].current);
        assert!(list[1].detached && list[1].branch.is_none() && !list[1].current);
    }
}
