//! One module per verb; each holds its clap `Args` and its `run()`, which returns the exit
//! status. The work itself is in `phux_client` (`phux_client::verbs` for the operations that are
//! more than one call); a verb parses, calls it, and prints.

pub mod agent;
pub mod ask;
pub mod attach;
pub mod completion;
pub mod config;
pub mod detach;
pub mod doctor;
pub mod engine;
pub mod font_flags;
pub mod give;
pub mod host;
pub mod insert_pane;
pub mod keeper;
pub mod kill;
pub mod launch;
pub mod listen;
pub mod logs;
pub mod ls;
pub mod mcp;
pub mod move_pane;
pub mod new;
pub mod pair;
pub mod pane_exec;
pub mod paste;
pub mod play;
pub mod play_cast;
pub mod playback_flags;
pub mod plugin;
pub mod proxy;
pub mod rec;
pub mod remote_link;
pub mod rename;
pub mod resize;
pub mod run;
pub mod send_keys;
pub mod server;
pub mod server_defaults;
pub mod service;
pub mod signal;
pub mod skill;
pub mod snapshot;
pub mod spawn;
pub mod status;
pub mod swap_pane;
pub mod tag;
pub mod take;
pub mod tape;
pub mod update;
pub mod upgrade;
pub mod values;
pub mod wait;

pub mod watch;
pub mod web;
pub mod workspace;
pub mod worktree;

use clap::{Args as _, Subcommand};
use phux_client::verbs::table::VERBS;

pub use phux_client::Context;

// Every verb. Its one-line description is the doc comment of its `Args`, so `describe` gives
// clap the same verb alone. (A doc comment here would become `phux --help`'s description.) Not
// `Debug`: some verbs' `Args` (kept as their authors wrote them) are not.
#[derive(Subcommand)]
pub enum Command {
    #[command(visible_alias = "a")]
    Attach(attach::Args),
    Detach(detach::Args),
    New(new::Args),
    Ls(ls::Args),
    Status(status::Args),
    Spawn(spawn::Args),
    Kill(kill::Args),
    Rename(rename::Args),
    Resize(resize::Args),
    Signal(signal::Args),
    Tag(tag::Args),
    Play(play::Args),
    SendKeys(send_keys::Args),
    Paste(paste::Args),
    Take(take::Args),
    Give(give::Args),
    InsertPane(insert_pane::Args),
    MovePane(move_pane::Args),
    SwapPane(swap_pane::Args),
    Rec(rec::Args),
    Tape(tape::Args),
    Snapshot(snapshot::Args),
    Wait(wait::Args),
    Run(run::Args),
    Watch(watch::Args),
    Ask(ask::Args),
    Agent(agent::Args),
    Mcp(mcp::Args),
    Config(config::Args),
    Plugin(plugin::Args),
    Workspace(workspace::Args),
    Worktree(worktree::Args),
    Launch(launch::Args),
    Doctor(doctor::Args),
    Logs(logs::Args),
    Update(update::Args),
    Upgrade(upgrade::Args),
    Service(service::Args),
    Completion(completion::Args),
    Engine(engine::Args),
    Server(server::Args),
    // Upstream folded `remote` and `satellite` into `host --role`; the old names still work.
    #[command(alias = "remote", alias = "satellite")]
    Host(host::Args),
    Pair(pair::Args),
    Listen(listen::Args),
    Web(web::Args),
    Proxy(proxy::Args),
    Skill(skill::Args),
    #[command(name = "__remote-link", hide = true)]
    RemoteLink(remote_link::Args),
    #[command(name = "__pane-exec", hide = true)]
    PaneExec(pane_exec::Args),
    #[command(name = "__play-cast", hide = true)]
    PlayCast(play_cast::Args),
    #[command(name = "__keeper", hide = true)]
    Keeper(keeper::Args),
}

type Describe = fn(clap::Command) -> clap::Command;

/// Each verb's arguments, in the order of the verb table's verbs
/// (`phux_client::verbs::table::VERBS`), which names them: a verb's name is written there, not
/// here. One out of place would describe a verb with another's arguments, which
/// `every_verb_described_alone_matches_the_whole_command_line` (in `cli.rs`) catches.
const ARGUMENTS: &[Describe] = &[
    attach::Args::augment_args,
    detach::Args::augment_args,
    new::Args::augment_args,
    ls::Args::augment_args,
    status::Args::augment_args,
    spawn::Args::augment_args,
    kill::Args::augment_args,
    rename::Args::augment_args,
    resize::Args::augment_args,
    signal::Args::augment_args,
    tag::Args::augment_args,
    play::Args::augment_args,
    send_keys::Args::augment_args,
    paste::Args::augment_args,
    take::Args::augment_args,
    give::Args::augment_args,
    insert_pane::Args::augment_args,
    move_pane::Args::augment_args,
    swap_pane::Args::augment_args,
    rec::Args::augment_args,
    tape::Args::augment_args,
    snapshot::Args::augment_args,
    wait::Args::augment_args,
    run::Args::augment_args,
    watch::Args::augment_args,
    ask::Args::augment_args,
    agent::Args::augment_args,
    mcp::Args::augment_args,
    config::Args::augment_args,
    plugin::Args::augment_args,
    workspace::Args::augment_args,
    worktree::Args::augment_args,
    launch::Args::augment_args,
    doctor::Args::augment_args,
    logs::Args::augment_args,
    update::Args::augment_args,
    upgrade::Args::augment_args,
    service::Args::augment_args,
    completion::Args::augment_args,
    engine::Args::augment_args,
    server::Args::augment_args,
    host::Args::augment_args,
    pair::Args::augment_args,
    listen::Args::augment_args,
    web::Args::augment_args,
    proxy::Args::augment_args,
    skill::Args::augment_args,
    remote_link::Args::augment_args,
    pane_exec::Args::augment_args,
    play_cast::Args::augment_args,
    keeper::Args::augment_args,
];

