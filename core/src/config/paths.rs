//! Where phux's files are: the config file (`PHUX_CONFIG`, else
//! `$XDG_CONFIG_HOME/phux/config.toml`, else `~/.config/phux/config.toml`) and the data
//! directory plugins are installed into (`$XDG_DATA_HOME/phux`, else `~/.local/share/phux`).

use std::path::PathBuf;

/// The config file's path. It need not exist: a missing file means the defaults.
pub fn config_path() -> PathBuf {
    if let Some(path) = non_empty_var("PHUX_CONFIG") {
        return PathBuf::from(path);
    }
    config_home().join("phux").join("config.toml")
}

/// `$XDG_CONFIG_HOME`, else `$HOME/.config`.
fn config_home() -> PathBuf {
    non_empty_var("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| home().join(".config"))
}

/// phux's data directory: `$XDG_DATA_HOME/phux`, else `$HOME/.local/share/phux`.
pub fn data_dir() -> PathBuf {
    non_empty_var("XDG_DATA_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| home().join(".local").join("share"))
        .join("phux")
}

/// phux's state directory: `$XDG_STATE_HOME/phux`, else `$HOME/.local/state/phux` (the remote
/// listener's token store and certificate live here).
pub fn state_dir() -> PathBuf {
    non_empty_var("XDG_STATE_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| home().join(".local").join("state"))
        .join("phux")
}

/// Where `plugin install` puts a plugin: `<data>/plugins/ID`.
pub fn installed_plugins_dir() -> PathBuf {
    data_dir().join("plugins")
}

fn home() -> PathBuf {
    non_empty_var("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/"))
}

fn non_empty_var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}
