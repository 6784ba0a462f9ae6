//! `plugin install REF` and `plugin update [ID]`: fetch a plugin (a git URL cloned with the
//! system `git`, a local directory copied without `.git`, or a `.tar`/`.tar.gz`/`.tgz` unpacked
//! with the system `tar`) into a staging directory, check its manifest, run its `[[build]]`
//! steps there with a time limit, and only then move it to `<data>/plugins/ID` and record where
//! it came from in that directory's `plugins.lock`. A failing step leaves nothing behind.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use phux_core::config::manifest::{self, ValidManifest};
use phux_core::config::paths::installed_plugins_dir;
use phux_core::plugin_exec::{self, PluginCommand};
use serde::{Deserialize, Serialize};

use super::{action::plugin_env, edit, Plugin, RegistryError};

/// Each `[[build]]` step's time limit (`PHUX_BUILD_TIMEOUT` seconds overrides).
const BUILD_TIMEOUT: Duration = Duration::from_secs(600);
pub const LOCK_FILE: &str = "plugins.lock";

/// Where an installed plugin came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockEntry {
    pub id: String,
    /// `git`, `directory` or `tarball`.
    pub kind: String,
    pub source: String,
    pub rev: Option<String>,
    /// The commit checked out, for a git source.
    pub commit: Option<String>,
}

/// Installs from `source` and links the result (enabled unless `disabled`).
pub fn install(source: &str, rev: Option<&str>, disabled: bool) -> Result<Plugin, RegistryError> {
    let fail = |message: String| RegistryError::Install {
        source_ref: source.to_string(),
        message,
    };
    let root = installed_plugins_dir();
    std::fs::create_dir_all(&root)
        .map_err(|e| fail(format!("cannot create {}: {e}", root.display())))?;
    let staging = tempfile::Builder::new()
        .prefix(".staging-")
        .tempdir_in(&root)
        .map_err(|e| fail(format!("cannot stage in {}: {e}", root.display())))?;
    let lock = fetch(source, rev, staging.path())?;
    let staged = staging.path().join("plugin");
    let valid = check_and_build(source, &staged)?;
    let target = plugin_dir(&root, &valid.id).map_err(fail)?;
    if target.exists() {
        let config = super::load_config()?;
        let plugins = super::plugins(&config)?;
        if super::find(&plugins, &valid.id).is_ok() {
            return Err(fail(format!(
                "plugin {} is already installed at {}; `phux plugin update {}` refreshes it",
                valid.id,
                target.display(),
                valid.id
            )));
        }
        // Left behind by `plugin unlink` (which keeps a plugin's files): phux's own copy,
        // replaced by this install.
        remove_plugin_dir(&root, &target)
            .map_err(|e| fail(format!("cannot replace {}: {e}", target.display())))?;
    }
    write_lock(
        &staged,
        &LockEntry {
            id: valid.id.clone(),
            ..lock
        },
    )?;
    std::fs::rename(&staged, &target)
        .map_err(|e| fail(format!("cannot move into {}: {e}", target.display())))?;
    match edit::link(&target, !disabled) {
        Ok(plugin) => Ok(plugin),
        Err(error) => {
            let _ = remove_plugin_dir(&root, &target);
            Err(error)
        }
    }
}

/// `<root>/<id>`, for an id that names one directory inside `root` and nothing else.
fn plugin_dir(root: &Path, id: &str) -> Result<PathBuf, String> {
    if !manifest::valid_id(id) {
        return Err(format!(
            "{id:?} cannot name a plugin directory (ids are dot-separated segments of letters, digits, '-' or '_')"
        ));
    }
    Ok(root.join(id))
}

