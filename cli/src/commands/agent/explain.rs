//! `phux agent explain [TARGET]`: the live pane's AgentStateJson with every source in prose;
//! `phux agent explain --file PATH|- --kind K [--title T] [--format auto|json|text]`: what the
//! detection manifest of kind K does to one captured screen (AgentExplainJson), with no server.
//! A `snapshot --json` document and a plain text screen both work as captures.

use clap::ValueEnum;
use phux_client::verbs::agent::explain::{self, offline_document, ExplainOptions};
use phux_core::agents::predicate::Evidence;
use phux_core::agents::{Evaluation, FallbackReason};
use phux_core::exit_code::SUCCESS;

use crate::commands::agent::show;
use crate::commands::Context;
use crate::failure::{conclude, VerbResult};
use crate::output;

/// Rows of each region the prose form shows.
const PROSE_REGION_ROWS: usize = 6;

/// Explain a pane's agent state, or what a manifest does to a captured screen
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Explain a captured screen (a snapshot --json document or plain text; - for stdin)
    #[arg(long, value_name = "PATH")]
    pub file: Option<String>,
    /// The manifest to explain the capture with (needed with --file)
    #[arg(long, value_name = "K")]
    pub kind: Option<String>,
    /// The pane title to evaluate the capture with
    #[arg(long, value_name = "T")]
    pub title: Option<String>,
    /// How to read the capture
    #[arg(long, value_enum, default_value_t = CaptureFormat::Auto)]
    pub format: CaptureFormat,
    /// Print the document as JSON
    #[arg(long)]
    pub json: bool,
    /// The pane [default: the active pane]
    #[arg(value_name = "TARGET")]
    pub target: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CaptureFormat {
    Auto,
    Json,
    Text,
}

impl Args {
    /// The operation's options, as the flags give them.
    pub fn options(&self) -> ExplainOptions {
        ExplainOptions {
            kind: self.kind.clone(),
            title: self.title.clone(),
            format: match self.format {
                CaptureFormat::Auto => explain::CaptureFormat::Auto,
                CaptureFormat::Json => explain::CaptureFormat::Json,
                CaptureFormat::Text => explain::CaptureFormat::Text,
            },
        }
    }
}

pub fn run(args: Args, context: &Context) -> i32 {
    match args.file.clone() {
        Some(path) => conclude(args.json, offline(&args, &path)),
        None => {
            let live = show::Args {
                json: args.json,
                target: args.target,
            };
            conclude(live.json, show::execute(&live, context, true))
        }
    }
}

fn offline(args: &Args, path: &str) -> VerbResult {
    let document = offline_document(&args.options(), path)?;
    if args.json {
        output::print_json(&document);
    } else {
        // The regions are a pane's text and the rules a manifest's: escaped for the reader.
        let lines: Vec<String> = prose(&document.explain)
            .iter()
            .map(|line| phux_core::limits::for_display(line).into_owned())
            .collect();
        output::print_lines(&lines);
    }
    Ok(SUCCESS)
}

/// The prose form: the verdict, each region (capped), each rule with its evidence tree.
pub fn prose(explain: &Evaluation) -> Vec<String> {
    let mut lines = vec![format!(
        "{}: {}{}",
        explain.kind,
        explain.detector_state,
        match (&explain.matched_rule, explain.fallback_reason) {
            (Some(rule), Some(_)) => format!(" (held by freeze rule {rule})"),
            (Some(rule), None) => format!(" (rule {rule})"),
            (None, Some(FallbackReason::WorkingIndicator)) => {
                " (no rule matched, but a working-looking row is on screen: the fail-safe)"
                    .to_owned()
            }
            (None, _) => " (no rule matched: the fail-safe)".to_owned(),
        }
    )];
    if let Some(dialog) = &explain.dialog {
        lines.push(format!("dialog: {:?}", dialog.question));
        for (index, choice) in dialog.choices.iter().enumerate() {
            lines.push(format!("  {}. {choice}", index + 1));
        }
    }
    if let Some(row) = explain.near_misses.first().map(|m| &m.row) {
        lines.push(format!(
            "read as idle beside a working-looking row: {row:?}"
        ));
        for miss in &explain.near_misses {
            lines.push(format!("  working rule {}: {}", miss.rule, miss.reason));
        }
    }
    lines.push("regions:".to_owned());
    for region in &explain.regions {
        if region.empty {
            lines.push(format!("  {}: (empty)", region.region));
            continue;
        }
        lines.push(format!("  {}:", region.region));
        for row in region.lines.iter().take(PROSE_REGION_ROWS) {
            lines.push(format!("    | {row}"));
        }
        if region.lines.len() > PROSE_REGION_ROWS {
            lines.push(format!(
                "    ({} more rows)",
                region.lines.len() - PROSE_REGION_ROWS
            ));
        }
    }
    lines.push("rules:".to_owned());
    for rule in &explain.evaluated_rules {
        let verdict = rule.state.map_or("freeze".to_owned(), |s| s.to_string());
        lines.push(format!(
            "  {} {} [priority {}, {}] -> {verdict}",
            mark(rule.matched),
            rule.id,
            rule.priority,
            rule.region
        ));
        evidence_lines(&rule.evidence, 3, &mut lines);
    }
    lines
}

fn mark(matched: bool) -> &'static str {
    if matched {
        "yes"
    } else {
        "no "
    }
}

fn evidence_lines(node: &Evidence, indent: usize, lines: &mut Vec<String>) {
    let pattern = node
        .pattern
        .as_deref()
        .map(|p| format!(" '{p}'"))
        .unwrap_or_default();
    lines.push(format!(
        "{}{} {}{pattern}",
        " ".repeat(indent * 2),
        mark(node.matched),
        node.op
    ));
    for child in &node.children {
        evidence_lines(child, indent + 1, lines);
    }
}
