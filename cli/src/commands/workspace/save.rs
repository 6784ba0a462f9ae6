//! `phux workspace save [-o PATH] [--json]`: the server's sessions as an archive (schema 2) on
//! stdout, or written atomically to PATH (then a line says what was saved where; `--json`
//! prints the archive as well).

use std::path::{Path, PathBuf};

pub use phux_client::verbs::workspace_save::{document, write};
use phux_core::documents::WorkspaceArchive;
use phux_core::exit_code::SUCCESS;

use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Save every session (windows, split layout, pane cwds and commands) as a JSON archive
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write the archive here instead of stdout
    #[arg(short = 'o', long, value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Print the archive (a WorkspaceArchive document) even when it is written to a file
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let document = document(context)?;
    match &args.output {
        None => output::print_json(&document),
        Some(path) => {
            write(path, &document)?;
            if args.json {
                output::print_json(&document);
            } else {
                output::print_line(&saved_line(&document, path));
            }
        }
    }
    Ok(SUCCESS)
}

/// `saved 2 sessions (dev, logs) to ws.json`: `save -o` said nothing at all.
fn saved_line(document: &WorkspaceArchive, path: &Path) -> String {
    let names: Vec<&str> = document.sessions.iter().map(|s| s.name.as_str()).collect();
    let count = match names.len() {
        1 => "1 session".to_owned(),
        n => format!("{n} sessions"),
    };
    let listed = if names.is_empty() {
        String::new()
    } else {
        format!(" ({})", names.join(", "))
    };
    format!("saved {count}{listed} to {}", path.display())
}
