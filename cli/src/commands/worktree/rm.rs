//! `phux worktree rm PATH|BRANCH [--force] [--json]`: removes a worktree and ends its session;
//! one with changes not committed is refused (nothing removed) unless `--force`.

use phux_core::exit_code::SUCCESS;

use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;
use crate::workspace::worktree;

/// Remove a worktree (refused when it has changes not committed) and end its session
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The worktree: its path, or the branch it has out
    #[arg(value_name = "PATH|BRANCH")]
    pub target: String,
    /// Remove it even with changes not committed (they are lost)
    #[arg(long)]
    pub force: bool,
    /// Print {schema_version, path, session, session_killed}
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    let mut client = super::server(context);
    let removed = worktree::remove(
        std::path::Path::new("."),
        &args.target,
        args.force,
        client.as_mut(),
    )?;
    if args.json {
        output::print_json(&serde_json::json!({
            "schema_version": 1,
            "path": removed.path,
            "session": removed.session,
            "session_killed": removed.session_killed,
        }));
    } else {
        let ended = if removed.session_killed {
            format!("; session {} ended", removed.session)
        } else {
            String::new()
        };
        output::print_line(&format!("removed {}{ended}", removed.path));
    }
    Ok(SUCCESS)
}
