//! Finds libghostty-vt, checks its sha256 pin (or finds it remembered for this very file:
//! `verified_stamp`), loads it, resolves every symbol and verifies its ABI. The search order is
//! fixed: `$PHUX_ENGINE_LIB` alone when set; otherwise next to the executable,
//! `<exe>/../lib/phux/`, then the data directory.

use super::abi_check;
use super::error::{Attempt, EngineError};
use super::symbols::Symbols;
use super::verified_stamp;
use sha2::{Digest, Sha256};
use std::ffi::CStr;
use std::path::{Path, PathBuf};

pub const LIBRARY_FILE: &str = "libghostty-vt.so";
/// sha256 of `pyghostty/_lib/libghostty-vt.so` in the pinned wheel (DESIGN.md §3).
pub const LIBRARY_SHA256: &str = "2c89c656699fa7651e4d433801f1e6e6e6bc5326b6124c2e3646d4db69545822";

/// Where to look and how strict to be; `from_env` reads the process environment, tests build
/// their own.
#[derive(Debug, Clone)]
pub struct LoaderConfig {
    pub explicit: Option<PathBuf>,
    pub exe_dir: Option<PathBuf>,
    pub data_dir: PathBuf,
    pub allow_unpinned: bool,
    pub auto_install: bool,
}

impl LoaderConfig {
    pub fn from_env() -> Self {
        let explicit = std::env::var_os("PHUX_ENGINE_LIB")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from);
        let exe_dir = std::env::current_exe()
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf));
        Self {
            explicit,
            exe_dir,
            data_dir: data_dir(),
            allow_unpinned: env_flag("PHUX_ENGINE_ALLOW_UNPINNED"),
            auto_install: !env_flag("PHUX_NO_AUTO_INSTALL"),
        }
    }

    /// Every path the loader will try, in order.
    pub fn candidates(&self) -> Vec<PathBuf> {
        if let Some(path) = &self.explicit {
            return vec![path.clone()];
        }
        let mut paths = Vec::new();
        if let Some(dir) = &self.exe_dir {
            paths.push(dir.join(LIBRARY_FILE));
            paths.push(dir.join("..").join("lib").join("phux").join(LIBRARY_FILE));
        }
        paths.push(self.data_dir.join(LIBRARY_FILE));
        paths
    }
}

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// `$XDG_DATA_HOME/phux/lib`, defaulting to `~/.local/share/phux/lib`.
pub fn data_dir() -> PathBuf {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let home = std::env::var_os("HOME")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from("/"));
            home.join(".local").join("share")
        });
    base.join("phux").join("lib")
}

/// A loaded, verified library.
pub struct LoadedLibrary {
    pub path: PathBuf,
    pub sha256: String,
    pub symbols: Symbols,
    /// Kept so the function pointers in `symbols` stay valid.
    _library: libloading::Library,
}

/// Tries each candidate in order; the first one that passes every check wins.
pub fn load(config: &LoaderConfig) -> Result<LoadedLibrary, EngineError> {
    let mut attempts = Vec::new();
    for path in config.candidates() {
        match load_one(&path, config.allow_unpinned) {
            Ok(loaded) => return Ok(loaded),
            Err(LoadOutcome::Absent(reason)) => attempts.push(Attempt {
                path,
                outcome: reason,
            }),
            Err(LoadOutcome::Refused(error)) => {
                // An explicit path that is wrong is the user's answer: report it as it is.
                if config.explicit.is_some() {
                    return Err(error);
                }
                attempts.push(Attempt {
                    path,
                    outcome: error.to_string(),
                });
            }
        }
    }
    Err(EngineError::NotFound { attempts })
}

enum LoadOutcome {
    Absent(String),
    Refused(EngineError),
}

fn load_one(path: &Path, allow_unpinned: bool) -> Result<LoadedLibrary, LoadOutcome> {
    let absent = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => LoadOutcome::Absent("not found".into()),
        _ => LoadOutcome::Absent(format!("unreadable ({e})")),
    };
    let meta = std::fs::metadata(path).map_err(absent)?;
    if verified_stamp::remembers(path, &meta, LIBRARY_SHA256) {
        return open_verified(path, LIBRARY_SHA256.into()).map_err(LoadOutcome::Refused);
    }
    let bytes = std::fs::read(path).map_err(absent)?;
    let sha256 = sha256_hex(&bytes);
    if sha256 == LIBRARY_SHA256 {
        verified_stamp::remember(path, &meta, &sha256);
    } else if !allow_unpinned {
        return Err(LoadOutcome::Refused(EngineError::HashMismatch {
            path: path.to_path_buf(),
            expected: LIBRARY_SHA256.into(),
            found: sha256,
        }));
    }
    open_verified(path, sha256).map_err(LoadOutcome::Refused)
}

fn open_verified(path: &Path, sha256: String) -> Result<LoadedLibrary, EngineError> {
    // SAFETY: loading runs the library's initialisers; this is the pinned libghostty-vt build
    // (or one the user explicitly allowed), which has no initialisers with side effects.
    let library = unsafe { libloading::Library::new(path) }.map_err(|e| EngineError::Load {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    // SAFETY: `library` is moved into the returned value together with the table.
    let symbols =
        unsafe { Symbols::resolve(&library) }.map_err(|symbol| EngineError::MissingSymbol {
            path: path.to_path_buf(),
            symbol,
        })?;
    let type_json = type_json(&symbols);
    abi_check::verify(&type_json).map_err(|e| EngineError::Layout {
        path: path.to_path_buf(),
        detail: e.to_string(),
    })?;
    Ok(LoadedLibrary {
        path: path.to_path_buf(),
        sha256,
        symbols,
        _library: library,
    })
}

/// The library's ABI description.
pub fn type_json(symbols: &Symbols) -> String {
    // SAFETY: `ghostty_type_json` takes no arguments and returns a static NUL-terminated string.
    let ptr = unsafe { (symbols.ghostty_type_json)() };
    if ptr.is_null() {
        return String::new();
    }
    // SAFETY: non-null, NUL-terminated, static for the library's lifetime.
    unsafe { CStr::from_ptr(ptr) }
        .to_string_lossy()
        .into_owned()
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}
