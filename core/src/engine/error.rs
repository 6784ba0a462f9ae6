//! Why the engine could not be found, installed, loaded or driven, in words a user can act on.

use std::path::PathBuf;

/// The command that installs the engine; every "not found" error ends with it.
pub const INSTALL_COMMAND: &str = "phux engine install";

/// One place the loader looked, and why it did not use what it found there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    pub path: PathBuf,
    pub outcome: String,
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum EngineError {
    #[error("{}", not_found_message(.attempts))]
    NotFound { attempts: Vec<Attempt> },

    #[error(
        "refusing {path}: its sha256 is {found}, but phux pins {expected} (pyghostty 0.1.3); \
         reinstall with `{INSTALL_COMMAND}`, or set PHUX_ENGINE_ALLOW_UNPINNED=1 to use it anyway \
         (development only)"
    )]
    HashMismatch {
        path: PathBuf,
        expected: String,
        found: String,
    },

    #[error("{path} could not be loaded as a shared library: {reason}")]
    Load { path: PathBuf, reason: String },

    #[error("{path} lacks the symbol {symbol}: it is not the libghostty-vt phux was built for")]
    MissingSymbol { path: PathBuf, symbol: String },

    #[error("{path} does not match the ABI phux was built for: {detail}")]
    Layout { path: PathBuf, detail: String },

    #[error("cannot install the engine: {0}")]
    Install(#[from] InstallError),

    #[error("the engine refused {call}: result code {code}")]
    Call { call: &'static str, code: i32 },
}

fn not_found_message(attempts: &[Attempt]) -> String {
    let mut text = String::from("the terminal engine (libghostty-vt.so) was not found; looked in:");
    for attempt in attempts {
        text.push_str(&format!(
            "\n  {}: {}",
            attempt.path.display(),
            attempt.outcome
        ));
    }
    text.push_str(&format!(
        "\nfix: run `{INSTALL_COMMAND}` (downloads pyghostty 0.1.3 from PyPI with pip)"
    ));
    text
}

impl EngineError {
    /// The next thing to run, for the JSON error contract's `remedy`.
    pub fn remedy(&self) -> String {
        match self {
            EngineError::Call { .. } => {
                "this is a phux bug; please report it with the command that triggered it".into()
            }
            EngineError::Install(e) => e.remedy(),
            _ => format!("run `{INSTALL_COMMAND}`, then retry"),
        }
    }
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum InstallError {
    #[error("pip is not available (tried {tried}); install it (Debian: `apt-get install python3-pip`) and retry")]
    NoPip { tried: String },

    #[error("pip could not download pyghostty==0.1.3 from PyPI ({detail}); check that this machine can reach https://pypi.org")]
    Download { detail: String },

    #[error("the downloaded wheel {path} has sha256 {found}, expected {expected}; nothing was installed")]
    WheelHash {
        path: PathBuf,
        expected: String,
        found: String,
    },

    #[error("the wheel {path} is not a readable zip archive ({detail})")]
    BadWheel { path: PathBuf, detail: String },

    #[error("the library inside the wheel has sha256 {found}, expected {expected}; nothing was installed")]
    LibraryHash { expected: String, found: String },

    #[error("no prebuilt engine is published for {platform}; phux pins the Linux x86_64 build")]
    UnsupportedPlatform { platform: String },

    #[error("cannot write {path}: {detail}")]
    Write { path: PathBuf, detail: String },
}

impl InstallError {
    pub fn remedy(&self) -> String {
        match self {
            InstallError::NoPip { .. } => "install pip (`apt-get install python3-pip`), then run `phux engine install`".into(),
            InstallError::Download { .. } => "check network access to pypi.org, then run `phux engine install`".into(),
            InstallError::Write { .. } => "make the data directory writable (or set XDG_DATA_HOME), then run `phux engine install`".into(),
            _ => "run `phux engine install` again; if it keeps failing, report it".into(),
        }
    }
}
