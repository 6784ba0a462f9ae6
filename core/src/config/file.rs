//! Loading `config.toml`: the typed file, and warnings for keys it does not know. A missing
//! file is the defaults; a file that is not TOML, or whose values have the wrong type, is an
//! error naming the file, line and column.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::defaults::Defaults;
use super::keybindings::Keybindings;
use super::location::{line_col, line_of};
use super::schema::{shape_of, Shape};

/// The whole file, one typed struct per table.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ConfigFile {
    pub defaults: Defaults,
    pub keybindings: Keybindings,
    pub plugins: Vec<PluginEntry>,
    /// The host list's tables (`hosts::host_list`), kept as written (their owner parses them).
    pub satellites: Vec<toml::Table>,
    pub remote: Vec<toml::Table>,
    /// Shown only when set: a file without `[listener]` reads as it always did.
    #[serde(skip_serializing_if = "super::listener::Listener::is_off")]
    pub listener: super::listener::Listener,
}

/// One `[[plugins]]` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PluginEntry {
    /// The manifest, absolute or relative to the config file.
    pub manifest: String,
    #[serde(default = "enabled_by_default")]
    pub enabled: bool,
}

fn enabled_by_default() -> bool {
    true
}

impl PluginEntry {
    pub const KEYS: &'static [&'static str] = &["manifest", "enabled"];

    /// The manifest's path, relative ones taken from the config file's directory.
    pub fn manifest_path(&self, config_path: &Path) -> PathBuf {
        let path = Path::new(&self.manifest);
        if path.is_absolute() {
            return path.to_path_buf();
        }
        config_path
            .parent()
            .unwrap_or_else(|| Path::new("."))
            .join(path)
    }
}

