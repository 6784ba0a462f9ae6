//! Which service manager `phux service` works with: launchd on macOS (a LaunchAgent), systemd
//! elsewhere (a user unit), or the one `PHUX_SERVICE_MANAGER=launchd|systemd` names (so a test
//! on Linux writes a plist). Each sub-verb asks its manager for the file, its text and the
//! calls around it; the manager's tool is called only where it exists.

use std::path::{Path, PathBuf};

use phux_core::error_code::ErrorCode;

use super::{launchd, unit};
use crate::failure::Failure;

/// Names the manager instead of the platform's.
pub const MANAGER_ENV: &str = "PHUX_SERVICE_MANAGER";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Manager {
    Systemd,
    Launchd,
}

impl Manager {
    /// The manager `PHUX_SERVICE_MANAGER` names, else this platform's.
    pub fn here() -> Result<Manager, Failure> {
        match std::env::var(MANAGER_ENV).ok().as_deref() {
            None | Some("") => Ok(Manager::native()),
            Some(name) => Manager::named(name).ok_or_else(|| {
                Failure::new(
                    ErrorCode::InvalidArgument,
                    format!("{MANAGER_ENV}={name} names no service manager phux knows"),
                    format!("set {MANAGER_ENV} to launchd or systemd, or unset it"),
                )
            }),
        }
    }

    fn native() -> Manager {
        if cfg!(target_os = "macos") {
            Manager::Launchd
        } else {
            Manager::Systemd
        }
    }

    fn named(name: &str) -> Option<Manager> {
        match name {
            "systemd" => Some(Manager::Systemd),
            "launchd" => Some(Manager::Launchd),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Manager::Systemd => "systemd",
            Manager::Launchd => "launchd",
        }
    }

    /// The file install writes: the unit, or the property list.
    pub fn file(self) -> PathBuf {
        match self {
            Manager::Systemd => unit::unit_path(),
            Manager::Launchd => launchd::plist_path(),
        }
    }

    /// The file's text for a server on `socket` run from `binary` with `env` (the listener's
    /// settings), restoring from `restore`.
    pub fn text(
        self,
        binary: &Path,
        socket: &Path,
        restore: Option<&Path>,
        env: &[(String, String)],
    ) -> String {
        match self {
            Manager::Systemd => unit::text(binary, socket, restore, env),
            Manager::Launchd => launchd::plist(binary, socket, restore, env, &launchd::log_path()),
        }
    }

    /// Directories the service needs besides the file's own (launchd opens the log itself).
    pub fn directories(self) -> Vec<PathBuf> {
        match self {
            Manager::Systemd => Vec::new(),
            Manager::Launchd => launchd::log_path()
                .parent()
                .map(Path::to_path_buf)
                .into_iter()
                .collect(),
        }
    }

    /// The manager's tool, as `status` names it.
    pub fn tool(self) -> &'static str {
        match self {
            Manager::Systemd => "systemctl",
            Manager::Launchd => "launchctl",
        }
    }

    /// Whether the manager's tool can be asked here.
    pub fn available(self) -> bool {
        match self {
            Manager::Systemd => unit::systemctl_available(),
            Manager::Launchd => launchd::launchctl_available(),
        }
    }

    /// Loads the service and starts it (`changed`: the file was just rewritten, so a loaded
    /// service is loaded again). True when the manager agreed.
    pub fn start(self, changed: bool) -> bool {
        match self {
            Manager::Systemd => {
                unit::systemctl(&["daemon-reload"]);
                unit::systemctl(&["enable", "--now", unit::UNIT]).0
            }
            Manager::Launchd => {
                let loaded = self.enabled();
                if loaded && !changed {
                    return true;
                }
                if loaded {
                    launchd::launchctl(&["bootout", &launchd::service_target()]);
                }
                let plist = launchd::plist_path().display().to_string();
                launchd::launchctl(&["bootstrap", &launchd::domain(), &plist]).0
            }
        }
    }

    /// What a person runs to start it where the tool was not available.
    pub fn start_command(self) -> String {
        match self {
            Manager::Systemd => format!("systemctl --user enable --now {}", unit::UNIT),
            Manager::Launchd => format!(
                "launchctl bootstrap gui/$(id -u) {}",
                launchd::plist_path().display()
            ),
        }
    }

    /// Stops the service and unloads it, before its file is removed.
    pub fn stop(self) {
        match self {
            Manager::Systemd => {
                unit::systemctl(&["disable", "--now", unit::UNIT]);
            }
            Manager::Launchd => {
                launchd::launchctl(&["bootout", &launchd::service_target()]);
            }
        }
    }

    /// After the file is gone.
    pub fn forget(self) {
        if self == Manager::Systemd {
            unit::systemctl(&["daemon-reload"]);
        }
    }

    /// Whether it starts with the session: enabled (systemd), loaded (launchd).
    pub fn enabled(self) -> bool {
        match self {
            Manager::Systemd => unit::systemctl(&["is-enabled", unit::UNIT]).0,
            Manager::Launchd => launchd::launchctl(&["print", &launchd::service_target()]).0,
        }
    }

    /// Whether its server runs now.
    pub fn active(self) -> bool {
        match self {
            Manager::Systemd => unit::systemctl(&["is-active", unit::UNIT]).0,
            Manager::Launchd => {
                let (loaded, text) = launchd::launchctl(&["print", &launchd::service_target()]);
                loaded && text.lines().any(|l| l.trim() == "state = running")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manager_is_named_or_the_platforms() {
        assert_eq!(Manager::named("launchd"), Some(Manager::Launchd));
        assert_eq!(Manager::named("systemd"), Some(Manager::Systemd));
        assert_eq!(Manager::named("runit"), None);
        let native = if cfg!(target_os = "macos") {
            Manager::Launchd
        } else {
            Manager::Systemd
        };
        assert_eq!(Manager::native(), native);
    }
}
