//! A throwaway OpenSSH server on localhost for the tests and benchmarks that go over a real
//! ssh: its own host key, a user key whose `authorized_keys` entry forces `phux proxy` against
//! one socket, and a free port. `None` (with the reason) where sshd is missing or cannot start.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Sshd {
    pub dir: tempfile::TempDir,
    pub port: u16,
    child: Child,
}

impl Sshd {
    /// Starts sshd forcing `phux proxy` against `socket` for the test key.
    pub fn start(socket: &Path) -> Result<Sshd, String> {
        let sshd = ["/usr/sbin/sshd", "/usr/bin/sshd"]
            .into_iter()
            .map(PathBuf::from)
            .find(|p| p.exists())
            .ok_or("sshd is not installed (apt-get install openssh-server)")?;
        let dir = tempfile::Builder::new()
            .prefix("phux-sshd-")
            .tempdir()
            .map_err(|e| e.to_string())?;
        let d = dir.path();
        for key in ["host_key", "user_key"] {
            let made = Command::new("ssh-keygen")
                .args(["-q", "-t", "ed25519", "-N", "", "-f"])
                .arg(d.join(key))
                .status()
                .map_err(|e| format!("ssh-keygen: {e}"))?;
            if !made.success() {
                return Err("ssh-keygen failed".into());
            }
        }
        let public = std::fs::read_to_string(d.join("user_key.pub")).map_err(|e| e.to_string())?;
        let forced = format!(
            "command=\"env PHUX_SOCKET={} PHUX_CONFIG=/dev/null {} proxy\",no-pty,no-port-forwarding {}",
            socket.display(),
            crate::phux_bin().display(),
            public.trim()
        );
        std::fs::write(d.join("authorized_keys"), forced + "\n").map_err(|e| e.to_string())?;
        // Privilege separation needs this directory when sshd runs as root.
        let _ = std::fs::create_dir_all("/run/sshd");
        let port = free_port()?;
        let config = format!(
            "Port {port}\nListenAddress 127.0.0.1\nHostKey {}\nAuthorizedKeysFile {}\n\
             PidFile {}\nStrictModes no\nUsePAM no\nPasswordAuthentication no\n\
             KbdInteractiveAuthentication no\nPubkeyAuthentication yes\n\
             PermitRootLogin prohibit-password\nLogLevel ERROR\n",
            d.join("host_key").display(),
            d.join("authorized_keys").display(),
            d.join("sshd.pid").display(),
        );
        std::fs::write(d.join("sshd_config"), config).map_err(|e| e.to_string())?;
        let log = std::fs::File::create(d.join("sshd.log")).map_err(|e| e.to_string())?;
        let child = Command::new(&sshd)
            .args(["-D", "-e", "-f"])
            .arg(d.join("sshd_config"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", sshd.display()))?;
        let mut server = Sshd { dir, port, child };
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = server.child.try_wait() {
                let log =
                    std::fs::read_to_string(server.dir.path().join("sshd.log")).unwrap_or_default();
                return Err(format!("sshd exited ({status}): {}", log.trim()));
            }
            if start.elapsed() > Duration::from_secs(10) {
                return Err("sshd did not listen within 10 s".into());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(server)
    }

    /// What sshd wrote to its log (errors only), for a failing test's message.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("sshd.log")).unwrap_or_default()
    }

    /// The value for `PHUX_SSH`: ssh with the test key and no host-key prompts.
    pub fn ssh_command(&self) -> String {
        format!(
            "ssh -i {} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
             -o LogLevel=ERROR -o IdentitiesOnly=yes",
            self.dir.path().join("user_key").display()
        )
    }

    /// `ssh://USER@127.0.0.1:PORT`.
    pub fn endpoint(&self) -> String {
        let user = std::env::var("USER")
            .ok()
            .filter(|u| !u.is_empty())
            .unwrap_or_else(|| {
                if rustix::process::getuid().is_root() {
                    "root".into()
                } else {
                    "nobody".into()
                }
            });
        format!("ssh://{user}@127.0.0.1:{}", self.port)
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| e.to_string())
}
