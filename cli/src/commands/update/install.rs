//! Where the binary `phux update` replaces is, whether phux may replace it (only an install it
//! made: an archive unpacked into one of the install directories; Cargo, Nix, Homebrew and
//! distribution packages get their own command), and the replacement itself: atomic, keeping
//! the previous binary beside it as `phux.previous`, which `--rollback` swaps back.

use std::path::{Path, PathBuf};

use phux_core::error_code::ErrorCode;

use crate::failure::Failure;

/// The binary to replace: `$PHUX_UPDATE_TARGET` (for tests and packagers), else this one.
pub fn target() -> Result<PathBuf, Failure> {
    if let Some(path) = std::env::var_os("PHUX_UPDATE_TARGET").filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    std::env::current_exe().map_err(|e| {
        Failure::new(
            ErrorCode::UpdateInstallFailed,
            format!("cannot tell where this phux is installed: {e}"),
            "set PHUX_UPDATE_TARGET to the binary to replace",
        )
    })
}

/// The directories phux installs into: `$PHUX_INSTALL_DIR`, `~/.local/bin`, `~/bin`,
/// `/usr/local/bin`, `/opt/phux/bin`.
pub fn install_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(dir) = std::env::var_os("PHUX_INSTALL_DIR").filter(|v| !v.is_empty()) {
        dirs.push(PathBuf::from(dir));
    }
    if let Some(home) = home() {
        dirs.push(home.join(".local/bin"));
        dirs.push(home.join("bin"));
    }
    dirs.push(PathBuf::from("/usr/local/bin"));
    dirs.push(PathBuf::from("/opt/phux/bin"));
    dirs
}

fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// Refuses a binary phux did not install, naming the command that updates it.
pub fn check_maintained(binary: &Path) -> Result<(), Failure> {
    let shown = binary.display();
    if binary.starts_with("/nix/store") {
        return Err(Failure::new(
            ErrorCode::UpdateImmutableStore,
            format!("{shown} is in the Nix store, which is read-only"),
            "nix profile upgrade phux",
        ));
    }
    let cargo_bin = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| home().map(|h| h.join(".cargo")))
        .map(|c| c.join("bin"));
    if cargo_bin.is_some_and(|bin| binary.starts_with(bin)) {
        return Err(Failure::new(
            ErrorCode::UpdateSourceUnsupported,
            format!("{shown} was installed by cargo"),
            "cargo install --locked --force phux-cli",
        ));
    }
    if let Some(checkout) = cargo_checkout(binary) {
        return Err(Failure::new(
            ErrorCode::UpdateSourceUnsupported,
            format!("{shown} was built from source"),
            format!(
                "cd {} && git pull && cargo build{} -p phux-cli",
                checkout.display(),
                // The profile the binary was built with: a release build is rebuilt as one.
                if binary.parent().and_then(|p| p.file_name()) == Some("release".as_ref()) {
                    " --release"
                } else {
                    ""
                }
            ),
        ));
    }
    for brew in [
        "/opt/homebrew",
        "/usr/local/Cellar",
        "/home/linuxbrew/.linuxbrew",
    ] {
        if binary.starts_with(brew) {
            return Err(Failure::new(
                ErrorCode::UpdatePackageManaged,
                format!("{shown} belongs to Homebrew"),
                "brew upgrade phux",
            ));
        }
    }
    if let Some(package) = dpkg_owner(binary) {
        return Err(Failure::new(
            ErrorCode::UpdatePackageManaged,
            format!("{shown} belongs to the Debian package {package}"),
            format!("sudo apt-get install --only-upgrade {package}"),
        ));
    }
    let dir = binary.parent().unwrap_or(Path::new("/"));
    let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    if !install_dirs()
        .iter()
        .any(|d| canonical(d) == canonical(dir))
    {
        return Err(Failure::new(
            ErrorCode::UpdateSourceUnsupported,
            format!(
                "{shown} is not in a directory phux installs into \
                 ($PHUX_INSTALL_DIR, ~/.local/bin, ~/bin, /usr/local/bin, /opt/phux/bin)"
            ),
            "reinstall with whatever put it there, or unpack a release archive into ~/.local/bin",
        ));
    }
    Ok(())
}

