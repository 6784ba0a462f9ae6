//! `phux workspace inspect [PATH] [--json]`: the git worktree PATH is in and its siblings
//! (read-only; no server). A path outside a repository is the `workspace` error.

use std::path::PathBuf;

use phux_core::exit_code::SUCCESS;

use crate::failure::{conclude, VerbResult};
use crate::output;
use crate::workspace::git;

/// Show the git worktree a path is in, and its sibling worktrees
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A path inside the repository
    #[arg(value_name = "PATH", default_value = ".")]
    pub path: PathBuf,
    /// Print {schema_version, repo, worktrees} as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> i32 {
    conclude(args.json, execute(&args))
}

fn execute(args: &Args) -> VerbResult {
    let document = git::inspect(&args.path)?;
    if args.json {
        output::print_json(&document);
    } else {
        let lines: Vec<String> = document
            .worktrees
            .iter()
            .map(|w| {
                format!(
                    "{}{}\t{}\t{}",
                    if w.current { "* " } else { "  " },
                    w.path,
                    w.branch.as_deref().unwrap_or("(detached)"),
                    w.head.as_deref().map_or("-", |h| &h[..h.len().min(12)])
                )
            })
            .collect();
        output::print_lines(&lines);
    }
    Ok(SUCCESS)
}
