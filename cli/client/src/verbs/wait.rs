//! `wait`'s operation: until text appears (a substring or a regex, matched against soft-wrap
//! joined lines) or the screen settles, driven by the pane's change notices, not by a polling
//! loop. `new` / `after` match text only in output written after the wait began / after a mark
//! another verb reported. The outcome carries the final screen for `wait --json`'s document.

use std::time::Duration;

use phux_core::documents::{ScreenState, Semantic};
use regex::Regex;

use crate::failure::Failure;
use crate::output;
use crate::stop::Stop;
use crate::values::{connect, exclusive, resolve_single_pane, usage};
use crate::verbs::snapshot::plan;
use crate::verbs::wait_json::WaitJson;
use crate::wait::{wait, After, TextCondition, WaitSpec};
use crate::Context;
use crate::{screen, target};

/// Wait until text appears on a pane or its screen settles
#[derive(Debug, Clone)]
pub struct WaitOptions {
    /// Wait until a line contains TEXT. Lines are matched as the terminal shows them: soft
    /// wraps joined, right-trimmed, but the cursor's line keeps its blanks up to the cursor
    /// (`--until '>>> '` matches a waiting Python prompt)
    pub until: Option<String>,
    /// Wait until a line matches the regular expression RE
    pub regex: Option<String>,
    /// Wait until the screen has not changed for MS milliseconds (alone: 500); with --after or
    /// --new, until the pane wrote something after the mark and then stayed quiet that long
    pub idle: Option<u64>,
    /// Match (and print) the last N rows of history+viewport (bare: 80; 0: all, capped at
    /// 10000)
    pub tail: Option<Option<String>>,
    /// Match --until/--regex only in output that arrives after the wait began
    pub new: bool,
    /// Match --until/--regex only in the program's output after MARK (the `mark` send-keys,
    /// paste, run or snapshot --json reported): what was typed and its echo never count, and
    /// the line matched is one on the screen as it stands
    pub after: Option<u64>,
    /// Ignore rows holding typed input (needs a shell that emits OSC 133 marks)
    pub output_only: bool,
    /// Give up after SECS seconds and exit 124 [default: never; 0: check once]
    pub timeout: Option<Duration>,
    /// The pane [default: the active pane]
    pub target: Option<String>,
}

fn text_condition(args: &WaitOptions) -> Result<Option<TextCondition>, Failure> {
    match (&args.until, &args.regex) {
        (Some(_), Some(_)) => Err(exclusive("until", "regex")),
        (Some(text), None) => Ok(Some(TextCondition::Substring(text.clone()))),
        (None, Some(re)) => Regex::new(re)
            .map(|re| Some(TextCondition::Regex(re)))
            .map_err(|e| usage(format!("invalid --regex {re:?}: {e}"))),
        (None, None) => Ok(None),
    }
}

/// `--new` / `--after`: with a text condition, or with `--idle` alone (the screen changed since
/// the mark, then stayed quiet: a full-screen program done redrawing); not both.
fn after(args: &WaitOptions, text: Option<&TextCondition>) -> Result<Option<After>, Failure> {
    let after = match (args.new, args.after) {
        (true, Some(_)) => return Err(exclusive("new", "after")),
        (true, None) => Some(After::Start),
        (false, mark) => mark.map(After::Mark),
    };
    if after.is_some() && text.is_none() && args.idle.is_none() {
        return Err(usage(
            "--new and --after need --until, --regex or --idle (changed since, then quiet)",
        ));
    }
    Ok(after)
}

/// How a wait ended, for the verb and the MCP tool alike.
pub struct Waited {
    pub pane: phux_core::ids::PaneId,
    /// The final screen, already cut to `--tail`.
    pub state: ScreenState,
    pub met: bool,
    pub matched: Option<String>,
    pub tail: Option<usize>,
}

impl Waited {
    /// What `wait --json` prints.
    pub fn document(&self) -> WaitJson<'_> {
        WaitJson::new(&self.state, self.met, self.matched.clone(), self.tail)
    }
}

/// The wait `args` describe; `stop` ends it early, unmet (the MCP adapter's cancellation).
pub fn wait_for(
    args: WaitOptions,
    context: &Context,
    stop: Option<Stop>,
) -> Result<Waited, Failure> {
    let text = text_condition(&args)?;
    let after = after(&args, text.as_ref())?;
    let plan = plan(None, args.tail, args.target)?;
    let selector = target::parse(&plan.target)?;
    let mut client = connect(context)?;
    let pane = resolve_single_pane(&mut client, &selector)?;
    if args.output_only {
        warn_without_marks(&mut client, pane)?;
    }
    let spec = WaitSpec {
        text,
        idle: args.idle.map(Duration::from_millis),
        output_only: args.output_only,
        scrollback: plan.scrollback,
        timeout: args.timeout,
        after,
        stop,
    };
    let outcome = wait(&mut client, pane, &spec)
        .map_err(|error| Failure::from(error).naming_pane(pane, &plan.target))?;
    let mut state = outcome.screen;
    state.cells = None;
    if let Some(n) = plan.tail {
        state = state.tail(n);
    }
    Ok(Waited {
        pane,
        state,
        met: outcome.met,
        matched: outcome.matched,
        tail: plan.tail,
    })
}

/// `--output-only` can only tell input from output by OSC 133 marks; say so when there are
/// none, since every row then counts as output.
fn warn_without_marks(
    client: &mut crate::Client,
    pane: phux_core::ids::PaneId,
) -> Result<(), Failure> {
    let state = screen::get_screen(client, pane, None, true)?;
    let marked = state
        .cells
        .iter()
        .flatten()
        .any(|c| matches!(c.semantic, Some(Semantic::Input | Semantic::Prompt)));
    if !marked {
        output::warn(&format!(
            "{pane} shows no OSC 133 prompt marks, so --output-only cannot tell typed input from output"
        ));
    }
    Ok(())
}
