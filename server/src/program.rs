//! Finding a pane's program before anything is started, the way `execvp` will look for it: a
//! name with a `/` is a path (relative to the pane's directory), any other name is searched in
//! the pane's `PATH`. A program that cannot be found or run is a spawn failure the request
//! answers at once, instead of a pane whose only output is the shim's complaint.

use std::path::{Path, PathBuf};

/// `PATH` when neither the pane's environment nor the server's has one (glibc's default).
const DEFAULT_PATH: &str = "/bin:/usr/bin";

/// Why a program cannot be started.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProgramError {
    #[error("no program to run")]
    Empty,
    #[error("cannot run {0}: no such file")]
    Missing(String),
    #[error("cannot run {0}: not an executable file")]
    NotExecutable(String),
    #[error("cannot run {name}: not found in PATH ({path})")]
    NotOnPath { name: String, path: String },
}

/// Checks that `program` names an executable file for a pane starting in `cwd` with `path`
/// (its `PATH`, else the server's).
pub fn check(program: &str, cwd: Option<&Path>, path: Option<&str>) -> Result<(), ProgramError> {
    if program.is_empty() {
        return Err(ProgramError::Empty);
    }
    if program.contains('/') {
        let file = match cwd {
            Some(cwd) if !program.starts_with('/') => cwd.join(program),
            _ => PathBuf::from(program),
        };
        return match executable(&file) {
            Some(true) => Ok(()),
            Some(false) => Err(ProgramError::NotExecutable(program.to_owned())),
            None => Err(ProgramError::Missing(program.to_owned())),
        };
    }
    let path = path
        .map(str::to_owned)
        .or_else(|| std::env::var("PATH").ok())
        .unwrap_or_else(|| DEFAULT_PATH.to_owned());
    let found = path.split(':').any(|dir| {
        // An empty entry means the current directory, as for execvp.
        let dir = match (dir.is_empty(), cwd) {
            (true, Some(cwd)) => cwd.to_path_buf(),
            (true, None) => PathBuf::from("."),
            (false, _) => PathBuf::from(dir),
        };
        executable(&dir.join(program)) == Some(true)
    });
    if found {
        Ok(())
    } else {
        Err(ProgramError::NotOnPath {
            name: program.to_owned(),
            path,
        })
    }
}

/// `None` when nothing is at `file`; otherwise whether it is a file we may execute.
fn executable(file: &Path) -> Option<bool> {
    let metadata = std::fs::metadata(file).ok()?;
    if !metadata.is_file() {
        return Some(false);
    }
    Some(rustix::fs::access(file, rustix::fs::Access::EXEC_OK).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_searched_in_path_and_paths_are_checked_as_given() {
        assert_eq!(check("sh", None, Some("/nowhere:/bin:/usr/bin")), Ok(()));
        assert!(matches!(
            check("no-such-program-here", None, Some("/bin")),
            Err(ProgramError::NotOnPath { .. })
        ));
        assert_eq!(
            check("/no/such/cmd", None, None),
            Err(ProgramError::Missing("/no/such/cmd".into()))
        );
        assert_eq!(
            check("/etc", None, None),
            Err(ProgramError::NotExecutable("/etc".into()))
        );
        assert_eq!(check("/bin/sh", None, None), Ok(()));
        assert_eq!(check("./sh", Some(Path::new("/bin")), None), Ok(()));
    }
}
