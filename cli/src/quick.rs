//! A thin entry for the calls agents make in tight loops (`snapshot --json @N`,
//! `wait --until TEXT --timeout S @N`): their words are read here directly into the verb's own
//! `Args`, and the verb runs as usual, without describing anything to clap first. Start-up is
//! most of what such a call costs. Anything else, or anything unusual in these (another flag,
//! a selector other than `@N`, `--help`), returns `None` and goes through clap, so the two
//! paths can never disagree about a command line they both accept.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::commands::{snapshot, values::parse_seconds, wait, Context};

/// Runs the command line if it is one of the shapes read here; `None` otherwise.
pub fn run(args: &[OsString]) -> Option<i32> {
    let words: Vec<&str> = args
        .iter()
        .skip(1)
        .map(|w| w.to_str())
        .collect::<Option<_>>()?;
    let (socket, words) = match words.as_slice() {
        ["--socket", path, rest @ ..] => (Some(PathBuf::from(path)), rest),
        rest => (None, rest),
    };
    let (verb, rest) = words.split_first()?;
    let context = || Context {
        socket: phux_core::socket_path::resolve(socket.as_deref()),
    };
    match *verb {
        "snapshot" => Some(snapshot::run(snapshot_args(rest)?, &context())),
        "wait" => Some(wait::run(wait_args(rest)?, &context())),
        _ => None,
    }
}

/// `@N`, the one selector that needs no resolving (and so no reading of the grammar here).
fn pane_target(word: &str) -> Option<String> {
    let digits = word.strip_prefix('@')?;
    (!digits.is_empty() && digits.len() <= 9 && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| word.to_owned())
}

/// `snapshot [--json | --plain] @N`, in any order.
fn snapshot_args(words: &[&str]) -> Option<snapshot::Args> {
    let mut args = snapshot::Args {
        json: false,
        scrollback: None,
        cells: false,
        tail: None,
        unwrap: false,
        plain: false,
        target: None,
    };
    for word in words {
        match *word {
            "--json" if !args.json && !args.plain => args.json = true,
            "--plain" if !args.json && !args.plain => args.plain = true,
            other if args.target.is_none() => args.target = Some(pane_target(other)?),
            _ => return None,
        }
    }
    args.target.is_some().then_some(args)
}

/// `wait --until TEXT [--timeout SECS] [--json] @N`, flags before the pane.
fn wait_args(words: &[&str]) -> Option<wait::Args> {
    let mut args = wait::Args {
        until: None,
        regex: None,
        idle: None,
        tail: None,
        output_only: false,
        new: false,
        after: None,
        timeout: None,
        json: false,
        target: None,
    };
    let mut words = words.iter();
    while let Some(word) = words.next() {
        match *word {
            "--until" if args.until.is_none() => {
                let text = words.next()?;
                // A value that looks like a flag is clap's to judge.
                if text.starts_with('-') {
                    return None;
                }
                args.until = Some((*text).to_owned());
            }
            "--timeout" if args.timeout.is_none() => {
                args.timeout = Some(parse_seconds(words.next()?).ok()?);
            }
            "--json" if !args.json => args.json = true,
            other if args.target.is_none() => args.target = Some(pane_target(other)?),
            _ => return None,
        }
    }
    (args.until.is_some() && args.target.is_some()).then_some(args)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Cli;
    use crate::commands::Command;

    fn words(line: &[&str]) -> Vec<&'static str> {
        line.iter()
            .map(|w| &*Box::leak(w.to_string().into_boxed_str()))
            .collect()
    }

    /// Every command line read here is read by clap the same way.
    #[test]
    fn the_thin_entry_agrees_with_clap() {
        let lines: [&[&str]; 7] = [
            &["snapshot", "--json", "@3"],
            &["snapshot", "--plain", "@3"],
            &["snapshot", "@5", "--plain"],
            &["snapshot", "@12", "--json"],
            &["snapshot", "@1"],
            &["wait", "--until", "MARK 1", "--timeout", "10", "@4"],
            &["wait", "--json", "--until", "$", "@4"],
        ];
        for line in lines {
            let mut argv = vec![OsString::from("phux")];
            argv.extend(line.iter().map(OsString::from));
            let cli = Cli::try_from_args(argv).unwrap();
            let rest = words(&line[1..]);
            match (line[0], cli.command) {
                ("snapshot", Command::Snapshot(clapped)) => {
                    let quick = snapshot_args(&rest).unwrap();
                    assert_eq!(format!("{quick:?}"), format!("{clapped:?}"), "{line:?}");
                }
                ("wait", Command::Wait(clapped)) => {
                    let quick = wait_args(&rest).unwrap();
                    assert_eq!(format!("{quick:?}"), format!("{clapped:?}"), "{line:?}");
                }
                _ => panic!("{line:?}"),
            }
        }
    }

    #[test]
    fn anything_else_is_left_to_clap() {
        for line in [
            &["snapshot", "--json", "work"][..],
            &["snapshot", "--json"],
            &["snapshot", "--cells", "@1"],
            &["snapshot", "@1", "@2"],
            &["snapshot", "--help"],
            &["snapshot", "--json", "--plain", "@1"],
            &["wait", "@1"],
            &["wait", "--until", "--json", "@1"],
            &["wait", "--until", "x", "--timeout", "soon", "@1"],
            &["wait", "--until", "x", "@1", "--idle", "5"],
        ] {
            let rest = words(&line[1..]);
            let quick = match line[0] {
                "snapshot" => snapshot_args(&rest).is_some(),
                _ => wait_args(&rest).is_some(),
            };
            assert!(!quick, "{line:?}");
        }
    }
}