/// Removes a plugin's own copy, and nothing else: once symlinks are resolved, `target` must be
/// a directory directly inside the resolved `root` (never `root` itself, or anything above).
fn remove_plugin_dir(root: &Path, target: &Path) -> Result<(), String> {
    let refuse = || {
        format!(
            "refusing to remove {}: it is not a plugin directory inside {}",
            target.display(),
            root.display()
        )
    };
    let meta = std::fs::symlink_metadata(target).map_err(|e| e.to_string())?;
    if !meta.is_dir() {
        return Err(refuse());
    }
    let (root, resolved) = (
        root.canonicalize().map_err(|e| e.to_string())?,
        target.canonicalize().map_err(|e| e.to_string())?,
    );
    if resolved.parent() != Some(root.as_path()) || resolved.file_name() != target.file_name() {
        return Err(refuse());
    }
    std::fs::remove_dir_all(&resolved).map_err(|e| e.to_string())
}

/// Re-fetches an installed plugin from its lock, rebuilds and revalidates it, and swaps it in.
/// Refuses a fetched plugin whose id changed.
pub fn update(plugin: &Plugin) -> Result<Plugin, RegistryError> {
    let root_dir = &plugin.valid.plugin_root;
    let lock_path = root_dir.join(LOCK_FILE);
    let text = phux_core::bounded_read::read_text(
        &lock_path,
        phux_core::bounded_read::MAX_TEXT_FILE_BYTES,
        "a plugins.lock",
    )
    .map_err(|e| RegistryError::Install {
        source_ref: plugin.id().to_string(),
        message: format!(
            "{} was not installed by `phux plugin install` (no {}: {e})",
            plugin.id(),
            lock_path.display()
        ),
    })?;
    let lock: LockEntry = toml::from_str(&text).map_err(|e| RegistryError::Install {
        source_ref: lock_path.display().to_string(),
        message: e.message().to_string(),
    })?;
    let fail = |message: String| RegistryError::Install {
        source_ref: lock.source.clone(),
        message,
    };
    let parent = root_dir.parent().unwrap_or(root_dir);
    let staging = tempfile::Builder::new()
        .prefix(".staging-")
        .tempdir_in(parent)
        .map_err(|e| fail(format!("cannot stage: {e}")))?;
    let fetched = fetch(&lock.source, lock.rev.as_deref(), staging.path())?;
    let staged = staging.path().join("plugin");
    let valid = check_and_build(&lock.source, &staged)?;
    if valid.id != lock.id {
        return Err(fail(format!(
            "the fetched plugin's id is {:?}, not {:?}: install it as a new plugin instead",
            valid.id, lock.id
        )));
    }
    write_lock(
        &staged,
        &LockEntry {
            id: lock.id.clone(),
            ..fetched
        },
    )?;
    let old = staging.path().join("old");
    std::fs::rename(root_dir, &old)
        .map_err(|e| fail(format!("cannot replace {}: {e}", root_dir.display())))?;
    if let Err(e) = std::fs::rename(&staged, root_dir) {
        let _ = std::fs::rename(&old, root_dir);
        return Err(fail(format!("cannot replace {}: {e}", root_dir.display())));
    }
    let valid = manifest::load(root_dir).map_err(|error| RegistryError::Manifest { error })?;
    Ok(Plugin {
        entry: plugin.entry.clone(),
        valid,
    })
}

/// Whether the plugin lives where `install` puts plugins (it has a lock).
pub fn is_installed(plugin: &Plugin) -> bool {
    plugin.valid.plugin_root.join(LOCK_FILE).is_file()
}

