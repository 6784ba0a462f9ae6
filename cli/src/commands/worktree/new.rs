//! `phux worktree new BRANCH [--path P] [--from REF] [-s NAME] [--json]`: makes a worktree for
//! BRANCH (a new branch from REF, else HEAD, when it does not exist yet) and starts its session
//! there, detached.

use std::path::PathBuf;

use phux_core::exit_code::SUCCESS;

use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;
use crate::workspace::worktree;

/// Make a worktree for a branch and start its session there
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The branch to have out (made when it does not exist)
    #[arg(value_name = "BRANCH")]
    pub branch: String,
    /// Where the worktree goes [default: beside the repository, REPO-BRANCH]
    #[arg(long, value_name = "PATH")]
    pub path: Option<PathBuf>,
    /// The commit a new branch starts from [default: HEAD]
    #[arg(long, value_name = "REF")]
    pub from: Option<String>,
    /// The session's name [default: the worktree directory's name]
    #[arg(short = 's', long = "session", value_name = "NAME")]
    pub session: Option<String>,
    /// Print {schema_version, path, branch, session, terminal_id}
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    if let Some(name) = &args.session {
        phux_client::verbs::rename::check_new_name(name)?;
    }
    let mut client = crate::commands::values::connect(context)?;
    let made = worktree::create(
        std::path::Path::new("."),
        &args.branch,
        args.path.as_deref(),
        args.from.as_deref(),
        args.session.as_deref(),
        &mut client,
    )?;
    if args.json {
        output::print_json(&serde_json::json!({
            "schema_version": 1,
            "path": made.path,
            "branch": made.branch,
            "session": made.session,
            "terminal_id": made.terminal_id,
        }));
    } else {
        output::print_line(&format!(
            "{} ({}): session {} (`phux attach {}`)",
            made.path, made.branch, made.session, made.session
        ));
    }
    Ok(SUCCESS)
}
