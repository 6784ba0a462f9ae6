//! `phux attach [SESSION] [--rec FILE]` (alias `a`; also `phux` with no verb): shows a
//! session in this terminal until the person detaches (`C-a d`), `phux detach`, a signal, the
//! terminal closing, or the session ending. With no SESSION: the most recently active one,
//! else a new `default` (starting the server).

use std::path::PathBuf;
use std::process::{Command, Stdio};

use phux_core::error_code::ErrorCode;
use phux_core::exit_code::{FAILURE, SUCCESS};

use crate::client::lifecycle::{new_session, ProcessSpec};
use crate::client::{ensure_server, Client, ClientError};
use crate::commands::Context;
use crate::failure::{conclude, Failure, VerbResult};
use crate::output;
use crate::tui::{self, AttachError, AttachRequest, Ended};

/// Show a session in this terminal (default: the most recent one, else a new `default`)
#[derive(Debug, clap::Args)]
#[command(
    after_help = "The status line: [SESSION], the windows (`*` the one shown, `-` the last one, \
                  `#` one with output since it was last shown), the focused pane's title, ●REC \
                  while a pane of the window is recorded, ASK @N while a pane asks, and the \
                  time. Keys: C-a ? lists every binding."
)]
pub struct Args {
    /// The session to attach to
    #[arg(value_name = "SESSION")]
    pub session: Option<String>,
    /// Record what this client shows (borders, status line, every pane) to FILE (.cast, .gif,
    /// .png); input is never recorded
    #[arg(long, value_name = "FILE")]
    pub rec: Option<PathBuf>,
    /// How a .gif/.png --rec draws text
    #[command(flatten)]
    pub font: crate::commands::font_flags::FontFlags,
    /// Attach even from inside a phux pane
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(false, execute(args, context))
}

fn execute(args: Args, context: &Context) -> VerbResult {
    if !tui::outer::is_tty() {
        return Err(Failure::new(
            ErrorCode::NotATerminal,
            "phux attach needs a terminal (stdin and stdout must be a TTY)",
            "read a pane with `phux snapshot TARGET`, or follow it with `phux watch TARGET`",
        ));
    }
    if inside_a_pane() && !args.force {
        return Err(Failure::new(
            ErrorCode::NestedAttach,
            "this terminal is a phux pane: attaching here would nest phux in itself",
            "detach first, or pass --force to attach anyway",
        ));
    }
    if args.rec.is_some() {
        // A missing font is found now, not after the session was recorded.
        args.font.choice().check(1)?;
    }
    // A `[[remote]]` name shadows a local session: attach to that host's session over ssh.
    let remote = args.session.as_deref().and_then(remote_entry);
    let (mut control, session) = match &remote {
        Some(entry) => connect_remote(entry)?,
        None => (
            connect(context, args.session.as_deref())?,
            args.session.clone(),
        ),
    };
    let mut request = AttachRequest {
        session,
        rec: args.rec.clone(),
    };
    let rejoins = remote.is_none() && args.rec.is_none();
    let attached = loop {
        let asked = request.session.clone();
        let result = tui::attach(control, request);
        // A local server that upgraded itself (`phux upgrade`), or died and whose panes a new
        // server took over from their keepers, closed our connections; when a server answers
        // again with the session still there, attach again. (Not with --rec: the recording
        // ended with the connection.)
        let (ended_by_server, session) = match &result {
            Ok(attached) => (
                matches!(attached.ended, Ended::SessionEnded),
                Some(attached.session.clone()),
            ),
            Err(AttachError::Client(
                ClientError::ServerDisconnected { .. } | ClientError::Transport { .. },
            )) => (true, asked),
            Err(_) => (false, None),
        };
        let again = (rejoins && ended_by_server)
            .then(|| server_back(context, session.as_deref()))
            .flatten();
        match again {
            Some(client) => {
                control = client;
                request = AttachRequest { session, rec: None };
            }
            None => break result.map_err(|e| attach_failure(e, &args))?,
        }
    };
    match attached.ended {
        Ended::Detached => {
            output::stderr_line(&format!("[detached (from session {})]", attached.session))
        }
        Ended::SessionEnded => output::stderr_line("[exited]"),
        Ended::Stopped => {}
    }
    if let Some(Ok(recorder)) = attached.recording {
        finish_recording(recorder, &args.font)?;
    }
    Ok(SUCCESS)
}

/// How long a client whose connection closed waits for a server to answer again (an upgrade's
/// new process, or a server taking the panes over after a crash).
const RETURN_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// A connection to the server that answers on the socket again (the same process re-exec'd by
/// `phux upgrade`, or one that took the panes over from their keepers after a crash) if it has
/// `session` (any session when None). No server (the socket gone and no pane waiting) or a
/// session that ended mean the attach has ended.
fn server_back(context: &Context, session: Option<&str>) -> Option<Client> {
    let start = std::time::Instant::now();
    while start.elapsed() < RETURN_WAIT {
        match Client::connect(&context.socket) {
            Ok(mut client) => match client.state() {
                Ok(state) => {
                    let present = match session {
                        Some(name) => state.session(name).is_some(),
                        None => !state.sessions.is_empty(),
                    };
                    return present.then_some(client);
                }
                // A connection a dying server's listener still took: ask the next one.
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(20)),
            },
            // The socket is gone and no pane waits for a server: the server stopped.
            Err(ClientError::NoServer { .. }) => return None,
            Err(_) => std::thread::sleep(std::time::Duration::from_millis(20)),
        }
    }
    None
}

