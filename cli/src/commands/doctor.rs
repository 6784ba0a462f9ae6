//! `phux doctor [--json]`: checks what phux needs: the engine, the socket directory, the
//! server, the config file, the plugins, shell integration, git and ssh. Exit 1 when a check
//! failed; warnings still exit 0.

pub use phux_client::verbs::doctor::document;
use phux_core::documents::CheckStatus;
use phux_core::exit_code::{FAILURE, SUCCESS};

use crate::commands::Context;
use crate::output;

/// Check the engine, socket, server, config, plugins, shell integration, git and ssh
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print {schema_version, ok, failed, checks} as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    let document = document(context);
    if args.json {
        output::print_json(&document);
    } else {
        let lines: Vec<String> = document
            .checks
            .iter()
            .flat_map(|c| {
                let word = match c.status {
                    CheckStatus::Pass => "ok  ",
                    CheckStatus::Warn => "warn",
                    CheckStatus::Fail => "FAIL",
                };
                let mut lines = vec![format!("{word}  {:<18}{}", c.name, c.detail)];
                lines.extend(c.hint.as_ref().map(|h| format!("      {:<18}→ {h}", "")));
                lines
            })
            .collect();
        output::print_lines(&lines);
    }
    if document.ok {
        SUCCESS
    } else {
        FAILURE
    }
}
