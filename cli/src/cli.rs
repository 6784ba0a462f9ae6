//! The top-level command line: global flags, the verb, and the exit-code table in `--help`.
//!
//! [`Cli::try_from_args`] describes to clap only the verb it was given (see
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
    /// /run/user/$UID/phux/phux.sock when that directory is yours, else /tmp/phux-$UID/phux.sock]
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
    /// Parses `args` (the program name first), describing to clap only the verb they name, or
    /// every verb when they name none (help, version, a mistyped verb).
    pub fn try_from_args(mut args: Vec<OsString>) -> Result<Cli, clap::Error> {
        if bare(&args) {
            // `phux` alone (or with only --socket / --rec): attach.
            let at = args.len().min(1);
            args.insert(at, OsString::from("attach"));
        }
        let args = bare_loop_after_file(json_after_verb(args));
        let mut command = match verb_of(&args).and_then(commands::describe) {
            Some(verb) => top_level().subcommand(verb),
            None => <Cli as clap::CommandFactory>::command(),
        };
        let matches = command
            .clone()
            .try_get_matches_from(&args)
            .map_err(|error| {
                crate::usage::without_misleading_tip(error, &command, verb_of(&args))
            })?;
        if matches.get_one::<String>("rec").is_some() {
            // Listed in `phux --help` for `phux --rec FILE`, which becomes `phux attach`.
            return Err(command.error(
                clap::error::ErrorKind::ArgumentConflict,
                "--rec before a verb records only with no verb (`phux --rec FILE` attaches); give it to the verb instead",
            ));
        }
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
        // Both are rewritten before parsing (`phux --rec FILE` is `phux attach --rec FILE`;
        // `--json` moves after the verb); they are here so `phux --help` lists them.
        .arg(
            clap::Arg::new("rec")
                .long("rec")
                .value_name("FILE")
                .help("With no verb: attach and record what you see to FILE (.cast, .gif, .png), as `phux attach --rec FILE`"),
        )
        .arg(
            clap::Arg::new("json")
                .long("json")
                .action(clap::ArgAction::SetTrue)
                .help("Before the verb: the same as the verb's own --json (a JSON document on stdout)"),
        )
}

/// No verb and nothing but `--socket PATH` and `--rec FILE`: `phux` means `phux attach`.
fn bare(args: &[OsString]) -> bool {
    let mut words = args.iter().skip(1);
    while let Some(word) = words.next() {
        match word.to_str() {
            Some("--socket" | "--rec") => {
                words.next();
            }
            Some(w) if w.starts_with("--socket=") || w.starts_with("--rec=") => {}
            _ => return false,
        }
    }
    true
}

/// The position of the verb: the first word that is neither a flag nor `--socket`'s value
/// (`--json` may come before it).
fn verb_at(args: &[OsString]) -> Option<usize> {
    let mut at = 1;
    while let Some(word) = args.get(at) {
        let word = word.to_str()?;
        if word == "--socket" {
            at += 1;
        } else if !word.starts_with('-') {
            return Some(at);
        } else if !word.starts_with("--socket=") && word != "--json" {
            return None;
        }
        at += 1;
    }
    None
}

/// The verb's name.
fn verb_of(args: &[OsString]) -> Option<&str> {
    verb_at(args).and_then(|at| args[at].to_str())
}

/// `phux --json VERB ...` means `phux VERB --json ...`: `--json` belongs to the verbs that
/// have it, and a script may put it first.
fn json_after_verb(args: Vec<OsString>) -> Vec<OsString> {
    let Some(verb) = verb_at(&args) else {
        return args;
    };
    if !args[1..verb].iter().any(|w| w == "--json") {
        return args;
    }
    let mut words = args.into_iter();
    let mut moved: Vec<OsString> = words
        .by_ref()
        .take(verb)
        .filter(|w| w != "--json")
        .collect();
    moved.extend(words.next());
    moved.push(OsString::from("--json"));
    moved.extend(words);
    moved
}

/// `phux play --loop demo.cast`: an optional value must not swallow the next argument. A bare
/// `--loop` followed by a word that is not a count moves to the end, where clap reads it bare
/// (`--loop`, `--loop=N` and `--loop N` with N a number are left as they are).
fn bare_loop_after_file(mut args: Vec<OsString>) -> Vec<OsString> {
    let Some(verb) = verb_at(&args) else {
        return args;
    };
    if !matches!(args[verb].to_str(), Some("play" | "__play-cast"))
        || args.iter().any(|w| w == "--")
    {
        return args;
    }
    let Some(at) = args
        .iter()
        .skip(verb)
        .position(|w| w == "--loop")
        .map(|i| i + verb)
    else {
        return args;
    };
    let swallowed = args
        .get(at + 1)
        .and_then(|w| w.to_str())
        .is_some_and(|w| !w.starts_with('-') && w.parse::<u32>().is_err());
    if swallowed {
        let flag = args.remove(at);
        args.push(flag);
    }
    args
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
        assert_eq!(verb_of(&words(&["phux", "--json", "ls"])), Some("ls"));
        assert_eq!(
            json_after_verb(words(&["phux", "--json", "--socket", "/s", "ls", "x"])),
            words(&["phux", "--socket", "/s", "ls", "--json", "x"])
        );
        assert_eq!(verb_of(&words(&["phux"])), None);
    }

    /// `phux play --loop demo.cast default` failed: `--loop` took the FILE as its count.
    #[test]
    fn a_bare_loop_does_not_swallow_the_file() {
        let play = |args: &[&str]| {
            let mut argv = vec!["phux", "play"];
            argv.extend_from_slice(args);
            match Cli::try_from_args(words(&argv)) {
                Ok(Cli {
                    command: Command::Play(a),
                    ..
                }) => (a.file.display().to_string(), a.target, a.playback.repeat),
                Ok(_) => panic!("not play"),
                Err(e) => panic!("{args:?}: {e}"),
            }
        };
        assert_eq!(
            play(&["--loop", "demo.cast", "default"]),
            ("demo.cast".into(), "default".into(), Some(None))
        );
        assert_eq!(
            play(&["--loop", "demo.cast"]),
            ("demo.cast".into(), ".".into(), Some(None))
        );
        assert_eq!(
            play(&["--loop", "3", "demo.cast"]),
            ("demo.cast".into(), ".".into(), Some(Some(3)))
        );
        assert_eq!(
            play(&["--loop=2", "demo.cast"]),
            ("demo.cast".into(), ".".into(), Some(Some(2)))
        );
        assert_eq!(
            play(&["demo.cast", "--loop"]),
            ("demo.cast".into(), ".".into(), Some(None))
        );
    }

    #[test]
    fn top_level_help_lists_rec_and_json() {
        let help = top_level().render_help().to_string();
        assert!(
            help.contains("--rec <FILE>") && help.contains("--json"),
            "{help}"
        );
        assert!(Cli::try_from_args(words(&["phux", "--rec", "x.cast", "ls"])).is_err());
    }

    #[test]
    fn phux_alone_attaches() {
        assert!(bare(&words(&["phux"])));
        assert!(bare(&words(&["phux", "--rec", "x.cast", "--socket", "/s"])));
        assert!(!bare(&words(&["phux", "--help"])));
        assert!(!bare(&words(&["phux", "ls"])));
        let cli = Cli::try_from_args(words(&["phux", "--rec", "x.cast"])).unwrap();
        assert!(matches!(cli.command, Command::Attach(ref a) if a.rec.is_some()));
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
        // Every verb of the command line was described alone above (a missing one panics).
        assert_eq!(seen, whole.get_subcommands().count());
        assert!(commands::describe("nope").is_none());
    }
}
