//! `phux worktree list [PATH] [--json]`: the repository's worktrees, each with the session
//! named after it and whether that session runs.

use std::path::PathBuf;

use phux_core::exit_code::SUCCESS;

use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;
use crate::workspace::worktree;

/// List the repository's worktrees and the session bound to each
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A path inside the repository
    #[arg(value_name = "PATH", default_value = ".")]
    pub path: PathBuf,
    /// Print {schema_version, worktrees[{path, branch, head, current, session, live}]}
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let mut client = super::server(context);
    let worktrees = worktree::list(&args.path, client.as_mut())?;
    if args.json {
        output::print_json(&serde_json::json!({"schema_version": 1, "worktrees": worktrees}));
    } else {
        let lines: Vec<String> = worktrees
            .iter()
            .map(|w| {
                format!(
                    "{}{}\t{}\t{}{}",
                    if w.current { "* " } else { "  " },
                    w.path,
                    w.branch.as_deref().unwrap_or("(detached)"),
                    w.session,
                    if w.live { "" } else { " (no session)" }
                )
            })
            .collect();
        output::print_lines(&lines);
    }
    Ok(SUCCESS)
}
