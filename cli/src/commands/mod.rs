//! One module per verb; each holds its clap `Args` and its `run()`, which returns the exit
//! status. The work itself is in `crate::client`; a verb parses, calls it, and prints.

pub mod ask;
pub mod engine;
pub mod insert_pane;
pub mod kill;
pub mod ls;
pub mod move_pane;
pub mod new;
pub mod pane_exec;
pub mod paste;
pub mod play;
pub mod play_cast;
pub mod playback_flags;
pub mod rec;
pub mod rename;
pub mod resize;
pub mod run;
pub mod send_keys;
pub mod server;
pub mod signal;
pub mod snapshot;
pub mod spawn;
pub mod status;
pub mod swap_pane;
pub mod tag;
pub mod values;
pub mod wait;
pub mod watch;

use std::path::PathBuf;

use clap::Subcommand;

/// What every verb needs beyond its own arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    /// The server's socket, already resolved (`--socket` > `$PHUX_SOCKET` > ...).
    pub socket: PathBuf,
}

/// Not `Debug`: some verbs' `Args` (kept as their authors wrote them) are not.
#[derive(Subcommand)]
pub enum Command {
    /// Create a session (starting a server if none runs) and print its first pane
    New(new::Args),
    /// List sessions
    Ls(ls::Args),
    /// Say whether a server runs, and what it holds
    Status(status::Args),
    /// Open a new pane next to a target pane or in a session
    Spawn(spawn::Args),
    /// Kill a pane, window, session or tagged set, or the server (--server)
    Kill(kill::Args),
    /// Rename a session
    Rename(rename::Args),
    /// Set a pane's grid size and print the size the server holds
    Resize(resize::Args),
    /// Send a signal to a pane's process group
    Signal(signal::Args),
    /// List, add or remove pane tags
    Tag(tag::Args),
    /// Play a recording (.cast) in a new pane beside TARGET
    Play(play::Args),
    /// Type keys into a pane (tmux key names or literal text)
    SendKeys(send_keys::Args),
    /// Paste text into a pane without submitting it (stdin when TEXT is omitted)
    Paste(paste::Args),
    /// Place a pane next to a target pane
    InsertPane(insert_pane::Args),
    /// Move a pane next to another one, possibly in another session
    MovePane(move_pane::Args),
    /// Swap the places of two panes
    SwapPane(swap_pane::Args),
    /// Record a pane, a command or a recording to .cast, .gif or .png
    Rec(rec::Args),
    /// Print a pane's screen (boxed, or ScreenState v3 with --json)
    Snapshot(snapshot::Args),
    /// Wait until text appears on a pane or its screen settles
    Wait(wait::Args),
    /// Run a shell command in a pane and mirror its exit code
    Run(run::Args),
    /// Print pane events as they happen (NDJSON with --json)
    Watch(watch::Args),
    /// Report that a pane is asking a question
    Ask(ask::Args),
    /// Install or inspect the terminal engine (libghostty-vt)
    Engine(engine::Args),
    /// Run the server in the foreground
    Server(server::Args),
    #[command(name = "__pane-exec", hide = true)]
    PaneExec(pane_exec::Args),
    #[command(name = "__play-cast", hide = true)]
    PlayCast(play_cast::Args),
}

/// Runs a verb and returns the process exit status.
pub fn run(command: Command, context: &Context) -> i32 {
    match command {
        Command::New(args) => new::run(args, context),
        Command::Ls(args) => ls::run(args, context),
        Command::Status(args) => status::run(args, context),
        Command::Spawn(args) => spawn::run(args, context),
        Command::Kill(args) => kill::run(args, context),
        Command::Rename(args) => rename::run(args, context),
        Command::Resize(args) => resize::run(args, context),
        Command::Signal(args) => signal::run(args, context),
        Command::Tag(args) => tag::run(args, context),
        Command::SendKeys(args) => send_keys::run(args, context),
        Command::Paste(args) => paste::run(args, context),
        Command::InsertPane(args) => insert_pane::run(args, context),
        Command::MovePane(args) => move_pane::run(args, context),
        Command::SwapPane(args) => swap_pane::run(args, context),
        Command::Rec(args) => rec::run(args, context),
        Command::Snapshot(args) => snapshot::run(args, context),
        Command::Wait(args) => wait::run(args, context),
        Command::Run(args) => run::run(args, context),
        Command::Watch(args) => watch::run(args, context),
        Command::Ask(args) => ask::run(args, context),
        Command::Engine(args) => engine::run(args),
        Command::Server(args) => server::run(args, context),
        Command::PaneExec(args) => pane_exec::run(args),
        Command::Play(args) => play::run(args, context),
        Command::PlayCast(args) => play_cast::run(args, context),
    }
}
