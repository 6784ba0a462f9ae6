//! Who is on the other end of the socket, checked before the first byte is sent: keystrokes
//! and pastes can carry passwords, so a socket another user could have put in our path is
//! refused. The directory must be ours and closed to others (or a root-owned sticky directory
//! such as /tmp, where nobody can replace our socket), the socket file must be ours, and once
//! connected the peer process must run as us (SO_PEERCRED), which no file trick can forge.

use std::os::unix::fs::MetadataExt;
use std::os::unix::net::UnixStream;
use std::path::Path;

use crate::error::ClientError;

/// Checks the socket's directory and the socket file (after a successful connect, before
/// anything is written to it).
pub fn check_socket_path(socket: &Path) -> Result<(), ClientError> {
    let me = rustix::process::getuid().as_raw();
    let dir = socket
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let refuse = |detail: String| ClientError::UntrustedSocket {
        socket: socket.to_path_buf(),
        detail,
    };
    if let Ok(meta) = std::fs::metadata(dir) {
        let mode = meta.mode() & 0o7777;
        let private = meta.uid() == me && mode & 0o077 == 0;
        let shared_sticky = meta.uid() == 0 && mode & 0o1000 != 0;
        if !(private || shared_sticky) {
            return Err(refuse(if meta.uid() == me {
                format!(
                    "its directory {} has mode {mode:o}, which lets other users in",
                    dir.display()
                )
            } else {
                format!(
                    "its directory {} is owned by uid {}, not by you (uid {me})",
                    dir.display(),
                    meta.uid()
                )
            }));
        }
    }
    if let Ok(meta) = std::fs::symlink_metadata(socket) {
        if meta.uid() != me {
            return Err(refuse(format!(
                "the socket is owned by uid {}, not by you (uid {me})",
                meta.uid()
            )));
        }
    }
    Ok(())
}

/// Checks that the process listening on `stream` runs as us.
pub fn check_peer(socket: &Path, stream: &UnixStream) -> Result<(), ClientError> {
    let me = rustix::process::getuid();
    match rustix::net::sockopt::socket_peercred(stream) {
        Ok(cred) if cred.uid == me => Ok(()),
        Ok(cred) => Err(ClientError::UntrustedSocket {
            socket: socket.to_path_buf(),
            detail: format!(
                "the server runs as uid {}, not as you (uid {})",
                cred.uid.as_raw(),
                me.as_raw()
            ),
        }),
        Err(e) => Err(ClientError::UntrustedSocket {
            socket: socket.to_path_buf(),
            detail: format!("cannot tell who runs the server: {e}"),
        }),
    }
}