/// A key the file has that phux does not know.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConfigWarning {
    pub file: PathBuf,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ConfigWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file.display(), self.line, self.message)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {}: {source}", path.display())]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Too large, or not a regular file (`config.toml` symlinked to `/dev/zero` took a
    /// server past 4 GB in 4 s, re-read every 500 ms).
    #[error(transparent)]
    Bounded(crate::bounded_read::BoundedReadError),
    /// Well-formed TOML with a value of the wrong type or out of range: `config check`
    /// reports it as a problem of the file, not as a file it cannot check.
    #[error("{}:{line}:{column}: {message}", path.display())]
    BadValue {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{}:{line}:{column}: {message}", path.display())]
    Malformed {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
}

impl ConfigError {
    pub fn remedy(&self) -> String {
        match self {
            ConfigError::Unreadable { path, .. } => format!(
                "check that {} is a readable file (PHUX_CONFIG chooses another)",
                path.display()
            ),
            ConfigError::Bounded(e) => e.remedy(),
            ConfigError::Malformed { path, line, .. }
            | ConfigError::BadValue { path, line, .. } => format!(
                "fix line {line} of {} (`phux config check` lists every problem)",
                path.display()
            ),
        }
    }
}

/// The file as loaded: where it is, whether it exists, its contents and its warnings.
#[derive(Debug, Clone, Default)]
pub struct LoadedConfig {
    pub path: PathBuf,
    pub exists: bool,
    pub file: ConfigFile,
    pub warnings: Vec<ConfigWarning>,
}

/// The text of the config file at `path`, `None` when there is none; a file larger than
/// [`MAX_TEXT_FILE_BYTES`](crate::bounded_read::MAX_TEXT_FILE_BYTES) or not a regular file is
/// refused before it is read. Every reader of the config file comes here.
pub fn read_text(path: &Path) -> Result<Option<String>, ConfigError> {
    use crate::bounded_read::{self, BoundedReadError, MAX_TEXT_FILE_BYTES};
    match bounded_read::read_text(path, MAX_TEXT_FILE_BYTES, "a config file") {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.io_kind() == Some(std::io::ErrorKind::NotFound) => Ok(None),
        Err(BoundedReadError::Io { source, .. }) => Err(ConfigError::Unreadable {
            path: path.to_path_buf(),
            source,
        }),
        Err(e) => Err(ConfigError::Bounded(e)),
    }
}

/// Loads the config at `path`; a missing file is the defaults.
pub fn load(path: &Path) -> Result<LoadedConfig, ConfigError> {
    let Some(text) = read_text(path)? else {
        return Ok(LoadedConfig {
            path: path.to_path_buf(),
            ..LoadedConfig::default()
        });
    };
    let (file, warnings) = parse(path, &text)?;
    Ok(LoadedConfig {
        path: path.to_path_buf(),
        exists: true,
        file,
        warnings,
    })
}

/// Loads the config phux uses (`PHUX_CONFIG`, else the XDG path).
pub fn load_default() -> Result<LoadedConfig, ConfigError> {
    load(&super::paths::config_path())
}

/// Parses the text of the file at `path`.
pub fn parse(path: &Path, text: &str) -> Result<(ConfigFile, Vec<ConfigWarning>), ConfigError> {
    let malformed = |span: Option<std::ops::Range<usize>>, message: String| {
        let (line, column) = line_col(text, span.map_or(0, |s| s.start));
        ConfigError::Malformed {
            path: path.to_path_buf(),
            line,
            column,
            message,
        }
    };
    let document = toml_edit::Document::parse(text)
        .map_err(|e| malformed(e.span(), e.message().trim().to_string()))?;
    let file: ConfigFile = toml::from_str(text).map_err(|e| {
        let (line, column) = line_col(text, e.span().map_or(0, |s| s.start));
        ConfigError::BadValue {
            path: path.to_path_buf(),
            line,
            column,
            message: e.message().trim().to_string(),
        }
    })?;
    let warnings = unknown_keys(path, text, &document);
    Ok((file, warnings))
}

/// Every table and key the file has that [`super::schema::TABLES`] does not know.
fn unknown_keys(
    path: &Path,
    text: &str,
    document: &toml_edit::Document<&str>,
) -> Vec<ConfigWarning> {
    let mut warnings = Vec::new();
    let mut warn = |span: Option<std::ops::Range<usize>>, message: String| {
        warnings.push(ConfigWarning {
            file: path.to_path_buf(),
            line: span.map_or(1, |s| line_of(text, s.start)),
            message,
        });
    };
    for (key, item) in document.as_table().iter() {
        let span = document
            .as_table()
            .key(key)
            .and_then(toml_edit::Key::span)
            .or_else(|| item.span());
        match shape_of(key) {
            None => warn(span, format!("unknown table or key `{key}` (ignored)")),
            Some(Shape::Table(known)) => {
                if let Some(table) = item.as_table_like() {
                    for (inner, _) in table.iter() {
                        if !known.contains(&inner) {
                            let span = table.key(inner).and_then(toml_edit::Key::span);
                            warn(
                                span,
                                format!(
                                    "unknown key `{inner}` in [{key}] (ignored); known: {}",
                                    known.join(", ")
                                ),
                            );
                        }
                    }
                }
            }
            Some(Shape::ArrayOfTables(known)) => {
                if let Some(array) = item.as_array_of_tables() {
                    for table in array.iter() {
                        for (inner, _) in table.iter() {
                            if !known.contains(&inner) {
                                let span = table.key(inner).and_then(toml_edit::Key::span);
                                warn(
                                    span,
                                    format!(
                                        "unknown key `{inner}` in [[{key}]] (ignored); known: {}",
                                        known.join(", ")
                                    ),
                                );
                            }
                        }
                    }
                }
            }
            Some(Shape::FreeTable | Shape::Preserved) => {}
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> Result<(ConfigFile, Vec<ConfigWarning>), ConfigError> {
        parse(Path::new("/c/config.toml"), text)
    }

    #[test]
    fn the_tables_are_typed() {
        let (file, warnings) = parse_text(
            "[defaults]\nshell = \"/bin/bash\"\nhistory-limit = 500\nwindow-size = \"largest\"\n\
             [keybindings]\nprefix = \"C-b\"\n\"|\" = \"split-right\"\n\
             [[plugins]]\nmanifest = \"p/phux-plugin.toml\"\n\
             [[remote]]\nname = \"box\"\n",
        )
        .unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(file.defaults.shell.as_deref(), Some("/bin/bash"));
        assert_eq!(file.defaults.history_limit, Some(500));
        assert_eq!(file.keybindings.prefix.as_deref(), Some("C-b"));
        assert_eq!(file.keybindings.chords["|"], "split-right");
        assert!(file.plugins[0].enabled);
        assert_eq!(
            file.plugins[0].manifest_path(Path::new("/c/config.toml")),
            PathBuf::from("/c/p/phux-plugin.toml")
        );
        assert_eq!(file.remote[0]["name"].as_str(), Some("box"));
    }

    #[test]
    fn unknown_keys_are_warned_with_their_line() {
        let (_, warnings) =
            parse_text("[defaults]\nshell = \"sh\"\nshel = \"x\"\n\n[colors]\na = 1\n").unwrap();
        let lines: Vec<_> = warnings
            .iter()
            .map(|w| (w.line, w.message.clone()))
            .collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(lines[0].0, 3);
        assert!(lines[0].1.contains("`shel` in [defaults]"));
        assert_eq!(lines[1].0, 5);
        assert!(warnings[0].to_string().starts_with("/c/config.toml:3: "));
    }

    #[test]
    fn a_malformed_file_names_line_and_column() {
        let error = parse_text("[defaults]\nshell = \n").unwrap_err();
        let ConfigError::Malformed { line, column, .. } = &error else {
            panic!("{error}")
        };
        assert_eq!((*line, *column), (2, 9), "{error}");
        let error = parse_text("[defaults]\nhistory-limit = \"lots\"\n").unwrap_err();
        assert!(
            error.to_string().starts_with("/c/config.toml:2:"),
            "{error}"
        );
        // Well-formed TOML with a value of the wrong type: a bad value, not a malformed file.
        assert!(
            matches!(error, ConfigError::BadValue { line: 2, .. }),
            "{error}"
        );
        let error = parse_text("[defaults]\nwindow-size = \"huge\"\n").unwrap_err();
        assert!(
            error.to_string().contains("huge") || error.to_string().contains("variant"),
            "{error}"
        );
    }
}
