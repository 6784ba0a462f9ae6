//! `agent answer`'s operation: answers the ask active on a pane, typing the answer the way the
//! occupant takes it: a numbered dialog (claude, codex) takes the number, an arrow-driven one
//! (opencode, pi, omp) takes arrows and Enter, anything else the answer's text and Enter.

use phux_core::documents::{AgentAnswerJson, AnsweredAsk};
use phux_core::error_code::ErrorCode;
use phux_core::ids::TerminalAddr;

use crate::agents::inspect;
use crate::failure::Failure;
use crate::pane::{ask_answered, operation_id, send_keys};
use crate::target;
use crate::values::{connect, resolve_agent_pane, usage};
use crate::Context;

/// Answer the question a pane's agent is asking
#[derive(Debug, Clone)]
pub struct AnswerOptions {
    /// The ask's id (as `agent show` or `watch` reported it)
    pub id: String,
    /// Pick the Nth suggested answer (1-based)
    pub choice: Option<usize>,
    /// Answer with this text
    pub text: Option<String>,
    /// Allow a --text that is not one of the suggestions
    pub allow_unlisted: bool,
    /// The pane
    pub target: String,
}

fn refusal(code: ErrorCode, message: String, remedy: String) -> Failure {
    Failure::new(code, message, remedy)
}

/// Checks the answer against the active ask, types it and returns what `--json` prints.
pub fn document(args: AnswerOptions, context: &Context) -> Result<AgentAnswerJson, Failure> {
    if args.choice.is_none() && args.text.is_none() {
        return Err(usage("pass --choice N or --text T"));
    }
    let selector = target::parse(&args.target)?;
    let mut client = connect(context)?;
    let pane = resolve_agent_pane(&mut client, &selector, "agent answer")?;
    let report = inspect(&mut client, vec![pane])?.into_iter().next();
    let kind = report
        .as_ref()
        .and_then(|r| r.record.as_ref().map(|r| r.kind.clone()));
    let Some(ask) = report.and_then(|r| r.ask) else {
        return Err(refusal(
            ErrorCode::NoActiveAsk,
            format!("{pane} is asking nothing"),
            format!("see what the pane shows with `phux agent show {pane}`"),
        ));
    };
    if ask.id.is_empty() {
        return Err(refusal(
            ErrorCode::AskUnidentified,
            format!("the ask on {pane} has no id, so no answer can be matched to it; nothing was typed"),
            format!(
                "the asker names its ask (`phux-ask[ID]:QUESTION` or `phux ask --id ID`); or type the answer with `phux send-keys {pane} ...`"
            ),
        ));
    }
    if ask.id != args.id {
        return Err(refusal(
            ErrorCode::AskStale,
            format!(
                "the ask {:?} is no longer active on {pane}; it asks {:?} now",
                args.id, ask.id
            ),
            format!(
                "answer the current ask: `phux agent answer {pane} --id {} ...`",
                ask.id
            ),
        ));
    }
    let (answer, source, keys) = match (args.choice, args.text) {
        (Some(n), _) => {
            let Some(answer) = n.checked_sub(1).and_then(|i| ask.suggestions.get(i)) else {
                return Err(refusal(
                    ErrorCode::AnswerChoiceOutOfRange,
                    format!(
                        "choice {n} is out of range: the ask offers {} suggestions",
                        ask.suggestions.len()
                    ),
                    "pass --choice between 1 and the number of suggestions, or --text".into(),
                ));
            };
            (
                answer.clone(),
                "choice",
                choice_keys(kind.as_deref(), n, answer, ask.selected),
            )
        }
        (None, Some(text)) => {
            if !args.allow_unlisted
                && !ask.suggestions.is_empty()
                && !ask.suggestions.contains(&text)
            {
                return Err(refusal(
                    ErrorCode::AnswerNotSuggested,
                    format!(
                        "{text:?} is not one of the suggestions ({})",
                        ask.suggestions.join(", ")
                    ),
                    "pick a suggestion, or pass --allow-unlisted".into(),
                ));
            }
            (text.clone(), "text", vec![text, "Enter".into()])
        }
        (None, None) => return Err(usage("pass --choice N or --text T")),
    };
    // Claimed before it is typed: of two answers to one ask only the first claims it (the
    // server ends the ask atomically); the second is refused and types nothing.
    ask_answered(&mut client, pane, &ask.id)?;
    let operation = operation_id();
    send_keys(&mut client, pane, keys, &operation)?;
    Ok(AgentAnswerJson {
        schema_version: 1,
        terminal: TerminalAddr::local(pane),
        ask: AnsweredAsk {
            id: ask.id,
            question: ask.question,
            suggestions: ask.suggestions,
        },
        answer,
        source: source.to_owned(),
        operation_id: operation,
        delivered: true,
    })
}

/// The keys that pick suggestion `n` in the occupant's dialog: its number, or arrows from the
/// row the dialog's pointer is on (the first when the screen did not say) and Enter.
fn choice_keys(kind: Option<&str>, n: usize, answer: &str, selected: Option<usize>) -> Vec<String> {
    match kind {
        Some("claude" | "codex") => vec![n.to_string()],
        Some("opencode" | "pi" | "omp") => {
            let from = selected.unwrap_or(0);
            let to = n.saturating_sub(1);
            let (arrow, moves) = if to >= from {
                ("Down", to - from)
            } else {
                ("Up", from - to)
            };
            let mut keys = vec![arrow.to_owned(); moves];
            keys.push("Enter".into());
            keys
        }
        _ => vec![answer.to_owned(), "Enter".into()],
    }
}
