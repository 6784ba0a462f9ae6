//! What can go wrong with a workspace: git failing or refusing the path, an archive that
//! cannot be read. Every case is the `workspace` error code.

use phux_core::error_code::ErrorCode;
use phux_core::error_doc::ContractError;

use crate::ClientError;

#[derive(Debug, thiserror::Error)]
pub enum WorkspaceError {
    #[error("{path} is not inside a git repository")]
    NotARepository { path: String },
    #[error("cannot run git: {0}")]
    GitMissing(std::io::Error),
    #[error("git {command} failed: {stderr}")]
    GitFailed { command: String, stderr: String },
    #[error("cannot read the output of git {command}: {problem}")]
    GitOutput { command: String, problem: String },
    #[error("cannot read the archive {source_name}: {problem}")]
    Archive {
        source_name: String,
        problem: String,
    },
    #[error("cannot write {path}: {problem}")]
    Write { path: String, problem: String },
    #[error(transparent)]
    Client(#[from] ClientError),
}

impl ContractError for WorkspaceError {
    fn code(&self) -> ErrorCode {
        match self {
            WorkspaceError::Client(e) => e.code(),
            _ => ErrorCode::Workspace,
        }
    }

    fn remedy(&self) -> String {
        match self {
            WorkspaceError::NotARepository { .. } => {
                "run it inside a git work tree, or give one: `phux workspace inspect PATH`".into()
            }
            WorkspaceError::GitMissing(_) => "install git".into(),
            WorkspaceError::GitFailed { .. } | WorkspaceError::GitOutput { .. } => {
                "check the repository with `git worktree list`".into()
            }
            WorkspaceError::Archive { .. } => {
                "give a file written by `phux workspace save` (JSON, schema_version 1 or 2)".into()
            }
            WorkspaceError::Write { .. } => "choose a writable --output path".into(),
            WorkspaceError::Client(e) => e.remedy(),
        }
    }

    fn exit_code(&self) -> i32 {
        match self {
            WorkspaceError::Client(e) => e.exit_code(),
            _ => self.code().default_exit_code(),
        }
    }
}
