//! Starting a server for verbs that may (`new`, `rec -- COMMAND`): spawn `phux server` detached,
//! then poll the socket. Several CLIs racing to start one is settled by the server's lock file (a
//! loser exits quietly), so this side only keeps trying to connect. A server that is stopping
//! (its last pane just exited) refuses new panes; `on_a_server` then runs the request again on
//! the server that replaces it.

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use phux_core::error_code::ErrorCode;

use crate::connection::Client;
use crate::error::ClientError;

/// How often the socket is tried while a server starts.
pub const AUTOSTART_POLL: Duration = Duration::from_millis(25);
/// How long a server gets to start listening.
pub const AUTOSTART_LIMIT: Duration = Duration::from_secs(3);

/// How many times a request that starts panes is run again after a stopping server refused it.
const TRIES_AFTER_A_STOPPING_SERVER: usize = 3;

/// Runs `create` (a request that starts panes) on the server at `socket`, starting one if none
/// listens there, and again on a new one if that server was stopping: what the refusal's remedy
/// would otherwise ask the user to do by hand. A stopping server has already let go of the
/// socket, so the next `ensure_server` starts its replacement.
pub fn on_a_server<T>(
    socket: &Path,
    mut create: impl FnMut(&mut Client) -> Result<T, ClientError>,
) -> Result<(Client, T), ClientError> {
    let mut tries = 0;
    loop {
        let mut client = ensure_server(socket)?;
        match create(&mut client) {
            Err(e) if was_stopping(&e) && tries < TRIES_AFTER_A_STOPPING_SERVER => {
                tries += 1;
                std::thread::sleep(AUTOSTART_POLL);
            }
            other => return other.map(|created| (client, created)),
        }
    }
}

/// The server refused because it is stopping, or went away before answering. Either way no pane
/// outlives it, so asking again cannot start one twice.
fn was_stopping(error: &ClientError) -> bool {
    matches!(
        error,
        ClientError::ServerDisconnected { .. }
            | ClientError::Server {
                code: ErrorCode::ServerDisconnected,
                ..
            }
    )
}

/// [`ensure_server`], saying on stderr when it started one: for verbs a person may expect to
/// need a running server (`workspace restore`, `launch`, `listen`), which instead start one.
/// On a first run the engine is installed here first, in view unless `quiet` (see
/// `engine_setup`), not inside a server the client gives up waiting for.
pub fn ensure_server_saying(socket: &Path, quiet: bool) -> Result<Client, crate::failure::Failure> {
    if let Ok(client) = Client::connect_running(socket) {
        return Ok(client);
    }
    crate::engine_setup::prepare_for_server(socket, quiet)?;
    let client = ensure_server(socket)?;
    crate::output::stderr_line(&format!(
        "phux: no server was running; started one at {}",
        socket.display()
    ));
    Ok(client)
}

/// A client of the server at `socket`, starting one first if nothing listens there.
pub fn ensure_server(socket: &Path) -> Result<Client, ClientError> {
    match Client::connect_running(socket) {
        Err(ClientError::NoServer { .. }) => {}
        other => return other,
    }
    // The server it starts reads the config file too, and falls back to the built-in
    // defaults when it cannot: say so here, where a person sees it, not only in its log.
    if let Err(error) = phux_core::config::file::load_default() {
        crate::output::warn(&format!(
            "{error}; the server starts with the built-in defaults (`phux config check` lists every problem)"
        ));
    }
    let mut child = spawn_server(socket)?;
    let deadline = Instant::now() + AUTOSTART_LIMIT;
    loop {
        std::thread::sleep(AUTOSTART_POLL);
        match Client::connect_running(socket).and_then(|mut client| {
            client.welcome()?;
            Ok(client)
        }) {
            Ok(client) => return Ok(client),
            Err(ClientError::NoServer { .. } | ClientError::ServerDisconnected { .. }) => {
                // Ours lost the start-up race to a server that has already stopped again (its
                // last pane exited): start another. Otherwise it is still starting, or a racing
                // server is between bind and accept.
                if child
                    .try_wait()
                    .is_ok_and(|s| s.is_some_and(|s| s.success()))
                {
                    child = spawn_server(socket)?;
                }
            }
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
    let exe = this_executable().map_err(|e| cannot_start(socket, &e))?;
    Command::new(exe)
        .arg("server")
        .arg("--socket")
        .arg(socket)
        .arg("--detach-stdio")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        // Read only if it exits without listening: its last words say why (the directory's
        // mode, a broken config). Once listening, its stderr is its log file.
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| cannot_start(socket, &e))
}

/// This executable, even when the file it was started from has been replaced (`phux update`
/// renames a new binary over it): then `/proc/self/exe` still runs this one.
fn this_executable() -> std::io::Result<std::path::PathBuf> {
    let exe = std::env::current_exe()?;
    if exe.exists() {
        Ok(exe)
    } else {
        Ok(std::path::PathBuf::from("/proc/self/exe"))
    }
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
            let mut said = String::new();
            if let Some(mut stderr) = child.stderr.take() {
                let _ = std::io::Read::read_to_string(&mut stderr, &mut said);
            }
            let why = said
                .lines()
                .next()
                .map(|line| line.trim_start_matches("phux: ").trim())
                .filter(|line| !line.is_empty());
            match why {
                Some(why) => format!("started `phux server`, which exited ({status}): {why}"),
                None => format!("started `phux server`, which exited ({status}) without listening"),
            }
        }
        _ => format!("started `phux server`, but it was not listening after {limit} s"),
    }
}