/// clap's description of the one verb called `name` (or one of its aliases), built without
/// describing the others: a run of `phux` describes only the verb it was given, since describing
/// all of them costs more than the rest of a `snapshot`'s start-up. `None` for a name that is
/// no verb.
pub fn describe(name: &str) -> Option<clap::Command> {
    let name = match name {
        "a" => "attach",
        "remote" | "satellite" => "host",
        other => other,
    };
    let (verb, augment) = VERBS
        .iter()
        .filter(|verb| verb.is_top_level())
        .zip(ARGUMENTS)
        .find(|(verb, _)| verb.name == name)?;
    let command = clap::Command::new(verb.name);
    let command = match verb.name {
        "attach" => command.visible_alias("a"),
        "host" => command.alias("remote").alias("satellite"),
        _ => command,
    };
    Some(augment(command))
}

/// Runs a verb and returns the process exit status.
pub fn run(command: Command, context: &Context) -> i32 {
    match command {
        Command::Attach(args) => attach::run(args, context),
        Command::Detach(args) => detach::run(args, context),
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
        Command::Take(args) => take::run(args, context),
        Command::Give(args) => give::run(args, context),
        Command::InsertPane(args) => insert_pane::run(args, context),
        Command::MovePane(args) => move_pane::run(args, context),
        Command::SwapPane(args) => swap_pane::run(args, context),
        Command::Rec(args) => rec::run(args, context),
        Command::Tape(args) => tape::run(args, context),
        Command::Snapshot(args) => snapshot::run(args, context),
        Command::Wait(args) => wait::run(args, context),
        Command::Run(args) => run::run(args, context),
        Command::Watch(args) => watch::run(args, context),
        Command::Ask(args) => ask::run(args, context),
        Command::Agent(args) => agent::run(args, context),
        Command::Mcp(args) => mcp::run(args, context),
        Command::Config(args) => config::run(args, context),
        Command::Plugin(args) => plugin::run(args),
        Command::Workspace(args) => workspace::run(args, context),
        Command::Worktree(args) => worktree::run(args, context),
        Command::Launch(args) => launch::run(args, context),
        Command::Doctor(args) => doctor::run(args, context),
        Command::Logs(args) => logs::run(args, context),
        Command::Update(args) => update::run(args, context),
        Command::Upgrade(args) => upgrade::run(args, context),
        Command::Service(args) => service::run(args, context),
        Command::Completion(args) => completion::run(args),
        Command::Engine(args) => engine::run(args),
        Command::Server(args) => server::run(args, context),
        Command::Host(args) => host::run(args, context),
        Command::Pair(args) => pair::run(args, context),
        Command::Listen(args) => listen::run(args, context),
        Command::Web(args) => web::run(args),
        Command::RemoteLink(args) => remote_link::run(args),
        Command::Proxy(args) => proxy::run(args, context),
        Command::Skill(args) => skill::run(args),
        Command::PaneExec(args) => pane_exec::run(args),
        Command::Play(args) => play::run(args, context),
        Command::PlayCast(args) => play_cast::run(args, context),
        Command::Keeper(args) => keeper::run(args),
    }
}

#[cfg(test)]
mod tests {
    use phux_client::verbs::table::{sub_verbs, VERBS};

    /// The command line's verbs are the verb table's, in its order (`phux --help` lists them
    /// as the table does), and so are the sub-verbs the table lists one by one (`agent wait`):
    /// a verb added here and not there (with its MCP tool or the reason for none) fails.
    #[test]
    fn the_verbs_are_the_verb_table_s() {
        let whole = <crate::cli::Cli as clap::CommandFactory>::command();
        let clapped: Vec<&str> = whole.get_subcommands().map(|c| c.get_name()).collect();
        let tabled: Vec<&str> = VERBS
            .iter()
            .filter(|v| v.is_top_level())
            .map(|v| v.name)
            .collect();
        assert_eq!(clapped, tabled);
        assert_eq!(
            super::ARGUMENTS.len(),
            tabled.len(),
            "one ARGUMENTS entry per verb"
        );
        for verb in whole.get_subcommands() {
            let tabled: Vec<&str> = sub_verbs(verb.get_name()).map(|s| s.name).collect();
            if tabled.is_empty() {
                continue;
            }
            let clapped: Vec<String> = verb
                .get_subcommands()
                .map(|sub| format!("{} {}", verb.get_name(), sub.get_name()))
                .collect();
            assert_eq!(clapped, tabled, "{}", verb.get_name());
        }
    }
}
