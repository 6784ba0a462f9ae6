//! `phux launch ID`: starts an agent integration of an enabled plugin in a new pane (§4.13):
//! the resolved argv (a fresh session id when its template has one, or `--resume ID`), placed
//! by `--target/--split/--ratio`, with the pane's `phux.agent/v1` record declared and the
//! launch recorded for `workspace save`. `--list` inventories integrations; `--print` resolves
//! without spawning.

use phux_client::verbs::launch::{document, LaunchOptions, Launched};
use phux_core::exit_code::SUCCESS;
use phux_core::ids::PaneId;
use phux_core::split::DEFAULT_RATIO;

use crate::commands::values::SplitArg;
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Start a plugin's agent integration in a new pane
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The integration's id [required unless --list]
    #[arg(value_name = "ID", required_unless_present = "list")]
    pub id: Option<String>,
    /// List every enabled plugin's integrations instead
    #[arg(long, conflicts_with_all = ["print", "id"])]
    pub list: bool,
    /// Resolve the argv and directory without spawning
    #[arg(long, visible_alias = "dry-run")]
    pub print: bool,
    /// Only the integration of this plugin (when several offer the id)
    #[arg(long, value_name = "PLUGIN")]
    pub plugin: Option<String>,
    /// Resume this agent session id instead of starting a fresh one
    #[arg(long, value_name = "SESSION_ID")]
    pub resume: Option<String>,
    /// The pane to split, or a session to add the pane to [default: the most recently active
    /// session, or a new session named after the integration]
    #[arg(long, value_name = "TARGET")]
    pub target: Option<String>,
    /// The divider: horizontal (stacked) or vertical (side by side)
    #[arg(long, value_enum, default_value_t = SplitArg::Horizontal)]
    pub split: SplitArg,
    /// The new pane's share of the space, strictly between 0 and 1
    #[arg(long, default_value_t = DEFAULT_RATIO, allow_negative_numbers = true)]
    pub ratio: f64,
    /// Print a JSON document
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context))
}

impl Args {
    /// The operation's options, as the flags give them.
    pub fn options(&self) -> LaunchOptions {
        LaunchOptions {
            id: self.id.clone(),
            list: self.list,
            print: self.print,
            plugin: self.plugin.clone(),
            resume: self.resume.clone(),
            target: self.target.clone(),
            split: self.split.into(),
            ratio: self.ratio,
        }
    }
}

fn execute(args: &Args, context: &Context) -> VerbResult {
    match document(&args.options(), context)? {
        Launched::List(document) if args.json => output::print_json(&document),
        Launched::List(document) => {
            let lines: Vec<String> = document
                .integrations
                .iter()
                .map(|r| format!("{}\t{}\t{}", r.id, r.plugin, r.command.join(" ")))
                .collect();
            output::print_lines(&lines);
        }
        Launched::Print(document) if args.json => output::print_json(&document),
        Launched::Print(document) => {
            output::print_line(&format!("cd {}", document.cwd));
            output::print_line(&document.argv.join(" "));
        }
        Launched::Started(document) if args.json => output::print_json(&document),
        Launched::Started(document) => {
            output::print_line(&PaneId(document.terminal_id).to_string());
        }
    }
    Ok(SUCCESS)
}
