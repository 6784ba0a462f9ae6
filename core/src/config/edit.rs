//! Editing `config.toml` in place: the user's comments, order and spacing are kept (the file
//! is edited as a TOML document, not re-serialized), the new text goes to a temporary file
//! renamed over the old one, and an exclusive lock on `config.toml.lock` keeps two writers
//! (two `plugin link` at once) from losing each other's entry.

use std::fs::File;
use std::path::{Path, PathBuf};

use super::file::{parse, ConfigError};

#[derive(Debug, thiserror::Error)]
pub enum EditError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot lock {}: {source}", path.display())]
    Lock {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The config file, locked and parsed for editing. Dropping it without [`ConfigEditor::commit`]
/// changes nothing.
#[derive(Debug)]
pub struct ConfigEditor {
    path: PathBuf,
    pub document: toml_edit::DocumentMut,
    _lock: File,
}

impl ConfigEditor {
    /// Locks the file at `path` (waiting for another writer to finish) and reads it; a missing
    /// file is an empty document.
    pub fn open(path: &Path) -> Result<ConfigEditor, EditError> {
        let dir = path.parent().unwrap_or_else(|| Path::new("."));
        std::fs::create_dir_all(dir).map_err(|source| EditError::Write {
            path: dir.to_path_buf(),
            source,
        })?;
        let lock_path = lock_path(path);
        let lock = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|source| EditError::Lock {
                path: lock_path.clone(),
                source,
            })?;
        rustix::fs::flock(&lock, rustix::fs::FlockOperation::LockExclusive).map_err(|e| {
            EditError::Lock {
                path: lock_path.clone(),
                source: e.into(),
            }
        })?;
        let text = super::file::read_text(path)?.unwrap_or_default();
        // The same checks as a load: a writer never rewrites a file it could not read.
        parse(path, &text)?;
        let document =
            text.parse::<toml_edit::DocumentMut>()
                .map_err(|e| ConfigError::Malformed {
                    path: path.to_path_buf(),
                    line: 1,
                    column: 1,
                    message: e.message().to_string(),
                })?;
        Ok(ConfigEditor {
            path: path.to_path_buf(),
            document,
            _lock: lock,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The `[[plugins]]` array, created at the end of the file when missing.
    pub fn plugins(&mut self) -> &mut toml_edit::ArrayOfTables {
        self.array_of_tables("plugins")
    }

    /// The `[[name]]` array (`plugins`, `remote`, `satellites`), created when missing. A
    /// top-level key of that name that is not an array of tables is replaced.
    pub fn array_of_tables(&mut self, name: &str) -> &mut toml_edit::ArrayOfTables {
        let item = self
            .document
            .entry(name)
            .or_insert_with(|| toml_edit::Item::ArrayOfTables(toml_edit::ArrayOfTables::new()));
        if !item.is_array_of_tables() {
            *item = toml_edit::Item::ArrayOfTables(toml_edit::ArrayOfTables::new());
        }
        match item.as_array_of_tables_mut() {
            Some(array) => array,
            None => unreachable!("set to an array of tables above"),
        }
    }

    /// Appends a `[[plugins]]` entry (see [`ConfigEditor::append`]).
    pub fn append_plugin(&mut self, table: toml_edit::Table) {
        self.append("plugins", table);
    }

    /// Appends a `[[name]]` entry after everything in the file, comments included (the
    /// file's trailing comments stay above it rather than ending up inside it).
    pub fn append(&mut self, name: &str, mut table: toml_edit::Table) {
        let trailing = self
            .document
            .trailing()
            .as_str()
            .unwrap_or_default()
            .to_string();
        if !trailing.trim().is_empty() {
            let prefix = if trailing.ends_with('\n') {
                format!("{trailing}\n")
            } else {
                format!("{trailing}\n\n")
            };
            table.decor_mut().set_prefix(prefix);
            self.document.set_trailing("");
        }
        self.array_of_tables(name).push(table);
    }

    /// Removes entry `index` of the `[[name]]` array (the array too when it empties). Comments
    /// written above the entry stay in the file: above the next entry, or at the end.
    pub fn remove(&mut self, name: &str, index: usize) {
        let array = self.array_of_tables(name);
        if index >= array.len() {
            return;
        }
        let removed = array.remove(index);
        let comments = removed
            .decor()
            .prefix()
            .and_then(|p| p.as_str())
            .filter(|p| p.contains('#'))
            .map(str::to_owned);
        let mut orphaned = None;
        match (comments, array.get_mut(index)) {
            (Some(comments), Some(next)) => {
                let own = next.decor().prefix().and_then(|p| p.as_str()).unwrap_or("");
                let joined = format!("{comments}{own}");
                next.decor_mut().set_prefix(joined);
            }
            (comments, _) => orphaned = comments,
        }
        if array.is_empty() {
            self.document.remove(name);
        }
        if let Some(comments) = orphaned {
            let trailing = self.document.trailing().as_str().unwrap_or("").to_owned();
            self.document.set_trailing(format!("{trailing}{comments}"));
        }
    }

    /// Writes the document to a temporary file beside the config and renames it into place,
    /// then releases the lock.
    pub fn commit(self) -> Result<(), EditError> {
        write_atomically(&self.path, self.document.to_string().as_bytes())
    }
}

/// `config.toml.lock` beside `config.toml`.
fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    path.with_file_name(name)
}

/// Writes `bytes` to `path` whole (see [`crate::atomic_file`]): a reader sees the old file or
/// the new one, never half of one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), EditError> {
    crate::atomic_file::write(path, bytes, crate::atomic_file::PUBLIC).map_err(|source| {
        EditError::Write {
            path: path.to_path_buf(),
            source,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_keeps_comments_and_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        let text = "# my settings\n[defaults]\nshell = \"/bin/zsh\" # mine\n\n[[remote]]\nname = \"box\"\n";
        std::fs::write(&path, text).unwrap();
        let mut editor = ConfigEditor::open(&path).unwrap();
        let mut entry = toml_edit::Table::new();
        entry["manifest"] = toml_edit::value("/p/phux-plugin.toml");
        editor.append_plugin(entry);
        editor.commit().unwrap();
        let after = std::fs::read_to_string(&path).unwrap();
        assert!(after.starts_with(text), "{after}");
        assert!(
            after.ends_with("[[plugins]]\nmanifest = \"/p/phux-plugin.toml\"\n"),
            "{after}"
        );
    }

    /// Comments at the end of the file stay above a new entry, not inside it.
    #[test]
    fn a_new_entry_goes_after_trailing_comments() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        let text = "[keybindings]\n# prefix = \"C-a\"\n";
        std::fs::write(&path, text).unwrap();
        let mut editor = ConfigEditor::open(&path).unwrap();
        let mut entry = toml_edit::Table::new();
        entry["manifest"] = toml_edit::value("/p");
        editor.append_plugin(entry);
        editor.commit().unwrap();
        let after = std::fs::read_to_string(&path).unwrap();
        assert_eq!(after, format!("{text}\n[[plugins]]\nmanifest = \"/p\"\n"));
    }

    #[test]
    fn a_malformed_file_is_not_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "[defaults\n").unwrap();
        assert!(ConfigEditor::open(&path).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "[defaults\n");
    }
}
