//! Starting a server for verbs that may (`new`): spawn `phux server` detached, then poll the
//! socket. Several CLIs racing to start one is settled by the server's lock file (a loser exits
//! quietly), so this side only keeps trying to connect.

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::client::connection::Client;
use crate::client::error::ClientError;

/// How often the socket is tried while a server starts.
pub const AUTOSTART_POLL: Duration = Duration::from_millis(25);
/// How long a server gets to start listening.
pub const AUTOSTART_LIMIT: Duration = Duration::from_secs(3);

/// A client of the server at `socket`, starting one first if nothing listens there.
pub fn ensure_server(socket: &Path) -> Result<Client, ClientError> {
    match Client::connect(socket) {
        Err(ClientError::NoServer { .. }) => {}
        other => return other,
    }
    let mut child = spawn_server(socket)?;
    let deadline = Instant::now() + AUTOSTART_LIMIT;
    loop {
        std::thread::sleep(AUTOSTART_POLL);
        match Client::connect(socket).and_then(|mut client| {
            client.welcome()?;
            Ok(client)
        }) {
            Ok(client) => return Ok(client),
            // Still starting (or a racing server is between bind and accept): try again.
            Err(ClientError::NoServer { .. } | ClientError::ServerDisconnected { .. }) => {}
            Err(other) => return Err(other),
        }
        if Instant::now() >= deadline {
            return Err(ClientError::NoServer {
                socket: socket.to_path_buf(),
                detail: Some(not_listening_detail(&mut child)),
            });
        }
    }
}

/// Starts `<this exe> server --socket PATH --detach-stdio` in its own process group, so a
/// Ctrl-C aimed at this CLI does not reach it. It is never waited for: it outlives us.
fn spawn_server(socket: &Path) -> Result<Child, ClientError> {
    let exe = std::env::current_exe().map_err(|e| cannot_start(socket, &e))?;
    Command::new(exe)
        .arg("server")
        .arg("--socket")
        .arg(socket)
        .arg("--detach-stdio")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .map_err(|e| cannot_start(socket, &e))
}

fn cannot_start(socket: &Path, error: &std::io::Error) -> ClientError {
    ClientError::NoServer {
        socket: socket.to_path_buf(),
        detail: Some(format!("could not start `phux server`: {error}")),
    }
}

/// Says why the started server is not there, if it already exited (a non-blocking check).
fn not_listening_detail(child: &mut Child) -> String {
    let limit = AUTOSTART_LIMIT.as_secs_f64();
    match child.try_wait() {
        Ok(Some(status)) => {
            format!("started `phux server`, which exited ({status}) without listening")
        }
        _ => format!("started `phux server`, but it was not listening after {limit} s"),
    }
}
