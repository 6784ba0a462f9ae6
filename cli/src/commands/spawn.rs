//! `phux spawn [--target T] [--split h|v] [--ratio R] [-c DIR] [-e K=V]... [--json] [-- CMD...]`:
//! a new pane next to the target pane or in the target session (the most recently active
//! session without `--target`), or with `--satellite NAME` on that satellite, through the hub.
//! Never starts a server.

use std::path::PathBuf;

use phux_core::exit_code::SUCCESS;
use phux_core::split::{check_ratio, DEFAULT_RATIO};

use crate::client::lifecycle::{spawn, Placement, ProcessSpec};
use crate::client::target;
use crate::commands::values::{connect, parse_env, SplitArg};
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Open a new pane next to a target pane or in a session
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pane to split, or a session to add the pane to [default: the most recently active
    /// session]
    #[arg(long, value_name = "TARGET")]
    pub target: Option<String>,
    /// Create the pane on this satellite (a `[[satellites]]` name); address it as NAME/@N
    #[arg(long, value_name = "NAME")]
    pub satellite: Option<String>,
    /// The divider: horizontal (stacked) or vertical (side by side)
    #[arg(long, value_enum, default_value_t = SplitArg::Horizontal)]
    pub split: SplitArg,
    /// The new pane's share of the space, strictly between 0 and 1
    #[arg(long, default_value_t = DEFAULT_RATIO, allow_negative_numbers = true)]
    pub ratio: f64,
    /// Directory the process starts in [default: the server's choice]
    #[arg(short = 'c', long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Environment entry for the process (repeatable; VALUE may contain '=')
    #[arg(short = 'e', long = "env", value_name = "KEY=VALUE", value_parser = parse_env)]
    pub env: Vec<(String, String)>,
    /// Print a SpawnJson document instead of the pane id
    #[arg(long)]
    pub json: bool,
    /// Give the pane no place in the window's split tree yet (it runs, is listed as unplaced
    /// and can be read and typed into); `phux insert-pane TARGET NEW_PANE` places it
    #[arg(long)]
    pub detached: bool,
    /// The command to run instead of the default shell
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
}

pub fn run(args: Args, context: &Context) -> i32 {
    let json = args.json;
    conclude(json, execute(args, context))
}

fn execute(args: Args, context: &Context) -> VerbResult {
    // Refusals that need no server come first.
    check_ratio(args.ratio)?;
    let target = args.target.as_deref().map(target::parse).transpose()?;
    let placement = Placement {
        target,
        split: args.split.into(),
        ratio: args.ratio,
        unplaced: args.detached,
    };
    let spec = ProcessSpec {
        cwd: args.cwd,
        env: args.env,
        command: (!args.command.is_empty()).then_some(args.command),
        history_limit: None,
    };
    let mut client = connect(context)?;
    if let Some(satellite) = &args.satellite {
        if placement.target.is_some() {
            return Err(crate::commands::values::exclusive("satellite", "target"));
        }
        target::enter_satellite(&mut client, satellite)
            .map_err(|e| crate::failure::Failure::from(e).partial_view_exits_1())?;
    }
    let mut spawned = match &args.satellite {
        // A satellite whose server has no session yet (one `phux proxy` just started) gets
        // one, as `new` would make.
        Some(_) if client.state()?.sessions.is_empty() => {
            let created = crate::client::lifecycle::new_session(&mut client, None, spec)?;
            phux_core::documents::SpawnJson::local(created.terminal_id)
        }
        _ => spawn(&mut client, placement, spec)
            .map_err(|e| crate::failure::Failure::from(e).partial_view_exits_1())?,
    };
    spawned.satellite = args.satellite.clone();
    if args.json {
        output::print_json(&spawned);
    } else {
        let address = match &spawned.satellite {
            Some(name) => phux_core::ids::TerminalAddr::remote(name.clone(), spawned.terminal_id),
            None => phux_core::ids::TerminalAddr::local(spawned.terminal_id),
        };
        output::print_line(&address.to_string());
    }
    Ok(SUCCESS)
}
