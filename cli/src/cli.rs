//! The top-level command line: global flags, the verb, and the exit-code table in `--help`.
//!
//! [`Cli::from_env`] describes to clap only the verb it was given (see
//! [`commands::describe`]); [`clap::CommandFactory::command`] describes all of them, for help,
//! a mistyped verb and tests. Both parse into the same [`Cli`].

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args as _, FromArgMatches as _, Subcommand as _};
use phux_core::exit_code::EXIT_CODE_TABLE_HELP;

use crate::commands::{self, Command, Context};

pub struct Cli {
    pub globals: Globals,
    pub command: Command,
}

/// Flags every verb accepts, before or after its name.
#[derive(Debug, clap::Args)]
pub struct Globals {
    /// The server's socket [default: $PHUX_SOCKET, else $XDG_RUNTIME_DIR/phux/phux.sock, else
    /// /tmp/phux-$UID/phux.sock]
    #[arg(long, global = true, value_name = "PATH")]
    pub socket: Option<PathBuf>,
}

impl Globals {
    /// What every verb needs to know beyond its own arguments.
    pub fn context(&self) -> Context {
        Context {
            socket: phux_core::socket_path::resolve(self.socket.as_deref()),
        }
    }
}

impl Cli {
    /// The process's command line, or clap's message and exit (2 for a usage error, 0 for
    /// `--help` and `--version`).
    pub fn from_env() -> Cli {
        Cli::try_from_args(std::env::args_os().collect()).unwrap_or_else(|e| e.exit())
    }

    /// Parses `args` (the program name first), describing to clap only the verb they name, or
    /// every verb when they name none (help, version, a mistyped verb).
    pub fn try_from_args(args: Vec<OsString>) -> Result<Cli, clap::Error> {
        let command = match verb_of(&args).and_then(commands::describe) {
            Some(verb) => top_level().subcommand(verb),
            None => <Cli as clap::CommandFactory>::command(),
        };
        let matches = command.try_get_matches_from(args)?;
        Cli::from_arg_matches(&matches)
    }
}

/// `phux` itself, its global flags and help, without its verbs. (The description is set after
/// the flags: clap would take the doc comment of `Globals` for it otherwise.)
fn top_level() -> clap::Command {
    Globals::augment_args(clap::Command::new("phux"))
        .version(env!("CARGO_PKG_VERSION"))
        .about("A terminal multiplexer built to record, replay and observe terminals")
        .long_about(None)
        .after_help(EXIT_CODE_TABLE_HELP)
        .propagate_version(true)
        .subcommand_required(true)
        .arg_required_else_help(true)
}

/// The verb's name: the first word that is neither a flag nor `--socket`'s value.
fn verb_of(args: &[OsString]) -> Option<&str> {
    let mut words = args.iter().skip(1);
    while let Some(word) = words.next() {
        let word = word.to_str()?;
        if word == "--socket" {
            words.next();
        } else if !word.starts_with('-') {
            return Some(word);
        } else if !word.starts_with("--socket=") {
            return None;
        }
    }
    None
}

impl clap::CommandFactory for Cli {
    fn command() -> clap::Command {
        Command::augment_subcommands(top_level())
    }

    fn command_for_update() -> clap::Command {
        Command::augment_subcommands_for_update(top_level())
    }
}

impl clap::FromArgMatches for Cli {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Cli, clap::Error> {
        Ok(Cli {
            globals: Globals::from_arg_matches(matches)?,
            command: Command::from_arg_matches(matches)?,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.globals.update_from_arg_matches(matches)?;
        self.command.update_from_arg_matches(matches)
    }
}

impl clap::Parser for Cli {}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_verb_is_the_first_word_past_the_global_socket() {
        assert_eq!(
            verb_of(&words(&["phux", "snapshot", "@1"])),
            Some("snapshot")
        );
        assert_eq!(
            verb_of(&words(&["phux", "--socket", "/s", "ls"])),
            Some("ls")
        );
        assert_eq!(verb_of(&words(&["phux", "--socket=/s", "ls"])), Some("ls"));
        assert_eq!(verb_of(&words(&["phux", "--help"])), None);
        assert_eq!(verb_of(&words(&["phux"])), None);
    }

    #[test]
    fn help_says_what_phux_is_and_what_each_verb_does() {
        let help = <Cli as clap::CommandFactory>::command()
            .render_help()
            .to_string();
        assert!(
            help.starts_with("A terminal multiplexer built to record, replay and observe"),
            "{help}"
        );
        assert!(
            help.contains("snapshot     Print a pane's screen"),
            "{help}"
        );
        let error = Cli::try_from_args(words(&["phux", "snapshot", "--help"]))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.starts_with("Print a pane's screen"), "{error}");
    }

    /// The verb described alone is the verb as the whole command line describes it: same
    /// description, same arguments with the same settings.
    #[test]
    fn every_verb_described_alone_matches_the_whole_command_line() {
        let whole = <Cli as clap::CommandFactory>::command();
        let mut seen = 0;
        for verb in whole.get_subcommands() {
            let name = verb.get_name();
            let alone = commands::describe(name).unwrap_or_else(|| panic!("{name} not described"));
            assert_eq!(
                alone.get_about().map(ToString::to_string),
                verb.get_about().map(ToString::to_string),
                "{name}: description"
            );
            let args = |c: &clap::Command| -> Vec<String> {
                c.get_arguments().map(|a| format!("{a:?}")).collect()
            };
            assert_eq!(args(&alone), args(verb), "{name}: arguments");
            seen += 1;
        }
        assert_eq!(seen, 26, "a verb was added: describe() must name it too");
        assert!(commands::describe("nope").is_none());
    }
}
