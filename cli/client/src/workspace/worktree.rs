//! `phux worktree`: a repository's git worktrees bound to sessions. A worktree's session is
//! named from its directory (`~/src/app-fix` → `app-fix`); `new` makes the worktree and starts
//! its session there, `rm` removes a clean worktree and ends its session. Nothing here prints.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::lifecycle::ProcessSpec;
use crate::workspace::git::{canonical, git, inspect};
use crate::workspace::WorkspaceError;
use crate::Client;

/// One worktree and the session bound to it.
#[derive(Debug, Clone, Serialize)]
pub struct BoundWorktree {
    pub path: String,
    pub branch: Option<String>,
    pub head: Option<String>,
    pub current: bool,
    /// The session named after the worktree's directory.
    pub session: String,
    /// Whether that session runs on the server (false when none answers).
    pub live: bool,
}

/// The session name a worktree at `path` is bound to: its directory's name, with every
/// character a session name may not hold made `-`.
pub fn session_name(path: &Path) -> String {
    let base = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "worktree".to_owned());
    let name: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .take(64)
        .collect();
    if name.is_empty() {
        "worktree".to_owned()
    } else {
        name
    }
}

/// The worktrees of the repository `path` is in, each with its session.
pub fn list(
    path: &Path,
    client: Option<&mut Client>,
) -> Result<Vec<BoundWorktree>, WorkspaceError> {
    let listing = inspect(path)?;
    let sessions: Vec<String> = match client {
        Some(client) => client
            .state()
            .map(|s| s.sessions.into_iter().map(|s| s.name).collect())
            .unwrap_or_default(),
        None => Vec::new(),
    };
    Ok(listing
        .worktrees
        .into_iter()
        .map(|w| {
            let session = session_name(Path::new(&w.path));
            BoundWorktree {
                live: sessions.contains(&session),
                path: w.path,
                branch: w.branch,
                head: w.head,
                current: w.current,
                session,
            }
        })
        .collect())
}

/// What `new` made.
#[derive(Debug, Clone, Serialize)]
pub struct NewWorktree {
    pub path: String,
    pub branch: String,
    pub session: String,
    pub terminal_id: phux_core::ids::PaneId,
}

/// Makes a worktree for `branch` (created from `from`, else HEAD, when it does not exist) at
/// `path` (default: beside the repository, `REPO-BRANCH`) and starts its session there.
pub fn create(
    repo: &Path,
    branch: &str,
    path: Option<&Path>,
    from: Option<&str>,
    session: Option<&str>,
    client: &mut Client,
) -> Result<NewWorktree, WorkspaceError> {
    if branch.starts_with('-') || branch.is_empty() {
        return Err(WorkspaceError::GitFailed {
            command: "worktree add".into(),
            stderr: format!("{branch:?} is no branch name"),
        });
    }
    let top = PathBuf::from(canonical(
        git(repo, &["rev-parse", "--show-toplevel"])?.trim(),
    ));
    let path = match path {
        Some(path) => std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
        None => {
            let repo_name = top
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            let parent = top.parent().unwrap_or(&top);
            parent.join(format!("{repo_name}-{}", branch.replace('/', "-")))
        }
    };
    let path_text = path.display().to_string();
    let exists = git(
        &top,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("refs/heads/{branch}"),
        ],
    )
    .is_ok();
    if exists {
        git(&top, &["worktree", "add", "--", &path_text, branch])?;
    } else {
        let mut args = vec!["worktree", "add", "-b", branch, "--", &path_text];
        if let Some(from) = from {
            args.push(from);
        }
        git(&top, &args)?;
    }
    let session = session.map_or_else(|| session_name(&path), str::to_owned);
    let spec = ProcessSpec {
        cwd: Some(path.clone()),
        env: Vec::new(),
        command: None,
        history_limit: None,
    };
    let made = crate::lifecycle::new_session(client, Some(session.clone()), spec)?;
    Ok(NewWorktree {
        path: path_text,
        branch: branch.to_owned(),
        session,
        terminal_id: made.terminal_id,
    })
}

/// What `rm` did.
#[derive(Debug, Clone, Serialize)]
pub struct RemovedWorktree {
    pub path: String,
    pub session: String,
    /// The worktree's session was running and was ended.
    pub session_killed: bool,
}

/// Removes the worktree at `target` (a path, or the branch it has out), refusing one with
/// changes not committed unless `force`, and ends its session.
pub fn remove(
    repo: &Path,
    target: &str,
    force: bool,
    client: Option<&mut Client>,
) -> Result<RemovedWorktree, WorkspaceError> {
    let worktrees = inspect(repo)?.worktrees;
    let wanted = canonical(target);
    let found = worktrees
        .iter()
        .find(|w| w.path == wanted || w.branch.as_deref() == Some(target))
        .ok_or_else(|| WorkspaceError::GitFailed {
            command: "worktree remove".into(),
            stderr: format!("no worktree of this repository is at or has out {target:?}"),
        })?;
    if found.current && worktrees.first().is_some_and(|w| w.path == found.path) {
        return Err(WorkspaceError::GitFailed {
            command: "worktree remove".into(),
            stderr: format!("{} is the repository's main worktree", found.path),
        });
    }
    let path = PathBuf::from(&found.path);
    if !force {
        let dirty = git(&path, &["status", "--porcelain"])?;
        if !dirty.trim().is_empty() {
            return Err(WorkspaceError::GitFailed {
                command: "worktree remove".into(),
                stderr: format!(
                    "{} has changes not committed ({} paths); nothing was removed (--force removes it anyway)",
                    found.path,
                    dirty.lines().count()
                ),
            });
        }
    }
    let mut args = vec!["worktree", "remove"];
    if force {
        args.push("--force");
    }
    args.push("--");
    args.push(&found.path);
    let main = worktrees
        .first()
        .map(|w| PathBuf::from(&w.path))
        .unwrap_or_else(|| path.clone());
    git(&main, &args)?;
    let session = session_name(&path);
    let mut session_killed = false;
    if let Some(client) = client {
        let live = client
            .state()
            .is_ok_and(|s| s.sessions.iter().any(|s| s.name == session));
        if live {
            let _: phux_core::wire::Done = client.request(
                phux_core::wire::ClientMessage::KillSession(phux_core::wire::KillSession {
                    id: 0,
                    session: session.clone(),
                }),
            )?;
            session_killed = true;
        }
    }
    Ok(RemovedWorktree {
        path: found.path.clone(),
        session,
        session_killed,
    })
}
