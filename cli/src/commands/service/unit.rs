//! The systemd user unit `phux service install` writes: what it runs, where it lives, and the
//! `systemctl --user` calls around it (made only where systemctl exists).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The unit's name.
pub const UNIT: &str = "phux.service";

/// `$XDG_CONFIG_HOME/systemd/user/phux.service`, else `~/.config/systemd/user/phux.service`.
pub fn unit_path() -> PathBuf {
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            std::env::var_os("HOME")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from("/"))
                .join(".config")
        });
    config.join("systemd/user").join(UNIT)
}

/// Where the service saves the workspace when it stops, and restores it from at start.
pub fn default_archive() -> PathBuf {
    phux_core::config::paths::data_dir().join("service-workspace.json")
}

/// The unit's text. `env`: variables the server starts with (the listener's settings).
/// `restore`: the archive saved at the last stop (`workspace save`) is restored once the server
/// is up (`status` never starts one, so it is asked until it answers; `$$` is systemd's escape
/// for `$`); the `-` lets a first start, with no archive yet, succeed.
pub fn text(
    binary: &Path,
    socket: &Path,
    restore: Option<&Path>,
    env: &[(String, String)],
) -> String {
    let phux = format!("{} --socket {}", quote(binary), quote(socket));
    let mut unit = String::from(
        "# Written by `phux service install`; `phux service uninstall` removes it.\n\
         [Unit]\n\
         Description=phux terminal multiplexer server\n\
         \n\
         [Service]\n\
         Type=simple\n",
    );
    for (name, value) in env {
        unit.push_str(&format!("Environment={}\n", environment_value(name, value)));
    }
    unit.push_str(&format!("ExecStart={phux} server --no-seed\n"));
    if let Some(archive) = restore {
        let archive = quote(archive);
        unit.push_str(&format!(
            "ExecStartPost=-/bin/sh -c 'for i in $$(seq 100); do {phux} status >/dev/null && exit 0; sleep 0.1; done'\n\
             ExecStartPost=-{phux} workspace restore {archive}\n\
             ExecStop=-{phux} workspace save -o {archive}\n"
        ));
    }
    unit.push_str(
        "Restart=on-failure\n\
         \n\
         [Install]\n\
         WantedBy=default.target\n",
    );
    unit
}

/// `"NAME=VALUE"` as systemd reads an `Environment=` assignment: quoted, with `\` and `"` escaped
/// and `%` (a specifier) doubled.
fn environment_value(name: &str, value: &str) -> String {
    let assignment = format!("{name}={value}")
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('%', "%%");
    format!("\"{assignment}\"")
}

/// A path as systemd reads it: quoted when it holds a space.
fn quote(path: &Path) -> String {
    let text = path.display().to_string();
    if text.contains([' ', '"', '\\']) {
        format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        text
    }
}

/// Whether `systemctl --user` can work here: systemd runs (it made `/run/systemd/system`, the
/// test `sd_booted()` makes) and systemctl exists. In a container the binary is often installed
/// while systemd is not running; asking it then only fails.
pub fn systemctl_available() -> bool {
    Path::new("/run/systemd/system").is_dir()
        && Command::new("systemctl")
            .arg("--version")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
}

/// `systemctl --user ARGS`: its status and first line of output.
pub fn systemctl(args: &[&str]) -> (bool, String) {
    match Command::new("systemctl")
        .arg("--user")
        .args(args)
        .stdin(Stdio::null())
        .output()
    {
        Ok(out) => {
            let text = String::from_utf8_lossy(if out.stdout.is_empty() {
                &out.stderr
            } else {
                &out.stdout
            })
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_owned();
            (out.status.success(), text)
        }
        Err(e) => (false, e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listener_s_settings_are_the_server_s_environment() {
        let env = [
            ("PHUX_WS_ADDR".to_owned(), "127.0.0.1:8787".to_owned()),
            ("PHUX_WS_TOKENS".to_owned(), "/home/a \"b\"/100%".to_owned()),
        ];
        let text = text(Path::new("/bin/phux"), Path::new("/run/p.sock"), None, &env);
        let lines: Vec<&str> = text.lines().collect();
        let exec = lines
            .iter()
            .position(|l| l.starts_with("ExecStart="))
            .unwrap();
        assert_eq!(
            lines[exec - 2],
            "Environment=\"PHUX_WS_ADDR=127.0.0.1:8787\""
        );
        assert_eq!(
            lines[exec - 1],
            "Environment=\"PHUX_WS_TOKENS=/home/a \\\"b\\\"/100%%\""
        );
        let none = super::text(Path::new("/bin/phux"), Path::new("/run/p.sock"), None, &[]);
        assert!(!none.contains("Environment="), "{none}");
    }
}