/// Puts the plugin from `source` at `<staging>/plugin`.
fn fetch(source: &str, rev: Option<&str>, staging: &Path) -> Result<LockEntry, RegistryError> {
    let fail = |message: String| RegistryError::Install {
        source_ref: source.to_string(),
        message,
    };
    let dest = staging.join("plugin");
    // Neither reaches git as an option (`--upload-pack=...` would run a command).
    if source.starts_with('-') || rev.is_some_and(|r| r.starts_with('-')) {
        return Err(fail(
            "a source or --rev starting with '-' would be read by git as an option".into(),
        ));
    }
    let path = Path::new(source);
    let tarball = [".tar", ".tar.gz", ".tgz"]
        .iter()
        .any(|s| source.ends_with(s));
    let lock = |kind: &str, commit: Option<String>| LockEntry {
        id: String::new(),
        kind: kind.into(),
        source: absolute_source(source),
        rev: rev.map(str::to_string),
        commit,
    };
    if tarball && path.is_file() {
        let unpacked = staging.join("unpacked");
        std::fs::create_dir_all(&unpacked).map_err(|e| fail(e.to_string()))?;
        let tar_path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        refuse_special_entries(&tar_path).map_err(fail)?;
        run_tool(
            Command::new("tar")
                .arg("-xf")
                .arg(&tar_path)
                .arg("--no-same-owner")
                .arg("-C")
                .arg(&unpacked),
            "tar",
        )
        .map_err(fail)?;
        // Whatever the listing missed: nothing but files, directories and links is kept.
        only_plain_entries(&unpacked).map_err(fail)?;
        let top = single_top_dir(&unpacked).unwrap_or(unpacked);
        std::fs::rename(&top, &dest).map_err(|e| fail(e.to_string()))?;
        return Ok(lock("tarball", None));
    }
    if path.is_dir() {
        copy_tree(path, &dest).map_err(|e| fail(format!("cannot copy {}: {e}", path.display())))?;
        return Ok(lock("directory", None));
    }
    if looks_like_git(source) {
        let mut clone = Command::new("git");
        clone.args(["clone", "--quiet"]);
        if rev.is_none() {
            clone.args(["--depth", "1"]);
        }
        run_tool(clone.arg("--").arg(source).arg(&dest), "git clone").map_err(fail)?;
        if let Some(rev) = rev {
            run_tool(
                Command::new("git").arg("-C").arg(&dest).args([
                    "checkout",
                    "--quiet",
                    "--detach",
                    "--end-of-options",
                    rev,
                ]),
                "git checkout",
            )
            .map_err(fail)?;
        }
        let commit = Command::new("git")
            .arg("-C")
            .arg(&dest)
            .args(["rev-parse", "HEAD"])
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .filter(|c| !c.is_empty());
        let _ = std::fs::remove_dir_all(dest.join(".git"));
        return Ok(lock("git", commit));
    }
    Err(fail(
        "not a directory, a .tar/.tar.gz/.tgz file, or a git URL (https://, ssh://, git@, file://, or a path ending in .git)".into(),
    ))
}

