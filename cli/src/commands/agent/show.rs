//! `phux agent show [TARGET] [--json]`: what phux believes about the agent in each pane TARGET
//! names, with the evidence (AgentStateJson). A miss is 1, or 3 against a partial fleet.

use phux_core::documents::AgentEntry;
use phux_core::exit_code::SUCCESS;
use phux_core::limits::for_display;

use crate::client::{agents, target};
use crate::commands::values::{connect, warn_if_partial};
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Show a pane's agent: identity, state, attention and the evidence behind them
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print an AgentStateJson document
    #[arg(long)]
    pub json: bool,
    /// The pane [default: the active pane]
    #[arg(value_name = "TARGET")]
    pub target: Option<String>,
}

pub fn run(args: Args, context: &Context) -> i32 {
    conclude(args.json, execute(&args, context, false))
}

/// `show`, and `explain` for a live pane (the same document; `explain`'s prose lists every
/// source).
pub fn execute(args: &Args, context: &Context, detailed: bool) -> VerbResult {
    let selector = target::parse(args.target.as_deref().unwrap_or("."))?;
    let mut client = connect(context)?;
    let verb = if detailed {
        "agent explain"
    } else {
        "agent show"
    };
    target::refuse_satellite(&selector, verb)?;
    let resolved = target::resolve_target(&mut client, &selector)?;
    warn_if_partial(resolved.partial_warning());
    let document = agents::show(&mut client, resolved.panes().to_vec())?;
    if args.json {
        output::print_json(&document);
    } else {
        let mut lines = Vec::new();
        for entry in &document.agents {
            lines.extend(detail_lines(entry, detailed));
        }
        output::print_lines(&lines);
    }
    Ok(SUCCESS)
}

/// `@3<TAB>reviewer (claude)<TAB>blocked<TAB>attention high<TAB>EXPLANATION`. Every string a
/// pane or an agent supplied (a name from `agent set --name`, an `ask` question in the
/// explanation, a title) is escaped: an OSC 52 in one wrote the reader's clipboard.
pub fn summary_line(entry: &AgentEntry) -> String {
    format!(
        "{}\t{} ({})\t{}\tattention {}\t{}",
        escaped(&entry.terminal.to_string()),
        escaped(&entry.agent.label),
        escaped(&entry.agent.kind.to_string()),
        entry.state,
        entry.attention,
        escaped(&entry.explanation)
    )
}

/// `text` as a person may read it (see [`for_display`]).
fn escaped(text: &str) -> String {
    for_display(text).into_owned()
}

/// The summary line, then where the pane is and why phux believes what it does.
pub fn detail_lines(entry: &AgentEntry, every_source: bool) -> Vec<String> {
    let mut lines = vec![summary_line(entry)];
    lines.push(format!(
        "  in {}:{}{}, confidence {:.2}",
        escaped(&entry.session),
        escaped(&entry.window),
        entry
            .cwd
            .as_deref()
            .map(|c| format!(", cwd {}", escaped(c)))
            .unwrap_or_default(),
        entry.confidence
    ));
    if let Some(title) = entry.title.as_deref().filter(|t| !t.is_empty()) {
        lines.push(format!("  title: {}", escaped(title)));
    }
    let shown = if every_source { entry.sources.len() } else { 1 };
    for source in entry.sources.iter().take(shown) {
        lines.push(format!(
            "  {} {:.2}: {} says {}",
            escaped(&source.kind.to_string()),
            source.confidence,
            escaped(&source.signal),
            escaped(&source.observed)
        ));
    }
    lines
}
