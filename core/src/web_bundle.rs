//! The browser's terminal: `ghostty-web` (npm, MIT), Ghostty's VT engine compiled to
//! WebAssembly, so the page shows what the server's engine holds. phux pins one release and
//! its npm integrity hash; `phux web install` (or the listener, on the page's first request,
//! or `phux rec -o x.html`, which inlines it) fetches the tarball from the npm registry,
//! checks the hash, and keeps the one script the page loads (the WebAssembly is inside it) in
//! the data directory. `PHUX_WEB_BUNDLE=FILE` installs from a tarball already on disk, for
//! machines without the registry. Here in `core` because the server's page and the client's
//! `rec` both use it.

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha512};

pub const PACKAGE: &str = "ghostty-web";
pub const VERSION: &str = "0.4.0";
pub const TARBALL_URL: &str = "https://registry.npmjs.org/ghostty-web/-/ghostty-web-0.4.0.tgz";
/// The registry's `dist.integrity` of that tarball.
pub const INTEGRITY: &str =
    "sha512-0puDBik2qapbD/QQBW9o5ZHfXnZBqZWx/ctBiVtKZ6ZLds4NYb+wZuw1cRLXZk9zYovIQ908z3rvFhexAvc5Hg==";
/// The script the page loads, as the package ships it.
pub const SCRIPT: &str = "ghostty-web.js";
/// The largest tarball accepted.
const MAX_TARBALL: u64 = 16 << 20;

#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error("cannot download {url}: {why}")]
    Fetch { url: String, why: String },
    #[error(
        "{file} is not ghostty-web {VERSION}: its hash is {found}, the pinned one {INTEGRITY}"
    )]
    Integrity { file: String, found: String },
    #[error("cannot unpack {file}: {why}")]
    Unpack { file: String, why: String },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Where the pinned release is kept: `<data>/web/ghostty-web-VERSION/`.
pub fn bundle_dir() -> PathBuf {
    crate::config::paths::data_dir()
        .join("web")
        .join(format!("{PACKAGE}-{VERSION}"))
}

/// The installed script, when it is.
pub fn installed() -> Option<PathBuf> {
    let script = bundle_dir().join(SCRIPT);
    script.is_file().then_some(script)
}

/// The script's bytes, installing the pinned release first when it is missing (the listener's
/// page and `rec -o x.html` both take it this way).
pub fn script() -> Result<Vec<u8>, WebError> {
    let path = match installed() {
        Some(path) => path,
        None => install()?,
    };
    Ok(std::fs::read(path)?)
}

/// Installs the pinned release (from `PHUX_WEB_BUNDLE` when set, else the registry) and
/// returns the script's path. Nothing is kept unless the hash matches.
pub fn install() -> Result<PathBuf, WebError> {
    let from = std::env::var_os("PHUX_WEB_BUNDLE")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    install_from(from.as_deref())
}

/// Installs the pinned release from `tarball` (one `npm pack ghostty-web@VERSION` wrote), or
/// from the registry when `None`, and returns the script's path. Nothing is kept unless the
/// hash matches.
pub fn install_from(tarball: Option<&Path>) -> Result<PathBuf, WebError> {
    let dir = bundle_dir();
    let parent = dir.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)?;
    let work = tempfile_dir(parent)?;
    let result = (|| {
        let tarball = match tarball {
            Some(file) => file.to_path_buf(),
            None => {
                let target = work.join("package.tgz");
                download(&target)?;
                target
            }
        };
        let shown = tarball.display().to_string();
        let size = std::fs::metadata(&tarball)?.len();
        if size > MAX_TARBALL {
            return Err(WebError::Unpack {
                file: shown,
                why: format!("{size} bytes, more than {MAX_TARBALL}"),
            });
        }
        let bytes = std::fs::read(&tarball)?;
        let found = integrity_of(&bytes);
        if found != INTEGRITY {
            return Err(WebError::Integrity { file: shown, found });
        }
        // Only the named members are unpacked: no path from the archive is followed.
        let unpacked = Command::new("tar")
            .arg("-xzf")
            .arg(&tarball)
            .arg("-C")
            .arg(&work)
            .arg(format!("package/dist/{SCRIPT}"))
            .arg("package/LICENSE")
            .output()
            .map_err(|e| WebError::Unpack {
                file: shown.clone(),
                why: format!("cannot run tar: {e}"),
            })?;
        if !unpacked.status.success() {
            return Err(WebError::Unpack {
                file: shown,
                why: String::from_utf8_lossy(&unpacked.stderr).trim().to_owned(),
            });
        }
        let staged = work.join("staged");
        std::fs::create_dir_all(&staged)?;
        std::fs::rename(work.join("package/dist").join(SCRIPT), staged.join(SCRIPT))?;
        std::fs::rename(work.join("package/LICENSE"), staged.join("LICENSE"))?;
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::rename(&staged, &dir)?;
        Ok(dir.join(SCRIPT))
    })();
    let _ = std::fs::remove_dir_all(&work);
    result
}

fn tempfile_dir(parent: &Path) -> std::io::Result<PathBuf> {
    let dir = parent.join(format!(".install.{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir(&dir)?;
    Ok(dir)
}

fn download(target: &Path) -> Result<(), WebError> {
    let fail = |why: String| WebError::Fetch {
        url: TARBALL_URL.to_owned(),
        why,
    };
    let output = Command::new("curl")
        .args([
            "-fsSL",
            "--proto",
            "=https",
            "--connect-timeout",
            "10",
            "--max-time",
            "120",
        ])
        .arg("--max-filesize")
        .arg(MAX_TARBALL.to_string())
        .arg("-o")
        .arg(target)
        .arg(TARBALL_URL)
        .output()
        .map_err(|e| fail(format!("cannot run curl: {e}")))?;
    if !output.status.success() {
        return Err(fail(
            String::from_utf8_lossy(&output.stderr).trim().to_owned(),
        ));
    }
    Ok(())
}

/// `sha512-<base64>`, as npm writes a tarball's integrity.
pub fn integrity_of(bytes: &[u8]) -> String {
    format!("sha512-{}", crate::base64::encode(&Sha512::digest(bytes)))
}
