//! Usage errors found by the argument parser, reported like every other failure: clap's own
//! text without `--json`, and under `--json` one `invalid_argument` line (exit 2) with stdout
//! empty, so a script that asked for JSON never has to parse clap's prose. Help and version
//! requests are not failures and always print as clap renders them.

use std::ffi::OsString;

use clap::error::ErrorKind;
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

/// The parser's complaint as a contract failure: the first paragraph of clap's message as the
/// message, and the usage line with where to read more as the remedy.
pub fn failure(error: &clap::Error) -> Failure {
    let text = error.render().to_string();
    let (message, usage) = split_rendered(&text);
    let remedy = match usage {
        Some(usage) => format!("usage: {usage}; see `phux --help` or `phux VERB --help`"),
        None => "see `phux --help` or `phux VERB --help`".to_owned(),
    };
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
}
