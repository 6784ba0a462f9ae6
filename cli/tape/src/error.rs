//! A tape that cannot run as written: which file, line and column, and what was expected.

use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}:{line}:{col}: {message}", file.display())]
pub struct TapeError {
    pub file: PathBuf,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl TapeError {
    pub fn at(file: &Path, line: usize, col: usize, message: impl Into<String>) -> TapeError {
        TapeError {
            file: file.to_path_buf(),
            line,
            col,
            message: message.into(),
        }
    }
}
