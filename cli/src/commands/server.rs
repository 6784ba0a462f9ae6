//! `phux server`: run the server in the foreground (or, with `--detach-stdio`, as the
//! background server a client starts on demand).

use std::path::PathBuf;
use std::time::Duration;

use phux_server::clients::WindowSizePolicy;
use phux_server::{ServerConfig, ServerError, SocketError};

use crate::output::print_error;

/// Run the server in the foreground
#[derive(clap::Args)]
pub struct Args {
    /// Exit once no pane and no client has existed for this many seconds (1..=86400)
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=86400))]
    exit_after_idle: Option<u64>,
    /// Memory each pane's flight recorder keeps for `phux rec --since` (0 turns it off)
    /// [default: [defaults] flight-bytes, else 4194304]
    #[arg(long, value_name = "BYTES")]
    flight_bytes: Option<usize>,
    /// Rows of history each pane keeps unless `new --history-limit` says otherwise
    /// (1..=1000000) [default: $PHUX_HISTORY_LIMIT, else [defaults] history-limit, else 10000]
    #[arg(long, value_name = "ROWS", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    history_limit: Option<u32>,
    /// How attached clients' sizes decide a session's size: smallest (larger clients
    /// letterbox), largest, latest (the last client to attach or resize), manual (only
    /// `phux resize`) [default: $PHUX_WINDOW_SIZE, else [defaults] window-size, else smallest]
    #[arg(long, value_name = "POLICY", value_parser = WindowSizePolicy::NAMES)]
    window_size: Option<String>,
    /// How many panes whose program ended stay readable (snapshot, wait; listed under
    /// `exited` by `ls --json`) [default: $PHUX_KEEP_EXITED, else 16; 0 keeps none]
    #[arg(long, value_name = "N")]
    keep_exited: Option<usize>,
    /// How long an ended pane stays readable, in seconds [default: $PHUX_KEEP_EXITED_SECS,
    /// else 600]
    #[arg(long, value_name = "SECS")]
    keep_exited_secs: Option<u64>,
    /// Listen for paired browsers and hubs on HOST:PORT (TLS WebSocket; `phux pair` mints their
    /// tokens) [default: $PHUX_WS_ADDR, else [listener] ws_addr; none: no listener]
    #[arg(long, value_name = "HOST:PORT")]
    ws_addr: Option<String>,
    /// Start without the `default` session a foreground server normally seeds
    #[arg(long)]
    no_seed: bool,
    /// Run as a background server started by a client: no seed session, output to a log file
    /// beside the socket, and a quiet exit when another server already owns the socket
    #[arg(long, hide = true)]
    detach_stdio: bool,
    /// Take over from the server process that exec'd this one (`phux upgrade`): its socket,
    /// its panes and the manifest it wrote here
    #[arg(long, hide = true, value_name = "MANIFEST")]
    adopt: Option<PathBuf>,
    /// Print `phux-protocol MAJOR.MINOR` and exit: what a server about to hand over to this
    /// binary (`phux upgrade`) checks first
    #[arg(long, hide = true)]
    print_protocol: bool,
}

