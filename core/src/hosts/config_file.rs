//! Where `config.toml` lives (`$PHUX_CONFIG`, else `$XDG_CONFIG_HOME/phux/config.toml`, else
//! `~/.config/phux/config.toml`) and how the host verbs rewrite it: locked against a concurrent
//! writer, edited as a TOML document so the user's comments and order stay, written to a
//! temporary file and renamed into place.

use std::fs::File;
use std::path::{Path, PathBuf};

/// The config file of this process (the one `phux config path` names).
pub fn config_path() -> PathBuf {
    crate::config::paths::config_path()
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigFileError {
    #[error("cannot read {}: {source}", path.display())]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}:{line}:{column}: malformed TOML: {message}", path.display())]
    Malformed {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("cannot write {}: {source}", path.display())]
    Unwritable {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The file's text, empty when it does not exist.
pub fn read_text(path: &Path) -> Result<String, ConfigFileError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(source) => Err(ConfigFileError::Unreadable {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// The file parsed as an editable document.
pub fn read_document(path: &Path) -> Result<toml_edit::DocumentMut, ConfigFileError> {
    let text = read_text(path)?;
    text.parse::<toml_edit::DocumentMut>().map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        let (line, column) = line_col(&text, offset);
        ConfigFileError::Malformed {
            path: path.to_path_buf(),
            line,
            column,
            message: e.message().trim().to_owned(),
        }
    })
}

/// Runs `edit` on the document under an exclusive lock (`config.toml.lock`) and writes the
/// result back atomically when it returns `Ok`. A file that does not parse is never rewritten.
pub fn edit<T, E: From<ConfigFileError>>(
    path: &Path,
    edit: impl FnOnce(&mut toml_edit::DocumentMut) -> Result<T, E>,
) -> Result<T, E> {
    let unwritable = |source| ConfigFileError::Unwritable {
        path: path.to_path_buf(),
        source,
    };
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    std::fs::create_dir_all(dir).map_err(unwritable)?;
    let mut lock_name = path.file_name().unwrap_or_default().to_os_string();
    lock_name.push(".lock");
    let lock = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path.with_file_name(lock_name))
        .map_err(unwritable)?;
    rustix::fs::flock(&lock, rustix::fs::FlockOperation::LockExclusive)
        .map_err(|e| unwritable(e.into()))?;
    let mut document = read_document(path)?;
    let result = edit(&mut document)?;
    crate::config::edit::write_atomically(path, document.to_string().as_bytes()).map_err(|e| {
        match e {
            crate::config::edit::EditError::Write { source, .. } => unwritable(source),
            other => unwritable(std::io::Error::other(other.to_string())),
        }
    })?;
    Ok(result)
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}
