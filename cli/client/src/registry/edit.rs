//! The lifecycle edits of `[[plugins]]`: link, unlink, enable, disable. Each takes the config
//! file's lock, re-reads it under the lock (so two `plugin link` at once both land), checks the
//! manifest before writing anything, and writes the file in place.

use std::path::{Path, PathBuf};

use phux_core::config::edit::ConfigEditor;
use phux_core::config::file::parse;
use phux_core::config::manifest::{self, ValidManifest};
use phux_core::config::paths::config_path;
use phux_core::config::PluginEntry;

use super::{same_file, Plugin, RegistryError};

/// Registers the plugin at `path` (a directory or its manifest).
pub fn link(path: &Path, enabled: bool) -> Result<Plugin, RegistryError> {
    let config = config_path();
    let valid = checked(path)?;
    let mut editor = ConfigEditor::open(&config)?;
    for (entry, manifest_path) in entries(&editor)? {
        let same_id = manifest::load(&manifest_path).is_ok_and(|m| m.id == valid.id);
        if same_id || same_file(&manifest_path, &valid.manifest_path) {
            return Err(RegistryError::AlreadyLinked {
                id: valid.id.clone(),
                manifest: entry.manifest_path(&config),
            });
        }
    }
    let manifest = valid.manifest_path.display().to_string();
    let mut table = toml_edit::Table::new();
    table["manifest"] = toml_edit::value(manifest.clone());
    table["enabled"] = toml_edit::value(enabled);
    editor.append_plugin(table);
    editor.commit()?;
    Ok(Plugin {
        entry: PluginEntry { manifest, enabled },
        valid,
    })
}

/// Removes the entry of plugin `id` (or whose manifest is at the path `id`); the manifest
/// itself is left alone. Works on an entry whose manifest is broken or gone, found by path.
pub fn unlink(id: &str) -> Result<Plugin, RegistryError> {
    let config = config_path();
    let mut editor = ConfigEditor::open(&config)?;
    let (index, plugin) = locate(&editor, &config, id)?;
    editor.remove("plugins", index);
    editor.commit()?;
    Ok(plugin)
}

/// Sets `enabled` on plugin `id`'s entry, keeping the rest of the entry as written.
pub fn set_enabled(id: &str, enabled: bool) -> Result<Plugin, RegistryError> {
    let config = config_path();
    let mut editor = ConfigEditor::open(&config)?;
    let (index, mut plugin) = locate(&editor, &config, id)?;
    if let Some(table) = editor.plugins().get_mut(index) {
        table["enabled"] = toml_edit::value(enabled);
    }
    editor.commit()?;
    plugin.entry.enabled = enabled;
    Ok(plugin)
}

/// The manifest at `path` (relative to here), checked.
fn checked(path: &Path) -> Result<ValidManifest, RegistryError> {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    manifest::load(&absolute).map_err(|error| RegistryError::Manifest { error })
}

/// The entries of the locked file, with each manifest's path.
fn entries(editor: &ConfigEditor) -> Result<Vec<(PluginEntry, PathBuf)>, RegistryError> {
    let (file, _) = parse(editor.path(), &editor.document.to_string())?;
    Ok(file
        .plugins
        .into_iter()
        .map(|e| {
            let path = e.manifest_path(editor.path());
            (e, path)
        })
        .collect())
}

/// The index and plugin of the entry named by `id`: a plugin id, or a manifest or plugin
/// directory path. An entry whose manifest no longer loads is still found by path.
fn locate(
    editor: &ConfigEditor,
    config: &Path,
    id: &str,
) -> Result<(usize, Plugin), RegistryError> {
    let as_path = manifest::manifest_path_of(Path::new(id));
    let mut known = Vec::new();
    for (index, (entry, manifest_path)) in entries(editor)?.into_iter().enumerate() {
        let loaded = manifest::load(&manifest_path);
        let by_path = same_file(&manifest_path, &as_path);
        match loaded {
            Ok(valid) if valid.id == id || by_path => return Ok((index, Plugin { entry, valid })),
            Ok(valid) => known.push(valid.id),
            Err(_) if by_path => {
                let valid = ValidManifest {
                    id: id.to_string(),
                    manifest: manifest::Manifest::default(),
                    plugin_root: manifest_path
                        .parent()
                        .map(Path::to_path_buf)
                        .unwrap_or_default(),
                    manifest_path,
                    warnings: Vec::new(),
                };
                return Ok((index, Plugin { entry, valid }));
            }
            Err(_) => known.push(entry.manifest.clone()),
        }
    }
    let _ = config;
    Err(RegistryError::NotRegistered {
        id: id.to_string(),
        known,
    })
}
