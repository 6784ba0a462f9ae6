//! Usage errors found by the argument parser, reported like every other failure: clap's own
//! text without `--json`, and under `--json` one `invalid_argument` line (exit 2) with stdout
//! empty, so a script that asked for JSON never has to parse clap's prose. Help and version
//! requests are not failures and always print as clap renders them.

use std::ffi::OsString;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use phux_core::error_code::ErrorCode;
use phux_core::exit_code::USAGE;

use crate::failure::Failure;

/// Whether the command line asks for JSON: a `--json` word anywhere before a `--` (after it,
/// words belong to the command a verb runs). Checked on the raw words because the parser
/// failed and cannot say which verb, if any, would have taken the flag.
pub fn wants_json(args: &[OsString]) -> bool {
    args.iter()
        .skip(1)
        .take_while(|word| word.as_os_str() != "--")
        .any(|word| word.as_os_str() == "--json")
}

/// Prints `error` as the command line asked and returns the exit status.
pub fn report(error: &clap::Error, json: bool) -> i32 {
    let informational = matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    if !json || informational {
        let _ = error.print();
        return error.exit_code();
    }
    failure(error).report(true)
}

/// clap's suggestions, without the ones that mislead. An unknown `--flag` with no near match
/// gets "to pass '--flag' as a value, use '-- --flag'": right for a verb that runs a command
/// given after `--` (`rec`, `new`), misleading for the others (`snapshot --jsn` is not a pane
/// named `--jsn`), which lose it. A mistyped verb is offered only names that start as it does
/// and are at least half as long (not `a` for `snapshtot`, nor `logs` for `bogus`).
pub fn without_misleading_tip(
    mut error: clap::Error,
    command: &clap::Command,
    verb: Option<&str>,
) -> clap::Error {
    if error.kind() == ErrorKind::InvalidSubcommand {
        return without_short_names(error);
    }
    if error.kind() != ErrorKind::UnknownArgument {
        return error;
    }
    let verb = verb.and_then(|name| command.find_subcommand(name));
    let takes_a_command = verb.is_some_and(|verb| {
        verb.get_positionals()
            .any(|arg| arg.is_last_set() || arg.is_trailing_var_arg_set())
    });
    if takes_a_command {
        return error;
    }
    if let Some(ContextValue::StyledStrs(tips)) = error.remove(ContextKind::Suggested) {
        let kept: Vec<_> = tips
            .into_iter()
            .filter(|tip| !tip.to_string().contains("as a value, use '-- "))
            .collect();
        if !kept.is_empty() {
            error.insert(ContextKind::Suggested, ContextValue::StyledStrs(kept));
        }
    }
    error
}

fn without_short_names(mut error: clap::Error) -> clap::Error {
    let (typed, first) = match error.get(ContextKind::InvalidSubcommand) {
        Some(ContextValue::String(typed)) => (typed.chars().count(), typed.chars().next()),
        _ => return error,
    };
    if let Some(ContextValue::Strings(names)) = error.remove(ContextKind::SuggestedSubcommand) {
        let kept: Vec<String> = names
            .into_iter()
            .filter(|name| name.chars().count() * 2 >= typed && name.chars().next() == first)
            .collect();
        if !kept.is_empty() {
            error.insert(
                ContextKind::SuggestedSubcommand,
                ContextValue::Strings(kept),
            );
        }
    }
    error
}

/// The parser's complaint as a contract failure: the first paragraph of clap's message as the
/// message, and the usage line with where to read more as the remedy.
pub fn failure(error: &clap::Error) -> Failure {
    let text = error.render().to_string();
    let (message, usage) = split_rendered(&text);
    let mut remedy = tips(&text)
        .into_iter()
        .map(|tip| format!("{tip}; "))
        .collect::<String>();
    remedy.push_str(&match usage {
        Some(usage) => format!("usage: {usage}; see `phux --help` or `phux VERB --help`"),
        None => "see `phux --help` or `phux VERB --help`".to_owned(),
    });
    Failure::new(ErrorCode::InvalidArgument, message, remedy).with_exit_code(USAGE)
}

/// clap renders `error: MESSAGE` (maybe over several lines), a blank line, then perhaps
/// `Usage: ...` and a hint; this takes the message (its lines joined) and the usage line.
fn split_rendered(text: &str) -> (String, Option<String>) {
    let mut paragraphs = text.split("\n\n");
    let first = paragraphs.next().unwrap_or_default();
    let message = first
        .trim_start_matches("error:")
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let usage = text
        .lines()
        .find_map(|line| line.strip_prefix("Usage: "))
        .map(|line| line.trim().to_owned());
    let message = if message.is_empty() {
        "the command line is not valid".to_owned()
    } else {
        message
    };
    (message, usage)
}

/// clap's `tip:` lines ("a similar argument exists: '--json'"), which belong in the remedy.
fn tips(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("tip:"))
        .map(str::trim)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn json_anywhere_before_the_separator_counts() {
        assert!(wants_json(&words(&["phux", "--json", "nope"])));
        assert!(wants_json(&words(&[
            "phux", "resize", "@1", "0x10", "--json"
        ])));
        assert!(!wants_json(&words(&[
            "phux", "rec", "-o", "x", "--", "cmd", "--json"
        ])));
        assert!(!wants_json(&words(&["phux", "--jsonx"])));
    }

    #[test]
    fn the_message_is_clap_s_first_paragraph_on_one_line() {
        let rendered = "error: the following required arguments were not provided:\n  --session <NAME>\n\nUsage: phux new --session <NAME> --json [NAME]\n\nFor more information, try '--help'.\n";
        let (message, usage) = split_rendered(rendered);
        assert_eq!(
            message,
            "the following required arguments were not provided: --session <NAME>"
        );
        assert_eq!(
            usage.as_deref(),
            Some("phux new --session <NAME> --json [NAME]")
        );
    }

    #[test]
    fn a_mistyped_verb_or_flag_gets_a_suggestion_and_no_misleading_tip() {
        let parse = |words: &[&str]| {
            crate::cli::Cli::try_from_args(words.iter().map(OsString::from).collect())
                .err()
                .map(|e| e.render().to_string())
                .unwrap_or_default()
        };
        let far = parse(&["phux", "bogus"]);
        assert!(!far.contains("similar"), "{far}");
        let verb = parse(&["phux", "snapshtot"]);
        assert!(
            verb.contains("a similar subcommand exists: 'snapshot'"),
            "{verb}"
        );
        let flag = parse(&["phux", "snapshot", "--jsn"]);
        assert!(flag.contains("'--json'"), "{flag}");
        assert!(!flag.contains("-- --jsn"), "{flag}");
        let far = parse(&["phux", "snapshot", "--zzzzzz"]);
        assert!(!far.contains("-- --zzzzzz"), "{far}");
        // A verb that runs a command after `--` keeps clap's tip: it is the way to pass it.
        let command = parse(&["phux", "rec", "-o", "x.cast", "--zzzzzz"]);
        assert!(command.contains("-- --zzzzzz"), "{command}");
    }

    #[test]
    fn under_json_the_suggestion_is_in_the_remedy() {
        let error = crate::cli::Cli::try_from_args(
            ["phux", "snapshot", "--json", "--jsn"]
                .iter()
                .map(OsString::from)
                .collect(),
        )
        .err()
        .expect("--jsn is not a flag");
        let failure = failure(&error);
        let doc = serde_json::to_value(failure.document()).unwrap();
        let remedy = doc["remedy"].as_str().unwrap();
        assert!(
            remedy.starts_with("a similar argument exists: '--json'"),
            "{doc}"
        );
    }
}
