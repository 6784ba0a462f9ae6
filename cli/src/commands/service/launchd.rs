//! The launchd agent `phux service install` writes on macOS: its property list, where it lives,
//! and the `launchctl` calls around it (made only where launchctl exists).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The agent's label, and its file's name without `.plist`.
pub const LABEL: &str = "phux.server";
/// Where launchctl is on macOS (a job's PATH may not hold it).
const LAUNCHCTL: &str = "/bin/launchctl";

/// Wraps the server when the workspace is restored at start and saved at stop, which launchd
/// has no hooks for. It starts the server and restores the archive once `status` answers (and
/// the archive exists: a first start has none). launchd's SIGTERM (at any point) saves the
/// workspace while the server still runs, stops it and exits 0; a server that ends by itself
/// ends the job with its status, so `KeepAlive` starts a failed one again. No client here runs
/// without a server up: none starts one of its own. Arguments: `$1` phux, `$2` the socket,
/// `$3` the archive.
const RESTORING: &str = r#"trap 'stopping=1' TERM
"$1" --socket "$2" server --no-seed & server=$!
up= code=0
for i in $(seq 100); do
  [ -n "$stopping" ] && break
  "$1" --socket "$2" status >/dev/null 2>&1 && { up=1; break; }
  sleep 0.1
done
[ -n "$up" ] && [ -z "$stopping" ] && [ -e "$3" ] && "$1" --socket "$2" workspace restore "$3"
while [ -z "$stopping" ] && kill -0 $server 2>/dev/null; do wait $server; code=$?; done
[ -z "$stopping" ] && exit $code
kill -0 $server 2>/dev/null && "$1" --socket "$2" workspace save -o "$3"
kill -TERM $server 2>/dev/null; wait $server; exit 0"#;

fn home() -> PathBuf {
    std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/"))
}

/// `~/Library/LaunchAgents/phux.server.plist`.
pub fn plist_path() -> PathBuf {
    home()
        .join("Library/LaunchAgents")
        .join(format!("{LABEL}.plist"))
}

/// `~/Library/Logs/phux/server.log`: where the agent's output goes (launchd has no journal).
pub fn log_path() -> PathBuf {
    home().join("Library/Logs/phux/server.log")
}

/// The agent's property list: run at load, started again when it exits with a failure, its
/// output appended to `log`. `restore`: the workspace is restored from that archive at start
/// and saved to it at stop (see `RESTORING`). `env`: variables the server starts with (the
/// listener's settings).
pub fn plist(
    binary: &Path,
    socket: &Path,
    restore: Option<&Path>,
    env: &[(String, String)],
    log: &Path,
) -> String {
    let (binary, socket) = (binary.display().to_string(), socket.display().to_string());
    let arguments: Vec<String> = match restore {
        None => vec![
            binary,
            "--socket".into(),
            socket,
            "server".into(),
            "--no-seed".into(),
        ],
        Some(archive) => vec![
            "/bin/sh".into(),
            "-c".into(),
            RESTORING.into(),
            "phux-service".into(),
            binary,
            socket,
            archive.display().to_string(),
        ],
    };
    let arguments: String = arguments
        .iter()
        .map(|a| format!("\t\t<string>{}</string>\n", escape(a)))
        .collect();
    let log = escape(&log.display().to_string());
    let environment = if env.is_empty() {
        String::new()
    } else {
        let pairs: String = env
            .iter()
            .map(|(name, value)| {
                format!(
                    "\t\t<key>{}</key>\n\t\t<string>{}</string>\n",
                    escape(name),
                    escape(value)
                )
            })
            .collect();
        format!("\t<key>EnvironmentVariables</key>\n\t<dict>\n{pairs}\t</dict>\n")
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \
         \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n\
         <!-- Written by `phux service install`; `phux service uninstall` removes it. -->\n\
         <plist version=\"1.0\">\n\
         <dict>\n\
         \t<key>Label</key>\n\
         \t<string>{LABEL}</string>\n\
         \t<key>ProgramArguments</key>\n\
         \t<array>\n\
         {arguments}\
         \t</array>\n\
         {environment}\
         \t<key>RunAtLoad</key>\n\
         \t<true/>\n\
         \t<key>KeepAlive</key>\n\
         \t<dict>\n\
         \t\t<key>SuccessfulExit</key>\n\
         \t\t<false/>\n\
         \t</dict>\n\
         \t<key>StandardOutPath</key>\n\
         \t<string>{log}</string>\n\
         \t<key>StandardErrorPath</key>\n\
         \t<string>{log}</string>\n\
         </dict>\n\
         </plist>\n"
    )
}

/// Text as XML character data.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Whether launchctl can be asked here (macOS).
pub fn launchctl_available() -> bool {
    Path::new(LAUNCHCTL).is_file()
}

/// This user's GUI domain, `gui/UID`, where a LaunchAgent runs.
pub fn domain() -> String {
    format!("gui/{}", rustix::process::getuid().as_raw())
}

/// The agent in its domain, `gui/UID/phux.server`.
pub fn service_target() -> String {
    format!("{}/{LABEL}", domain())
}

/// `launchctl ARGS`: its status and output.
pub fn launchctl(args: &[&str]) -> (bool, String) {
    match Command::new(LAUNCHCTL)
        .args(args)
        .stdin(Stdio::null())
        .output()
    {
        Ok(out) => (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        ),
        Err(e) => (false, e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_specials_are_escaped() {
        let text = plist(
            Path::new("/opt/a&b/phux"),
            Path::new("/tmp/<s>.sock"),
            None,
            &[("PHUX_WS_ADDR".into(), "127.0.0.1:8787".into())],
            Path::new("/l"),
        );
        assert!(
            text.contains("<string>/opt/a&amp;b/phux</string>"),
            "{text}"
        );
        assert!(
            text.contains("<string>/tmp/&lt;s&gt;.sock</string>"),
            "{text}"
        );
        assert!(
            text.contains(
                "<key>EnvironmentVariables</key>\n\t<dict>\n\t\t<key>PHUX_WS_ADDR</key>\n\
                 \t\t<string>127.0.0.1:8787</string>\n\t</dict>"
            ),
            "{text}"
        );
    }
}