pub fn run(args: Args, context: &super::Context) -> i32 {
    if args.print_protocol {
        let protocol = phux_core::wire::PROTOCOL;
        crate::output::print_line(&format!(
            "phux-protocol {}.{}",
            protocol.major, protocol.minor
        ));
        return 0;
    }
    let socket = context.socket.clone();
    // Started from a binary since replaced (a client of the old binary taking the panes over
    // after a failed upgrade): `/proc/self/exe` still runs this one.
    let shim = std::env::current_exe()
        .ok()
        .map(|exe| {
            if exe.exists() {
                exe
            } else {
                PathBuf::from("/proc/self/exe")
            }
        })
        .unwrap_or_else(|| PathBuf::from("phux"));
    let mut config = ServerConfig::new(socket.clone(), shim);
    let file = super::server_defaults::apply(&mut config);
    config.seed_session = !args.no_seed && !args.detach_stdio;
    config.adopt = args.adopt;
    let from_file = config.ws_addr.take();
    // Asked for on this command line: a server already running is given the listener instead.
    let join_with = args.ws_addr.clone().filter(|_| !args.detach_stdio);
    config.ws_addr = args
        .ws_addr
        .or_else(|| phux_core::config::listener::configured_addr(|| from_file));
    if let Some(bytes) = args.flight_bytes {
        config.flight_bytes = bytes;
    }
    if let Some(keep) = args.keep_exited {
        config.keep_exited = keep;
    }
    if let Some(secs) = args.keep_exited_secs {
        config.keep_exited_for = Duration::from_secs(secs);
    }
    if let Some(rows) = args.history_limit {
        config.scrollback_rows = rows as usize;
    }
    let policy = args
        .window_size
        .or_else(|| std::env::var("PHUX_WINDOW_SIZE").ok())
        .or_else(|| file.window_size.map(|w| w.as_str().to_string()));
    config.window_size = policy
        .as_deref()
        .and_then(WindowSizePolicy::parse)
        .unwrap_or_default();
    let idle = args.exit_after_idle.or_else(|| {
        std::env::var("PHUX_AUTO_SPAWN_EXIT_AFTER_IDLE")
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|&s| (1..=86_400).contains(&s))
    });
    config.exit_after_idle = idle.map(Duration::from_secs);
    if args.detach_stdio {
        // A client-started server with nothing to do should not linger forever.
        config.exit_after_idle = config.exit_after_idle.or(Some(Duration::from_secs(30)));
        // The directory is checked before anything is written beside the socket.
        let checked = phux_server::socket::prepare_directory_of(&socket)
            .and_then(|()| phux_server::socket::check_lock_of(&socket));
        if let Err(error) = checked {
            let error = ServerError::Socket(error);
            print_error(&error.to_string(), &remedy(&error));
            return 1;
        }
        let log_path = phux_client::verbs::logs::server_log(&socket);
        // Without its log the server still runs; its stderr is /dev/null then (not the pipe
        // the client that started it reads until it listens).
        if phux_server::log::to_file(&log_path).is_ok() {
            config.log_path = Some(log_path);
        } else if let Ok(null) = std::fs::File::options().write(true).open("/dev/null") {
            let _ = rustix::stdio::dup2_stderr(&null);
        }
    }
    match phux_server::run(config) {
        Ok(()) => 0,
        Err(ServerError::Socket(SocketError::AlreadyRunning { .. })) if args.detach_stdio => 0,
        Err(ServerError::Socket(SocketError::AlreadyRunning { .. })) if join_with.is_some() => {
            join_running(&socket, join_with.as_deref().unwrap_or_default())
        }
        Err(error) => {
            print_error(&error.to_string(), &remedy(&error));
            1
        }
    }
}

/// `--ws-addr` while a server runs: the running server starts the listener (its panes and
/// clients stay as they are) and this command ends.
fn join_running(socket: &std::path::Path, addr: &str) -> i32 {
    let joined = phux_client::Client::connect_running(socket)
        .map_err(phux_client::failure::Failure::from)
        .and_then(|mut client| phux_client::verbs::listen::listen(&mut client, addr));
    match joined {
        Ok(document) => {
            crate::output::print_line(&format!(
                "a server already runs at {}: {}",
                socket.display(),
                if document.started {
                    "its listener is started (its panes and clients are as they were)"
                } else {
                    "it already listens there"
                }
            ));
            for line in phux_client::verbs::listen::describe(&document) {
                crate::output::print_line(&line);
            }
            0
        }
        Err(failure) => {
            print_error(&failure.message, &failure.remedy);
            failure.exit_code
        }
    }
}

fn remedy(error: &ServerError) -> String {
    match error {
        ServerError::Socket(SocketError::AlreadyRunning { .. }) => {
            "use the running server, or stop it with `phux kill --server`".into()
        }
        ServerError::Socket(SocketError::UnsafeDirectory { path, .. }) => {
            format!("run `chmod 700 {}`", path.display())
        }
        ServerError::Socket(SocketError::UnsafeLock { path, .. }) => {
            format!("remove {} (or choose another --socket)", path.display())
        }
        ServerError::Engine(e) => e.remedy(),
        _ => "check the socket path (--socket or PHUX_SOCKET) and retry".into(),
    }
}
