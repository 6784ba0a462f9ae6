//! `send-keys`' operation: keystrokes typed into the one pane a TARGET names, acknowledged, and
//! the MarkJson document `send-keys --json` and `paste --json` print.

use crate::failure::Failure;
use crate::values::{connect, resolve_single_pane};
use crate::Context;
use crate::{pane, target};

/// What `send-keys --json` and `paste --json` print: the pane and its output position from just
/// before the input was written (opaque; hand it to `wait --after`), and how the input was
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
    let mark = if literal {
        pane::send_literal(&mut client, pane, keys.concat(), &operation)?
    } else {
        pane::send_keys(&mut client, pane, keys, &operation)?
    };
    Ok(MarkJson::delivered(pane, mark, operation))
}
