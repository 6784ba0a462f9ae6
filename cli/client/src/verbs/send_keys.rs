//! `send-keys`' operation: keystrokes typed into the one pane a TARGET names, acknowledged, and
//! the MarkJson document `send-keys --json` and `paste --json` print.

use std::time::Duration;

use phux_core::ids::PaneId;

use crate::failure::Failure;
use crate::values::{connect, resolve_single_pane};
use crate::verbs::wait::WaitOptions;
use crate::wait::{wait, After, WaitSpec};
use crate::Context;
use crate::{pane, target};

/// What `send-keys --json` and `paste --json` print: the pane and its output position from just
/// before the input (of a batch of several lines, its last line) was written (opaque; hand it
/// to `wait --after`), and how the input was
/// delivered: `ok` once every byte is in the pane's PTY, under the write's operation id.
#[derive(Debug, serde::Serialize)]
pub struct MarkJson {
    pub schema_version: u32,
    pub pane: phux_core::ids::PaneId,
    pub mark: u64,
    pub delivery: &'static str,
    pub operation_id: String,
    /// `paste` only: whether the text went in bracketed-paste brackets.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bracketed: Option<bool>,
}

impl MarkJson {
    /// Input every byte of which reached `pane`'s terminal under `operation`.
    pub fn delivered(pane: phux_core::ids::PaneId, mark: u64, operation: String) -> MarkJson {
        MarkJson {
            schema_version: 1,
            pane,
            mark,
            delivery: "ok",
            operation_id: operation,
            bracketed: None,
        }
    }
}

/// Types `keys` into the one pane `target` names (as text when `literal`), acknowledged; the
/// document `--json` prints (the MCP adapter's `phux_send_keys` too).
///
/// A batch whose keys submit a line before its last key (`Enter 'f(10)' Enter`) is typed line
/// by line: each line after the pane answered the one before (wrote, then stayed quiet for
/// [`ANSWERED_QUIET`], or [`ANSWER_LIMIT`] passed), and `mark` is the output position from just
/// before the last line, so `wait --after MARK` sees only what the last line caused, never a
/// prompt an earlier line drew.
pub fn deliver(
    context: &Context,
    target: &str,
    keys: Vec<String>,
    literal: bool,
) -> Result<MarkJson, Failure> {
    if !literal {
        pane::check_keys(&keys)?;
    }
    let selector = target::parse(target)?;
    let mut client = connect(context)?;
    let pane = resolve_single_pane(&mut client, &selector)?;
    let operation = pane::operation_id();
    if literal {
        let mark = pane::send_literal(&mut client, pane, keys.concat(), &operation)?;
        return Ok(MarkJson::delivered(pane, mark, operation));
    }
    let lines = lines_of(keys);
    let last = lines.len() - 1;
    let mut mark = 0;
    for (i, line) in lines.into_iter().enumerate() {
        // One operation id per line: the server types each id at most once.
        let id = if i == 0 {
            operation.clone()
        } else {
            format!("{operation}-{i}")
        };
        mark = pane::send_keys(&mut client, pane, line, &id)?;
        if i < last {
            answered(&mut client, pane, mark)?;
        }
    }
    Ok(MarkJson::delivered(pane, mark, operation))
}

/// What `send-keys` waits for after the keys, in the same call (`--wait-until`,
/// `--wait-regex`, `--wait-idle`; MCP's `wait_until`, `wait_regex`, `wait_idle_ms`).
#[derive(Debug, Clone, Default)]
pub struct ThenWait {
    pub until: Option<String>,
    pub regex: Option<String>,
    pub idle_ms: Option<u64>,
    /// [default: [`DEFAULT_WAIT`]]
    pub timeout: Option<Duration>,
}

/// How long a send-and-wait waits when no timeout is given.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(30);

impl ThenWait {
    /// Whether a wait was asked for; a timeout without one is a usage error.
    pub fn asked(&self) -> Result<bool, Failure> {
        let asked = self.until.is_some() || self.regex.is_some() || self.idle_ms.is_some();
        if self.timeout.is_some() && !asked {
            return Err(crate::values::usage(
                "a timeout applies to a wait after the keys (until a text, a regex, or idle)",
            ));
        }
        Ok(asked)
    }

    /// The wait on `target` for output after `mark` (the keys' `mark`), as `wait --after`.
    pub fn options(self, target: &str, mark: u64) -> WaitOptions {
        WaitOptions {
            until: self.until,
            regex: self.regex,
            idle: self.idle_ms,
            tail: None,
            new: false,
            after: Some(mark),
            output_only: false,
            timeout: Some(self.timeout.unwrap_or(DEFAULT_WAIT)),
            target: Some(target.to_owned()),
        }
    }
}

/// How long a pane must stay quiet after writing for a line to count as answered.
pub const ANSWERED_QUIET: Duration = Duration::from_millis(60);
/// The longest a line waits for its answer (a program that prints nothing on Enter).
pub const ANSWER_LIMIT: Duration = Duration::from_secs(1);

/// Waits until `pane` wrote after `mark` and then stayed quiet, or [`ANSWER_LIMIT`].
fn answered(client: &mut crate::Client, pane: PaneId, mark: u64) -> Result<(), Failure> {
    let spec = WaitSpec {
        idle: Some(ANSWERED_QUIET),
        after: Some(After::Mark(mark)),
        timeout: Some(ANSWER_LIMIT),
        ..WaitSpec::default()
    };
    wait(client, pane, &spec).map_err(Failure::from)?;
    Ok(())
}

/// The batch cut after each key that submits a line (Enter, KPEnter, C-m, C-j); the last
/// line may submit nothing.
fn lines_of(keys: Vec<String>) -> Vec<Vec<String>> {
    let mut lines = vec![Vec::new()];
    let count = keys.len();
    for (i, key) in keys.into_iter().enumerate() {
        let submits = submits(&key);
        if let Some(line) = lines.last_mut() {
            line.push(key);
        }
        if submits && i + 1 < count {
            lines.push(Vec::new());
        }
    }
    lines
}

fn submits(key: &str) -> bool {
    ["enter", "kpenter", "c-m", "c-j"]
        .iter()
        .any(|name| key.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(list: &[&str]) -> Vec<String> {
        list.iter().map(|k| (*k).to_owned()).collect()
    }

    #[test]
    fn a_batch_is_cut_after_each_key_that_submits_a_line() {
        assert_eq!(
            lines_of(keys(&["Enter", "f(10)", "enter"])),
            vec![keys(&["Enter"]), keys(&["f(10)", "enter"])]
        );
        assert_eq!(
            lines_of(keys(&["ls", "Enter"])),
            vec![keys(&["ls", "Enter"])]
        );
        assert_eq!(
            lines_of(keys(&["a", "C-m", "b"])),
            vec![keys(&["a", "C-m"]), keys(&["b"])]
        );
        // "Enter" typed as text by a multi-word argument is not a key.
        assert_eq!(
            lines_of(keys(&["press Enter"])),
            vec![keys(&["press Enter"])]
        );
    }
}
