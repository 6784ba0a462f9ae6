//! Python packages the tests drive (the MCP SDK, Pillow): a venv per package kept under the
//! build directory, made on first use, so later runs start at once.

use std::path::PathBuf;
use std::process::Command;

use crate::phux_bin;

/// A Python that imports `module`: the system's `python3` when it already does (`.ci/run`
/// installs Debian's package where there is one), else a venv under the build directory
/// (`target/.../<venv>`) with PyPI's `package` installed. `Err` says why there is none (no venv
/// module, pip cannot reach the registry): the caller skips and prints it.
pub fn python_with(module: &str, package: &str, venv: &str) -> Result<PathBuf, String> {
    let system = Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output();
    if system.is_ok_and(|o| o.status.success()) {
        return Ok(PathBuf::from("python3"));
    }
    venv_with(package, venv)
}

/// A venv under the build directory named `venv`, with PyPI's `package` installed in it.
pub fn venv_with(package: &str, venv: &str) -> Result<PathBuf, String> {
    let venv = phux_bin().parent().expect("the build directory").join(venv);
    let python = venv.join("bin/python");
    let installed = venv.join(format!(".{package}-installed"));
    if installed.exists() {
        return Ok(python);
    }
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .output()
        .map_err(|e| format!("python3 is not available ({e}); .ci/run installs it"))?;
    if !made.status.success() {
        return Err(format!(
            "python3 -m venv failed (Debian needs python3-venv; .ci/run installs it): {}",
            String::from_utf8_lossy(&made.stderr).trim()
        ));
    }
    let pip = Command::new(venv.join("bin/pip"))
        .args(["install", "--quiet", "--disable-pip-version-check", package])
        .output()
        .map_err(|e| format!("cannot run the venv's pip: {e}"))?;
    if !pip.status.success() {
        return Err(format!(
            "pip could not install `{package}` from the registry: {}",
            String::from_utf8_lossy(&pip.stderr).trim()
        ));
    }
    std::fs::write(&installed, b"").map_err(|e| format!("cannot mark the venv ready: {e}"))?;
    Ok(python)
}