/// Refuses an archive holding a device, a FIFO or anything else but files, directories and
/// links, before it is unpacked: `tar` run as root made a device node in a plugin. Read from
/// `tar -tv`, whose every entry line starts with its type (a name cannot hide one).
fn refuse_special_entries(archive: &Path) -> Result<(), String> {
    let output = Command::new("tar")
        .env("LC_ALL", "C")
        .arg("-tvf")
        .arg(archive)
        .output()
        .map_err(|e| format!("cannot run tar: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "tar cannot list the archive: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let listing = String::from_utf8_lossy(&output.stdout);
    match listing
        .lines()
        .find(|l| l.starts_with(['b', 'c', 'p', 's']))
    {
        Some(line) => Err(format!(
            "the archive holds a device, FIFO or socket ({}); a plugin holds only files, \
             directories and links",
            phux_core::limits::for_display(line)
        )),
        None => Ok(()),
    }
}

/// Refuses a tree holding anything but regular files, directories and symlinks.
fn only_plain_entries(dir: &Path) -> Result<(), String> {
    for entry in std::fs::read_dir(dir).map_err(|e| e.to_string())? {
        let entry = entry.map_err(|e| e.to_string())?;
        let kind = entry.file_type().map_err(|e| e.to_string())?;
        if kind.is_dir() {
            only_plain_entries(&entry.path())?;
        } else if !kind.is_file() && !kind.is_symlink() {
            return Err(format!(
                "the archive holds {}, which is not a file, a directory or a link",
                entry.path().display()
            ));
        }
    }
    Ok(())
}

fn looks_like_git(source: &str) -> bool {
    source.contains("://") || source.starts_with("git@") || source.ends_with(".git")
}

/// A path source made absolute, so `update` finds it from anywhere.
fn absolute_source(source: &str) -> String {
    let path = Path::new(source);
    if path.exists() {
        std::path::absolute(path).map_or_else(|_| source.to_string(), |p| p.display().to_string())
    } else {
        source.to_string()
    }
}

/// Checks the staged manifest and runs its build steps from the staged root.
fn check_and_build(source: &str, staged: &Path) -> Result<ValidManifest, RegistryError> {
    let valid = manifest::load(staged).map_err(|error| RegistryError::Manifest { error })?;
    let timeout = std::env::var("PHUX_BUILD_TIMEOUT")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(BUILD_TIMEOUT, Duration::from_secs);
    let plugin = Plugin {
        entry: phux_core::config::PluginEntry {
            manifest: valid.manifest_path.display().to_string(),
            enabled: true,
        },
        valid: valid.clone(),
    };
    for step in &valid.manifest.build {
        let id = step.id.clone().unwrap_or_default();
        let argv = step.command.clone().unwrap_or_default();
        let done = plugin_exec::run(&PluginCommand {
            argv: argv.clone(),
            cwd: staged.to_path_buf(),
            env: plugin_env(&plugin, "PHUX_PLUGIN_BUILD_ID", &id),
            stdin: None,
            timeout: Some(timeout),
            echo: false,
            cancel: None,
        })
        .map_err(|e| RegistryError::Install {
            source_ref: source.to_string(),
            message: format!(
                "build step `{id}` could not start `{}`: {e}",
                argv.first().map_or("", String::as_str)
            ),
        })?;
        if done.timed_out || done.exit_code != Some(0) {
            let how = if done.timed_out {
                format!("was killed after {}s", timeout.as_secs())
            } else {
                match done.exit_code {
                    Some(code) => format!("exited with {code}"),
                    None => "was ended by a signal".to_owned(),
                }
            };
            let tail = String::from_utf8_lossy(&done.stderr);
            let tail: Vec<&str> = tail.lines().rev().take(5).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            return Err(RegistryError::Install {
                source_ref: source.to_string(),
                message: format!(
                    "build step {id:?} ({}) {how}; nothing was installed{}",
                    argv.join(" "),
                    if tail.is_empty() {
                        String::new()
                    } else {
                        format!("\n{}", tail.join("\n"))
                    }
                ),
            });
        }
    }
    Ok(valid)
}

fn write_lock(dir: &Path, lock: &LockEntry) -> Result<(), RegistryError> {
    let text = toml::to_string(lock).unwrap_or_default();
    let header = "# Written by `phux plugin install`: where this plugin came from, for `phux plugin update`.\n";
    std::fs::write(dir.join(LOCK_FILE), format!("{header}{text}")).map_err(|e| {
        RegistryError::Install {
            source_ref: lock.source.clone(),
            message: format!("cannot write {LOCK_FILE}: {e}"),
        }
    })
}

fn run_tool(command: &mut Command, name: &str) -> Result<(), String> {
    let output = command
        .output()
        .map_err(|e| format!("cannot run {name}: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{name} failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}

/// Where an archive's plugin is: the unpacked directory itself when the manifest is at its
/// top, else the one directory it made.
fn single_top_dir(dir: &Path) -> Option<PathBuf> {
    if dir.join(manifest::MANIFEST_FILE).exists() {
        return None;
    }
    let entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    match entries.as_slice() {
        [only] if only.is_dir() => Some(only.clone()),
        _ => None,
    }
}

/// Copies a directory tree, leaving out `.git`; symlinks are copied as links.
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        if name == ".git" {
            continue;
        }
        let (src, dst) = (entry.path(), to.join(&name));
        let kind = entry.file_type()?;
        if kind.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(&src)?, &dst)?;
        } else if kind.is_dir() {
            copy_tree(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst)?;
        }
    }
    Ok(())
}
