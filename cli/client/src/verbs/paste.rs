//! `paste`'s operation: text pasted into the pane a TARGET names (bracketed when the pane asks
//! for it), acknowledged.

use crate::failure::Failure;
use crate::values::{connect, resolve_pane};
use crate::verbs::send_keys::MarkJson;
use crate::Context;
use crate::{pane, target};

/// Pastes `text` into the pane `target` names, acknowledged; the document `--json` prints (the
/// MCP adapter's `phux_paste` too).
pub fn deliver(context: &Context, target: &str, text: String) -> Result<MarkJson, Failure> {
    let selector = target::parse(target)?;
    let mut client = connect(context)?;
    let pane = resolve_pane(&mut client, &selector)?;
    let operation = pane::operation_id();
    let (mark, bracketed) = pane::paste(&mut client, pane, text, &operation)?;
    let mut document = MarkJson::delivered(pane, mark, operation);
    document.bracketed = bracketed;
    Ok(document)
}
