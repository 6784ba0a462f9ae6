//! The rules directory: `*.toml` manifests that replace a built-in of the same kind or add a
//! kind (`$PHUX_AGENT_RULES_DIR`, default `$XDG_CONFIG_HOME/phux/agent-rules`). Shared by the
//! server's detector and the client's `agent explain --file` and `agent start`.

use std::path::PathBuf;

use crate::agents::{Manifest, ManifestError, ManifestSet};

/// Where override manifests live.
pub fn dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PHUX_AGENT_RULES_DIR") {
        return Some(PathBuf::from(dir));
    }
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(config.join("phux").join("agent-rules"))
}

/// The built-ins with the directory's manifests applied, and every file that was refused.
pub fn load() -> (ManifestSet, Vec<ManifestError>) {
    let mut errors = Vec::new();
    let mut set = match ManifestSet::builtin() {
        Ok(set) => set,
        Err(e) => {
            errors.push(e);
            ManifestSet::default()
        }
    };
    let Some(dir) = dir() else {
        return (set, errors);
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return (set, errors);
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    for path in paths {
        let origin = path.display().to_string();
        let loaded = crate::bounded_read::read_text(
            &path,
            crate::bounded_read::MAX_TEXT_FILE_BYTES,
            "an agent-rules file",
        )
        .map_err(|e| ManifestError {
            file: origin.clone(),
            rule: None,
            problem: e.to_string(),
            limit: None,
        })
        .and_then(|text| Manifest::parse(&origin, &text));
        match loaded {
            Ok(manifest) => set.insert(manifest),
            Err(e) => errors.push(e),
        }
    }
    (set, errors)
}
