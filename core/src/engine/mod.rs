//! The libghostty-vt binding: finding, installing and loading the engine (`loader`, `install`),
//! checking its ABI (`abi_check`), and a safe `Terminal` over it. Every call into the engine's C
//! ABI is here; the crate's only other `unsafe` is the two scheduler syscalls of `sched_slice`.

mod abi;
mod abi_check;
mod callbacks;
mod cells;
mod error;
mod heap;
mod history_repaint;
mod install;
mod key_encoder;
mod loader;
mod repaint;
mod snapshot;
mod symbols;
mod terminal;
mod text;
mod verified_stamp;
mod wheel;

pub use abi_check::{verify as verify_layout, LayoutMismatch};
pub use cells::{CellColor, CellData, CellStyle, CellWidth, Semantic};
pub use error::{Attempt, EngineError, InstallError, INSTALL_COMMAND};
pub use heap::release_free_heap;
pub use history_repaint::MAX_HISTORY_ROWS;
pub use install::{install, InstallReport, WHEEL_REQUIREMENT, WHEEL_SHA256};
pub use key_encoder::KITTY_REPORT_ALL_KEYS;
pub use loader::{data_dir, sha256_hex, LoaderConfig, LIBRARY_FILE, LIBRARY_SHA256};
pub use snapshot::Compression;
pub use terminal::{Cursor, Mode, Notifications, Terminal, TerminalOptions, REPLY_BUFFER_CAP};

use std::sync::OnceLock;
use symbols::Symbols;

/// The loaded engine, kept for the life of the process.
pub struct Engine {
    loaded: loader::LoadedLibrary,
}

/// What `phux engine status` reports.
#[derive(Debug, Clone, serde::Serialize)]
pub struct EngineInfo {
    pub path: String,
    pub sha256: String,
    pub pinned: bool,
    pub version: String,
    pub optimize: String,
    pub library_version: Option<String>,
}

static ENGINE: OnceLock<Result<Engine, EngineError>> = OnceLock::new();

/// The process-wide engine, loaded on first use. When none is installed (and
/// `PHUX_NO_AUTO_INSTALL` is not set) it is installed first, saying so on stderr.
pub fn engine() -> Result<&'static Engine, EngineError> {
    ENGINE
        .get_or_init(|| load_or_install(&LoaderConfig::from_env()))
        .as_ref()
        .map_err(Clone::clone)
}

/// Loads the engine without ever installing it (`phux engine status`).
pub fn load_existing(config: &LoaderConfig) -> Result<Engine, EngineError> {
    loader::load(config).map(|loaded| Engine { loaded })
}

/// The wheel an automatic install uses instead of asking pip (`$PHUX_ENGINE_WHEEL`), for
/// machines that cannot reach PyPI; its sha256 is checked like a downloaded one.
pub fn auto_install_wheel() -> Option<std::path::PathBuf> {
    std::env::var_os("PHUX_ENGINE_WHEEL")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
}

fn load_or_install(config: &LoaderConfig) -> Result<Engine, EngineError> {
    match loader::load(config) {
        Ok(loaded) => Ok(Engine { loaded }),
        Err(error) if config.auto_install && config.explicit.is_none() => {
            eprintln!("phux: the terminal engine is not installed; installing {WHEEL_REQUIREMENT} from PyPI into {}", config.data_dir.display());
            let wheel = auto_install_wheel();
            let report = install(&config.data_dir, wheel.as_deref()).map_err(|install_error| {
                eprintln!("phux: {error}");
                EngineError::Install(install_error)
            })?;
            eprintln!("phux: installed {}", report.path.display());
            loader::load(config).map(|loaded| Engine { loaded })
        }
        Err(error) => Err(error),
    }
}

impl Engine {
    pub(crate) fn symbols(&self) -> &Symbols {
        &self.loaded.symbols
    }

    /// Where the library was loaded from, its hash, and what it says about itself.
    pub fn info(&self) -> EngineInfo {
        let type_json = loader::type_json(self.symbols());
        let library_version = serde_json::from_str::<serde_json::Value>(&type_json)
            .ok()
            .and_then(|doc| doc["library_version"].as_str().map(str::to_string));
        EngineInfo {
            path: self.loaded.path.display().to_string(),
            sha256: self.loaded.sha256.clone(),
            pinned: self.loaded.sha256 == LIBRARY_SHA256,
            version: self.build_string(),
            optimize: self.optimize_mode(),
            library_version,
        }
    }

    /// The ABI description (`ghostty_type_json()`), for tests and diagnostics.
    pub fn type_json(&self) -> String {
        loader::type_json(self.symbols())
    }

    fn build_string(&self) -> String {
        let mut out = abi::GString {
            ptr: std::ptr::null(),
            len: 0,
        };
        // SAFETY: VERSION_STRING writes a GhosttyString pointing at static library memory.
        let code = unsafe {
            (self.symbols().ghostty_build_info)(
                abi::build_info::VERSION_STRING,
                (&raw mut out).cast(),
            )
        };
        if code != abi::result::SUCCESS || out.ptr.is_null() {
            return "unknown".into();
        }
        // SAFETY: the library returned a valid (ptr, len) pair into static memory.
        String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(out.ptr, out.len) })
            .into_owned()
    }

    fn optimize_mode(&self) -> String {
        let mut mode: i32 = -1;
        // SAFETY: OPTIMIZE writes one GhosttyOptimizeMode (a C enum, i32).
        unsafe {
            (self.symbols().ghostty_build_info)(abi::build_info::OPTIMIZE, (&raw mut mode).cast())
        };
        match mode {
            0 => "debug",
            1 => "release-safe",
            2 => "release-small",
            3 => "release-fast",
            _ => "unknown",
        }
        .into()
    }
}