/// Whether this process runs in a phux pane (`$PHUX`, or `$PHUX_PANE` from older servers).
pub fn inside_a_pane() -> bool {
    ["PHUX", "PHUX_PANE"]
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|v| !v.is_empty()))
}

/// Attaches to `session` (which exists), as `phux new` does on a terminal.
pub fn attach_to(session: String, context: &Context) -> VerbResult {
    execute(
        Args {
            session: Some(session),
            rec: None,
            font: crate::commands::font_flags::FontFlags::default(),
            force: false,
        },
        context,
    )
}

/// The `[[remote]]` registry entry named `name`, if there is one.
fn remote_entry(name: &str) -> Option<phux_core::hosts::HostEntry> {
    let path = phux_core::config::paths::config_path();
    phux_core::hosts::host_list::list(&path)
        .ok()?
        .into_iter()
        .find(|h| h.name == name && h.role == phux_core::hosts::HostRole::Remote)
}

/// A client of a remote host's server over its own ssh link, and the session to attach there
/// (the entry's `session`, else the most recent one, else a new `default`).
fn connect_remote(
    entry: &phux_core::hosts::HostEntry,
) -> Result<(Client, Option<String>), Failure> {
    let endpoint = entry
        .parsed_endpoint()
        .map_err(|e| crate::commands::host::host_list_failure(e.into()))?;
    let mut client = Client::connect_remote(&entry.name, &endpoint)?;
    let state = client.state()?;
    let session = match &entry.session {
        Some(name) if state.session(name).is_none() => {
            new_session(&mut client, Some(name.clone()), ProcessSpec::default())?;
            Some(name.clone())
        }
        Some(name) => Some(name.clone()),
        None if state.sessions.is_empty() => {
            new_session(&mut client, Some("default".into()), ProcessSpec::default())?;
            None
        }
        None => None,
    };
    Ok((client, session))
}

/// A client of the server. Attaching to a named session needs it to exist; with no name, a
/// server is started and a `default` session created when there is none.
fn connect(context: &Context, session: Option<&str>) -> Result<Client, Failure> {
    let missing = |name: &str| {
        Failure::new(
            ErrorCode::NoSuchTarget,
            format!("no session named {name}"),
            format!("create it with `phux new -s {name}`"),
        )
        .with_exit_code(FAILURE)
    };
    match session {
        Some(name) => {
            let mut client = match Client::connect(&context.socket) {
                Ok(client) => client,
                Err(ClientError::NoServer { .. }) => return Err(missing(name)),
                Err(other) => return Err(other.into()),
            };
            if client.state()?.session(name).is_none() {
                return Err(missing(name));
            }
            Ok(client)
        }
        None => {
            let mut client = ensure_server(&context.socket)?;
            if client.state()?.sessions.is_empty() {
                new_session(&mut client, Some("default".into()), ProcessSpec::default())?;
            }
            Ok(client)
        }
    }
}

fn attach_failure(error: AttachError, args: &Args) -> Failure {
    match error {
        AttachError::Client(ClientError::Server {
            code: ErrorCode::NoSuchTarget,
            ..
        }) => {
            let name = args.session.clone().unwrap_or_else(|| "default".into());
            Failure::new(
                ErrorCode::NoSuchTarget,
                format!("no session named {name}"),
                format!("create it with `phux new -s {name}`"),
            )
            .with_exit_code(FAILURE)
        }
        AttachError::Client(e) => e.into(),
        AttachError::Terminal(e) => Failure::new(
            ErrorCode::NotATerminal,
            format!("cannot put the terminal in raw mode: {e}"),
            "run phux attach in an interactive terminal",
        ),
        AttachError::Recording(message) => Failure::new(
            ErrorCode::RecordFailed,
            message,
            "check that the --rec path is writable and ends in .cast, .gif or .png",
        ),
    }
}

/// Closes the cast and, for an animation, renders it with `phux rec --from`.
fn finish_recording(
    recorder: tui::recording::ScreenRecorder,
    font: &crate::commands::font_flags::FontFlags,
) -> Result<(), Failure> {
    let render_to = recorder.render_to.clone();
    let cast = recorder.finish().map_err(|message| {
        Failure::new(
            ErrorCode::RecordFailed,
            message,
            "retry with another --rec path",
        )
    })?;
    let Some(out) = render_to else {
        output::stderr_line(&format!("phux: recorded {}", cast.display()));
        return Ok(());
    };
    let exe = std::env::current_exe().unwrap_or_else(|_| "phux".into());
    let status = Command::new(exe)
        .arg("rec")
        .arg("--from")
        .arg(&cast)
        .arg("-o")
        .arg(&out)
        .arg("--overwrite")
        .args(font.choice().to_words())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status();
    match status {
        Ok(s) if s.success() => {
            phux_client::verbs::rec::export::remove_scratch(&cast);
            output::stderr_line(&format!("phux: recorded {}", out.display()));
            Ok(())
        }
        _ => Err(Failure::new(
            ErrorCode::EncodeFailed,
            format!("cannot render {}", out.display()),
            format!(
                "the recording is at {}; render it with `phux rec --from {} -o {}`",
                cast.display(),
                cast.display(),
                out.display()
            ),
        )),
    }
}
