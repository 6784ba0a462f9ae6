//! `phux tag ls|add|rm TARGET [TAGS...] [--json]`: a pane's tags, read back from the server
//! after every write. `#` before a tag is optional. A miss is 1, or 3 against a partial fleet.

use clap::Subcommand;
use phux_core::documents::TagJson;
use phux_core::exit_code::SUCCESS;

use phux_core::selector::Selector;

use crate::client::fleet_search::{self, FleetPanes};
use crate::client::pane::{normalize_tag, tags, TagAction};
use crate::client::target;
use crate::client::Client;
use crate::commands::values::{connect, warn_if_partial};
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// List, add or remove pane tags
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print a TagJson document
    #[arg(long, global = true)]
    pub json: bool,
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, Subcommand)]
pub enum Action {
    /// Show the tags of every pane TARGET names [default: every pane]
    #[command(visible_alias = "list")]
    Ls {
        #[arg(value_name = "TARGET")]
        target: Option<String>,
    },
    /// Add tags to every pane TARGET names
    Add {
        #[arg(value_name = "TARGET")]
        target: String,
        #[arg(value_name = "TAGS", required = true)]
        tags: Vec<String>,
    },
    /// Remove tags from every pane TARGET names
    #[command(visible_alias = "remove")]
    Rm {
        #[arg(value_name = "TARGET")]
        target: String,
        #[arg(value_name = "TAGS", required = true)]
        tags: Vec<String>,
    },
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(args.action, args.json, context))
}

fn execute(action: Action, json: bool, context: &Context) -> VerbResult {
    let (action, target_text, tag_texts) = match action {
        Action::Ls { target } => (TagAction::List, target, Vec::new()),
        Action::Add { target, tags } => (TagAction::Add, Some(target), tags),
        Action::Rm { target, tags } => (TagAction::Remove, Some(target), tags),
    };
    let tag_names = tag_texts
        .iter()
        .map(|t| normalize_tag(t))
        .collect::<Result<Vec<_>, _>>()?;
    let selector = target_text.as_deref().map(target::parse).transpose()?;
    let mut client = connect(context)?;
    let groups = match selector {
        // A tag, or no TARGET: every pane of the fleet that matches, satellites' included.
        Some(Selector::Tag(tag)) => {
            let (groups, partial) = fleet_search::tagged_partial(&mut client, &tag)?;
            warn_if_partial(partial);
            groups
        }
        None => {
            let (groups, partial) = fleet_search::every_pane(&mut client)?;
            warn_if_partial(partial);
            groups
        }
        Some(selector) => {
            let resolved = target::resolve_target(&mut client, &selector)?;
            warn_if_partial(resolved.partial_warning());
            vec![FleetPanes {
                host: resolved.satellite().map(str::to_owned),
                panes: resolved.panes().to_vec(),
            }]
        }
    };
    let mut rows = Vec::new();
    for group in groups {
        // `client` already speaks to the group's server (the hub's, or the satellite a
        // `NAME/@N` tunnelled it to); a `#tag` match elsewhere gets its own tunnel.
        let document = match &group.host {
            Some(host) if client.route() != Some(host.as_str()) => {
                let mut satellite = Client::connect_routed(client.socket(), Some(host))?;
                tags(&mut satellite, action, group.panes, tag_names.clone())?
            }
            _ => tags(&mut client, action, group.panes, tag_names.clone())?,
        };
        for mut row in document.terminals {
            // Rows name the pane as the hub addresses it, so each can be fed back as TARGET.
            row.terminal.host = group.host.clone();
            rows.push(row);
        }
    }
    let document = TagJson::new(rows);
    if json {
        output::print_json(&document);
    } else {
        for line in prose_lines(&document) {
            output::print_line(&line);
        }
    }
    Ok(SUCCESS)
}

/// `@7<TAB>build ci`, one line per pane.
pub fn prose_lines(document: &TagJson) -> Vec<String> {
    document
        .terminals
        .iter()
        .map(|row| format!("{}\t{}", row.terminal, row.tags.join(" ")))
        .collect()
}