/// The checkout a binary under `CHECKOUT/target/.../phux` was built in.
fn cargo_checkout(binary: &Path) -> Option<PathBuf> {
    binary
        .ancestors()
        .skip(1)
        .find(|dir| dir.file_name().is_some_and(|n| n == "target"))
        .and_then(Path::parent)
        .map(Path::to_path_buf)
}

/// The Debian package that owns `binary`, if dpkg knows it.
fn dpkg_owner(binary: &Path) -> Option<String> {
    let output = std::process::Command::new("dpkg")
        .arg("-S")
        .arg(binary)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let package = text.lines().next()?.split(':').next()?.trim().to_owned();
    (!package.is_empty()).then_some(package)
}

/// `phux.previous` beside `binary`.
pub fn previous_of(binary: &Path) -> PathBuf {
    let name = binary
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "phux".into());
    binary.with_file_name(format!("{name}.previous"))
}

fn install_failed(what: String, e: &std::io::Error) -> Failure {
    Failure::new(
        ErrorCode::UpdateInstallFailed,
        format!("{what}: {e}"),
        "the installed binary is unchanged; fix the directory's permissions or free space, then \
         retry",
    )
}

/// Puts `new` in place of `binary`: copied beside it first, the current binary hard-linked to
/// `phux.previous`, then one rename, so `binary` is never missing or half-written.
pub fn replace(binary: &Path, new: &Path) -> Result<PathBuf, Failure> {
    use std::os::unix::fs::PermissionsExt;
    let dir = binary.parent().unwrap_or(Path::new("."));
    let temporary = dir.join(format!(".phux.update-{}", std::process::id()));
    let previous = previous_of(binary);
    let result = (|| {
        std::fs::copy(new, &temporary)
            .map_err(|e| install_failed(format!("cannot write {}", temporary.display()), &e))?;
        std::fs::set_permissions(&temporary, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| install_failed(format!("cannot chmod {}", temporary.display()), &e))?;
        if let Ok(file) = std::fs::File::open(&temporary) {
            let _ = file.sync_all();
        }
        match std::fs::symlink_metadata(&previous) {
            Ok(_) => std::fs::remove_file(&previous).map_err(|e| {
                install_failed(format!("cannot replace {}", previous.display()), &e)
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(install_failed(
                    format!("cannot read {}", previous.display()),
                    &e,
                ))
            }
        }
        if binary.exists() {
            std::fs::hard_link(binary, &previous)
                .or_else(|_| std::fs::copy(binary, &previous).map(|_| ()))
                .map_err(|e| install_failed(format!("cannot keep {}", previous.display()), &e))?;
        }
        std::fs::rename(&temporary, binary)
            .map_err(|e| install_failed(format!("cannot replace {}", binary.display()), &e))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result.map(|()| previous)
}

/// Swaps `binary` and `phux.previous` in one step (so a second rollback undoes the first).
pub fn rollback(binary: &Path) -> Result<PathBuf, Failure> {
    let previous = previous_of(binary);
    if !std::fs::symlink_metadata(&previous).is_ok_and(|m| m.is_file()) {
        return Err(Failure::new(
            ErrorCode::UpdateNoBackup,
            format!("there is no {} to roll back to", previous.display()),
            "`phux update` keeps the binary it replaces; install a release with \
             `phux update --version vX.Y.Z` instead",
        ));
    }
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    renameat_with(CWD, &previous, CWD, binary, RenameFlags::EXCHANGE)
        .map_err(|e| install_failed(format!("cannot swap in {}", previous.display()), &e.into()))?;
    Ok(previous)
}
